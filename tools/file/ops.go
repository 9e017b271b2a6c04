package file

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (ft *fileTool) mkdir(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.resolveWrite("path", p)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(abs); err == nil {
		if !info.IsDir() {
			return nil, tool.Existsf("path", "choose another name", "%s exists and is not a directory", p)
		}
		return &tool.Result{Summary: fmt.Sprintf("%s already exists", ft.rel(abs)), Data: map[string]any{"path": ft.rel(abs), "created": false}}, nil
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("mkdir %s: %w", p, err)
	}
	return &tool.Result{Summary: fmt.Sprintf("Created directory %s", ft.rel(abs)), Data: map[string]any{"path": ft.rel(abs), "created": true}}, nil
}

// source resolves the item a move or delete acts on: the link itself when
// the path is a symlink, never a root, never the trash.
func (ft *fileTool) source(p string, follow bool) (string, fs.FileInfo, error) {
	var abs string
	var err error
	if follow {
		abs, err = ft.resolve("path", p)
	} else {
		abs, err = ft.resolveLink("path", p)
	}
	if err != nil {
		return "", nil, err
	}
	if ft.isRoot(abs) {
		return "", nil, tool.Errorf(tool.CodeDenied, "name a file or directory inside the workspace", "%s is a workspace root", p)
	}
	if abs == ft.sb.TrashDir() || ft.sb.IsTrash(abs) {
		return "", nil, tool.Errorf(tool.CodeDenied, "use action=restore to take items out of the trash", "%s is in the trash", p)
	}
	// A move or delete (the callers that do not follow links) changes the
	// source's place too; a copy only reads it, and its walk leaves the
	// data dir out.
	if !follow {
		if err := ft.checkWrite("path", p, abs); err != nil {
			return "", nil, err
		}
	}
	var info fs.FileInfo
	if follow {
		info, err = os.Stat(abs)
	} else {
		info, err = os.Lstat(abs)
	}
	if err != nil {
		return "", nil, statErr("path", p, err)
	}
	return abs, info, nil
}

// destination resolves output for move and copy: an existing directory
// receives the item under its own name (like mv and cp).
func (ft *fileTool) destination(output, srcAbs string) (string, error) {
	dst, err := ft.resolveWrite("output", output)
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(dst); err == nil && info.IsDir() {
		// The name joined may itself be a trash (a directory named .trash
		// copied into a root).
		dst = filepath.Join(dst, filepath.Base(srcAbs))
		if err := ft.checkWrite("output", output, dst); err != nil {
			return "", err
		}
	}
	if dst == srcAbs {
		return "", tool.Invalid("output", "source and destination are the same", "choose another output")
	}
	if within(srcAbs, dst) {
		return "", tool.Invalid("output", "cannot put a directory inside itself", "choose an output outside "+ft.rel(srcAbs))
	}
	return dst, nil
}

// clearDestination refuses an existing destination, or with overwrite moves
// it to the trash and returns the trash id.
func (ft *fileTool) clearDestination(ctx context.Context, dst string, overwrite bool, reason string) (string, error) {
	if !exists(dst) {
		return "", nil
	}
	if !overwrite {
		return "", tool.Existsf("output", "pass overwrite=true to replace it (the old one goes to the trash), or choose another output", "%s already exists", ft.rel(dst))
	}
	rec, err := trash.Put(ctx, ft.sb, dst, reason)
	if err != nil {
		return "", err
	}
	return rec.ID, nil
}

// endpoints is where move and copy begin: the source (links followed for a
// copy), the destination cleared for it with its parents made, and the data
// both report: from, to and the trash id of what the destination held.
func (ft *fileTool) endpoints(ctx context.Context, c *tool.Call, verb string, follow bool) (src string, info fs.FileInfo, dst string, data map[string]any, err error) {
	if src, info, err = ft.source(c.Args.String("path"), follow); err != nil {
		return "", nil, "", nil, err
	}
	if dst, err = ft.destination(c.Args.String("output"), src); err != nil {
		return "", nil, "", nil, err
	}
	replaced, err := ft.clearDestination(ctx, dst, c.Args.Bool("overwrite", false), "replaced by "+verb)
	if err != nil {
		return "", nil, "", nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", nil, "", nil, fmt.Errorf("%s: create parents: %w", verb, err)
	}
	data = map[string]any{"from": ft.rel(src), "to": ft.rel(dst)}
	if replaced != "" {
		data["replaced_trash_id"] = replaced
	}
	return src, info, dst, data, nil
}

func (ft *fileTool) move(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, _, dst, data, err := ft.endpoints(ctx, c, "move", false)
	if err != nil {
		return nil, err
	}
	if err := trash.Move(ctx, ft.sb, src, dst); err != nil {
		return nil, fmt.Errorf("move %s: %w", ft.rel(src), err)
	}
	return &tool.Result{Summary: fmt.Sprintf("Moved %s to %s", ft.rel(src), ft.rel(dst)), Data: data}, nil
}

func (ft *fileTool) copy(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, info, dst, data, err := ft.endpoints(ctx, c, "copy", true)
	if err != nil {
		return nil, err
	}
	if info.Mode().IsRegular() {
		in, err := os.Open(src)
		if err != nil {
			return nil, fmt.Errorf("copy: open %s: %w", ft.rel(src), err)
		}
		defer in.Close()
		err = atomicfile.Write(dst, info.Mode().Perm(), func(w io.Writer) error {
			_, err := io.Copy(w, trash.Cancellable(ctx, in))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", ft.rel(src), err)
		}
		return &tool.Result{Summary: fmt.Sprintf("Copied %s to %s", ft.rel(src), ft.rel(dst)), Data: data,
			Files: []tool.File{{Path: dst, MIME: mimeOf(dst, nil), Size: info.Size()}}}, nil
	}
	if !info.IsDir() {
		return nil, tool.Invalidf("path", "", "%s is not a regular file or directory", ft.rel(src))
	}
	// Copy the tree beside the destination, then rename: a failed or
	// cancelled copy leaves nothing half-made at the destination.
	stage, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".copy-*")
	if err != nil {
		return nil, fmt.Errorf("copy: staging: %w", err)
	}
	defer os.RemoveAll(stage)
	files := 0
	skipped, err := trash.CopyTree(ctx, ft.sb, src, filepath.Join(stage, "x"), false, func() {
		files++
		if files%100 == 0 {
			c.Progress(float64(files), 0, fmt.Sprintf("%s copied", wording.Count(files, "file", "files")))
		}
	})
	if err != nil {
		return nil, fmt.Errorf("copy %s: %w", ft.rel(src), err)
	}
	if err := os.Rename(filepath.Join(stage, "x"), dst); err != nil {
		return nil, fmt.Errorf("copy %s: %w", ft.rel(src), err)
	}
	data["files"] = files
	if len(skipped) > 0 {
		data["skipped"] = skipped // symlinks and special files are not copied
	}
	return &tool.Result{Summary: fmt.Sprintf("Copied %s to %s (%s)", ft.rel(src), ft.rel(dst), wording.Count(files, "file", "files")), Data: data}, nil
}

func (ft *fileTool) hash(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, info, err := ft.existing(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, tool.Invalidf("path", "hash works on one file; zip a directory first if you need one checksum for it", "%s is not a regular file", p)
	}
	alg := c.Args.StringOr("algorithm", "sha256")
	var h hash.Hash
	switch alg {
	case "sha256":
		h = sha256.New()
	case "sha1":
		h = sha1.New()
	case "md5":
		h = md5.New()
	case "sha512":
		h = sha512.New()
	default:
		return nil, tool.Invalid("algorithm", "unknown algorithm "+alg, "sha256, sha1, md5 or sha512")
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, statErr("path", p, err)
	}
	defer f.Close()
	n, err := io.Copy(h, trash.Cancellable(ctx, f))
	if err != nil {
		return nil, fmt.Errorf("hash %s: %w", p, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	return &tool.Result{
		Summary: fmt.Sprintf("%s of %s: %s", alg, ft.rel(abs), sum),
		Data:    map[string]any{"path": ft.rel(abs), "algorithm": alg, "hash": sum, "size": n},
	}, nil
}
