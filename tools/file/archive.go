package file

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// ratioFloor: entries (and archives) smaller than this uncompressed are not
// held to the compression-ratio limit.
const ratioFloor = 1 << 20

func (ft *fileTool) zip(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	srcs, err := ft.zipSources(c)
	if err != nil {
		return nil, err
	}
	out, replaced, err := ft.zipOutput(ctx, c, srcs)
	if err != nil {
		return nil, err
	}
	z := &zipper{ft: ft, c: c, out: out, seen: map[string]bool{}}
	err = atomicfile.Write(out, 0o644, func(w io.Writer) error {
		zw := zip.NewWriter(w)
		for _, src := range srcs {
			if err := z.addTree(ctx, zw, src); err != nil {
				return err
			}
		}
		return zw.Close()
	})
	if err != nil {
		if te, ok := tool.AsError(err); ok {
			return nil, te
		}
		return nil, fmt.Errorf("zip: %w", err)
	}
	info, _ := os.Stat(out)
	size := int64(0)
	if info != nil {
		size = info.Size()
	}
	data := map[string]any{"output": ft.rel(out), "entries": z.entries, "files": z.files, "bytes_in": z.total, "size": size}
	if len(z.skipped) > 0 {
		data["skipped"] = z.skipped
	}
	if replaced != "" {
		data["replaced_trash_id"] = replaced
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Packed %d file(s) into %s (%s)", z.files, ft.rel(out), wording.Bytes(size)),
		Data:    data,
		Files:   []tool.File{{Path: out, MIME: "application/zip", Size: size}},
	}, nil
}

// zipSources resolves the paths to pack; each must exist.
func (ft *fileTool) zipSources(c *tool.Call) ([]string, error) {
	paths := c.Args.Strings("paths")
	if len(paths) == 0 {
		return nil, tool.Invalid("paths", "paths is empty", "list the files or directories to pack")
	}
	var srcs []string
	for _, p := range paths {
		abs, err := ft.resolve("paths", p)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, statErr("paths", p, err)
		}
		srcs = append(srcs, abs)
	}
	return srcs, nil
}

// zipOutput picks the archive path and, with overwrite, moves an existing
// archive to the trash, returning its trash id.
func (ft *fileTool) zipOutput(ctx context.Context, c *tool.Call, srcs []string) (out, replaced string, err error) {
	name := filepath.Base(srcs[0])
	if ft.isRoot(srcs[0]) {
		name = "workspace"
	}
	if o := c.Args.String("output"); o != "" {
		// Check before Output, which creates the parent directories.
		if _, err := ft.resolveWrite("output", o); err != nil {
			return "", "", err
		}
	}
	out, err = ft.sb.Output(c.Args.String("output"), name+".zip")
	if err != nil {
		return "", "", ft.pathErr("output", c.Args.String("output"), err)
	}
	for _, s := range srcs {
		if s == out {
			return "", "", tool.Invalid("output", "the archive would replace one of its inputs", "choose another output")
		}
	}
	info, err := os.Stat(out)
	if err != nil {
		return out, "", nil
	}
	if info.IsDir() {
		return "", "", tool.Invalidf("output", "give a file name ending in .zip", "%s is a directory", ft.rel(out))
	}
	if !c.Args.Bool("overwrite", false) {
		return "", "", tool.Existsf("output", "pass overwrite=true to replace it (the old one goes to the trash), or choose another output", "%s already exists", ft.rel(out))
	}
	rec, err := trash.Snapshot(ctx, ft.sb, out, "replaced by zip")
	if err != nil {
		return "", "", err
	}
	return out, rec.ID, nil
}

// zipper packs trees into one archive and counts what it packed.
type zipper struct {
	ft      *fileTool
	c       *tool.Call
	out     string
	seen    map[string]bool
	skipped []string
	entries int
	files   int
	total   int64
}

// addTree packs src (a file or a directory) into zw.
func (z *zipper) addTree(ctx context.Context, zw *zip.Writer, src string) error {
	ft := z.ft
	base := filepath.Dir(src)
	trashDir := ft.sb.TrashDir()
	return ft.sb.WalkDir(src, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil {
			return werr
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == trashDir && !ft.sb.IsTrash(src) {
			return fs.SkipDir
		}
		// Skip the archive itself and atomicfile's temp file beside it,
		// which exists while we walk when the output is inside an input.
		if p == z.out || (filepath.Dir(p) == filepath.Dir(z.out) && strings.HasPrefix(d.Name(), "."+filepath.Base(z.out)+".tmp-")) {
			return nil
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return err
		}
		if ft.isRoot(src) {
			if p == src {
				return nil // the root's children go at the top of the archive
			}
			rel, _ = filepath.Rel(src, p)
		}
		return z.addEntry(ctx, zw, p, filepath.ToSlash(rel), d)
	})
}

// addEntry writes one walked file or directory as the entry name.
func (z *zipper) addEntry(ctx context.Context, zw *zip.Writer, p, name string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		z.skipped = append(z.skipped, name) // symlinks and special files
		return nil
	}
	if info.IsDir() {
		name += "/"
	}
	if z.seen[name] {
		return tool.Invalid("paths", fmt.Sprintf("two inputs give the archive entry %q", name), "zip items with different names, or zip their common parent")
	}
	z.seen[name] = true
	hdr, err := zip.FileInfoHeader(info)
	if err != nil {
		return err
	}
	hdr.Name = name
	if info.IsDir() {
		hdr.Method = zip.Store
	} else {
		hdr.Method = zip.Deflate
	}
	fw, err := zw.CreateHeader(hdr)
	if err != nil {
		return err
	}
	z.entries++
	if info.IsDir() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	n, err := io.Copy(fw, trash.Cancellable(ctx, f))
	f.Close()
	if err != nil {
		return err
	}
	z.files++
	z.total += n
	if z.files%100 == 0 {
		z.c.Progress(float64(z.files), 0, fmt.Sprintf("%s packed", wording.Count(z.files, "file", "files")))
	}
	return nil
}

// checkEntryName refuses archive entry names that could land outside the
// destination: absolute or drive-letter names, backslashes (separators on
// Windows), NUL, ".." components, and anything filepath.IsLocal rejects.
func checkEntryName(name string) error {
	switch {
	case name == "":
		return errors.New("empty name")
	case strings.ContainsRune(name, 0):
		return errors.New("NUL byte in name")
	case strings.Contains(name, `\`):
		return errors.New("backslash in name")
	case strings.HasPrefix(name, "/"):
		return errors.New("absolute path")
	case len(name) >= 2 && name[1] == ':':
		return errors.New("drive-letter path")
	case !utf8.ValidString(name):
		return errors.New("name is not valid UTF-8")
	}
	trimmed := strings.TrimSuffix(name, "/")
	for _, seg := range strings.Split(trimmed, "/") {
		if seg == ".." {
			return errors.New("parent directory reference (..)")
		}
	}
	if trimmed != "" && !filepath.IsLocal(filepath.FromSlash(trimmed)) {
		return errors.New("not a local path")
	}
	return nil
}

// entryName decodes a name: archives made on Chinese Windows store names in
// GBK without the UTF-8 flag.
func entryName(f *zip.File) string {
	if utf8.ValidString(f.Name) || !validGB18030([]byte(f.Name), true) {
		return f.Name
	}
	if s, err := simplifiedchinese.GB18030.NewDecoder().String(f.Name); err == nil {
		return s
	}
	return f.Name
}

type planned struct {
	f      *zip.File
	rel    string // cleaned, OS-separated, relative to the destination
	dir    bool
	target string
}

func (ft *fileTool) unzip(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	src, info, zr, err := ft.openZip(p)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	dest, destExists, err := ft.unzipDest(c, src)
	if err != nil {
		return nil, err
	}

	// Plan and check everything before writing anything.
	plan, total, conflicts, err := ft.planUnzip(zr, dest)
	if err != nil {
		return nil, err
	}
	if total > ratioFloor && float64(total)/float64(max(info.Size(), 1)) > ft.cfg.MaxUnzipRatio {
		return nil, tool.Errorf(tool.CodeDenied, "this looks like a zip bomb; nothing was extracted", "the archive expands %s from %s, beyond the ratio limit of %.0f", wording.Bytes(int64(total)), wording.Bytes(info.Size()), ft.cfg.MaxUnzipRatio)
	}
	if len(conflicts) > 0 && !c.Args.Bool("overwrite", false) {
		if len(conflicts) > 20 {
			conflicts = append(conflicts[:20], "…")
		}
		return nil, tool.Existsf("output", "pass overwrite=true (replaced files go to the trash) or choose another output",
			"%d file(s) already exist in %s: %s", len(conflicts), ft.rel(dest), strings.Join(conflicts, ", "))
	}

	stage, err := stagingDir(dest, destExists)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	written, err := ft.extractAll(ctx, c, p, plan, stage)
	if err != nil {
		return nil, err
	}
	replaced, err := ft.moveIntoPlace(ctx, plan, stage, dest, destExists)
	if err != nil {
		return nil, err
	}
	files := 0
	for _, e := range plan {
		if !e.dir {
			files++
		}
	}
	data := map[string]any{"output": ft.rel(dest), "entries": len(plan), "files": files, "bytes": written}
	if len(replaced) > 0 {
		data["replaced_trash_ids"] = replaced
	}
	return &tool.Result{Summary: fmt.Sprintf("Extracted %d file(s) from %s into %s", files, ft.rel(src), ft.rel(dest)), Data: data}, nil
}

// openZip resolves and opens the archive at p.
func (ft *fileTool) openZip(p string) (string, os.FileInfo, *zip.ReadCloser, error) {
	src, info, err := ft.existing(p)
	if err != nil {
		return "", nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return "", nil, nil, tool.Invalidf("path", "", "%s is not a file", p)
	}
	zr, err := zip.OpenReader(src)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		// ErrInsecurePath still returns a reader; the checks below name the entry.
		return "", nil, nil, tool.Invalidf("path", "check that it is a .zip archive (other formats are not supported)", "%s is not a readable zip archive: %v", p, err)
	}
	return src, info, zr, nil
}

// unzipDest picks the destination directory: output, or the archive's
// name without its extension; it reports whether it already exists.
func (ft *fileTool) unzipDest(c *tool.Call, src string) (string, bool, error) {
	out := c.Args.String("output")
	if out == "" {
		out = strings.TrimSuffix(src, filepath.Ext(src))
		if out == src {
			out = src + ".d"
		}
	}
	dest, err := ft.resolveWrite("output", out)
	if err != nil {
		return "", false, err
	}
	dinfo, err := os.Stat(dest)
	if err != nil {
		return dest, false, nil
	}
	if !dinfo.IsDir() {
		return "", false, tool.Existsf("output", "give a directory as output", "%s exists and is not a directory", ft.rel(dest))
	}
	return dest, true, nil
}

// planUnzip checks every entry against the limits and the destination and
// lists where each goes, the total declared size and the existing files
// it would replace.
func (ft *fileTool) planUnzip(zr *zip.ReadCloser, dest string) ([]planned, uint64, []string, error) {
	var plan []planned
	var total uint64
	var conflicts []string
	seen := map[string]bool{}
	for _, f := range zr.File {
		name := entryName(f)
		isDir, err := ft.checkEntry(f, name)
		if err != nil {
			return nil, 0, nil, err
		}
		if len(plan) >= ft.cfg.MaxUnzipEntries {
			return nil, 0, nil, tool.Errorf(tool.CodeTooLarge, "raise tools.file.max_unzip_entries in the config if this archive is trusted", "the archive has more than %d entries", ft.cfg.MaxUnzipEntries)
		}
		u, z := f.UncompressedSize64, f.CompressedSize64
		total += u
		if total > uint64(ft.cfg.MaxUnzipBytes) {
			return nil, 0, nil, tool.Errorf(tool.CodeTooLarge, "raise tools.file.max_unzip_bytes in the config if this archive is trusted", "the archive expands to more than %s", wording.Bytes(ft.cfg.MaxUnzipBytes))
		}
		if !isDir && u > 0 && (z == 0 || (u > ratioFloor && float64(u)/float64(z) > ft.cfg.MaxUnzipRatio)) {
			return nil, 0, nil, tool.Errorf(tool.CodeDenied, "this looks like a zip bomb; nothing was extracted", "archive entry %q expands %s from %s, beyond the ratio limit of %.0f", name, wording.Bytes(int64(u)), wording.Bytes(int64(z)), ft.cfg.MaxUnzipRatio)
		}
		rel := filepath.FromSlash(path.Clean(strings.TrimSuffix(name, "/")))
		if rel == "." {
			if !isDir {
				return nil, 0, nil, tool.Errorf(tool.CodeDenied, "nothing was extracted", "archive entry %q has no file name", name)
			}
			continue
		}
		if seen[rel] {
			return nil, 0, nil, tool.Errorf(tool.CodeDenied, "nothing was extracted", "archive entry %q appears twice", name)
		}
		seen[rel] = true
		target := filepath.Join(dest, rel)
		if err := ft.checkTarget(dest, target, name); err != nil {
			return nil, 0, nil, err
		}
		if li, err := os.Lstat(target); err == nil && !(isDir && li.IsDir()) {
			conflicts = append(conflicts, ft.rel(target))
		}
		plan = append(plan, planned{f: f, rel: rel, dir: isDir, target: target})
	}
	return plan, total, conflicts, nil
}

// checkEntry refuses unsafe names, links and special files; it reports
// whether f is a directory.
func (ft *fileTool) checkEntry(f *zip.File, name string) (bool, error) {
	if err := checkEntryName(name); err != nil {
		return false, tool.Errorf(tool.CodeDenied, "the archive tries to write outside the destination; nothing was extracted", "archive entry %q refused: %v", name, err)
	}
	mode := f.Mode()
	if mode&fs.ModeSymlink != 0 {
		return false, tool.Errorf(tool.CodeDenied, "archives with symbolic links are not extracted; nothing was extracted", "archive entry %q is a symlink", name)
	}
	isDir := mode.IsDir() || strings.HasSuffix(name, "/")
	if !isDir && !mode.IsRegular() {
		return false, tool.Errorf(tool.CodeDenied, "nothing was extracted", "archive entry %q is a special file (%s)", name, mode.Type())
	}
	return isDir, nil
}

// checkTarget refuses an entry's target when existing symlinks inside the
// destination would redirect it, or when it lands in the trash or the data
// dir (".trash/x" in an archive unpacked at a root).
func (ft *fileTool) checkTarget(dest, target, name string) error {
	real, err := ft.sb.ResolveWrite(target)
	if errors.Is(err, sandbox.ErrProtected) {
		return tool.Errorf(tool.CodeDenied, "nothing was extracted; the trash changes only through delete and restore", "archive entry %q would be written into a place reserved for the server: %v", name, strings.TrimPrefix(err.Error(), sandbox.ErrProtected.Error()+": "))
	}
	if err != nil && !errors.Is(err, sandbox.ErrOutside) {
		return tool.Existsf("output", "choose another output; nothing was extracted", "archive entry %q conflicts with an existing file in %s: %v", name, ft.rel(dest), err)
	}
	if err != nil || !within(dest, real) {
		return tool.Errorf(tool.CodeDenied, "nothing was extracted", "archive entry %q would be written through a symlink leading out of %s", name, ft.rel(dest))
	}
	return nil
}

// stagingDir makes the directory entries are extracted into before they
// move into place: an archive that lies about its sizes or fails its
// checksum leaves nothing behind.
func stagingDir(dest string, destExists bool) (string, error) {
	var stage string
	var err error
	if destExists {
		stage, err = os.MkdirTemp(dest, ".unzip-*")
	} else {
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return "", fmt.Errorf("unzip: create parents: %w", err)
		}
		stage, err = os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".unzip-*")
	}
	if err != nil {
		return "", fmt.Errorf("unzip: staging: %w", err)
	}
	return stage, nil
}

// extractAll writes every planned entry below stage and returns the bytes
// written.
func (ft *fileTool) extractAll(ctx context.Context, c *tool.Call, p string, plan []planned, stage string) (uint64, error) {
	var written uint64
	for i, e := range plan {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if err := ft.extractOne(ctx, e, stage, &written); err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			if te, ok := tool.AsError(err); ok {
				return 0, te
			}
			return 0, tool.Invalidf("path", "the archive is damaged; nothing was extracted", "unzip %s: entry %q: %v", p, e.f.Name, err)
		}
		if i%100 == 99 {
			c.Progress(float64(i+1), float64(len(plan)), "extracting")
		}
	}
	return written, nil
}

// moveIntoPlace moves the staged entries to dest: the whole stage when dest
// is new, else file by file, the replaced files going to the trash (their
// trash ids are returned).
func (ft *fileTool) moveIntoPlace(ctx context.Context, plan []planned, stage, dest string, destExists bool) ([]string, error) {
	if !destExists {
		if err := os.Rename(stage, dest); err != nil {
			return nil, fmt.Errorf("unzip: move into place: %w", err)
		}
		return nil, nil
	}
	var replaced []string
	for _, e := range plan {
		if e.dir {
			continue
		}
		if exists(e.target) {
			rec, err := trash.Put(ctx, ft.sb, e.target, "replaced by unzip")
			if err != nil {
				return nil, err
			}
			replaced = append(replaced, rec.ID)
		}
		if err := os.MkdirAll(filepath.Dir(e.target), 0o755); err != nil {
			return nil, fmt.Errorf("unzip: %w", err)
		}
		if err := os.Rename(filepath.Join(stage, e.rel), e.target); err != nil {
			return nil, fmt.Errorf("unzip: move %s into place: %w", e.rel, err)
		}
	}
	for _, e := range plan {
		if e.dir {
			if err := os.MkdirAll(e.target, 0o755); err != nil {
				return nil, fmt.Errorf("unzip: %w", err)
			}
		}
	}
	return replaced, nil
}

// extractOne writes one planned entry below stage, enforcing the declared
// size (archive/zip also checks it and the CRC) and the overall budget.
func (ft *fileTool) extractOne(ctx context.Context, e planned, stage string, written *uint64) error {
	target := filepath.Join(stage, e.rel)
	if e.dir {
		return os.MkdirAll(target, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	rc, err := e.f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	perm := fs.FileMode(0o644)
	if e.f.Mode()&0o100 != 0 {
		perm = 0o755
	}
	w, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	limit := e.f.UncompressedSize64
	n, err := io.Copy(w, io.LimitReader(trash.Cancellable(ctx, rc), int64(limit)+1))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if uint64(n) > limit {
		return tool.Errorf(tool.CodeDenied, "this looks like a zip bomb; nothing was extracted", "archive entry %q holds more data than it declares", e.f.Name)
	}
	*written += uint64(n)
	if *written > uint64(ft.cfg.MaxUnzipBytes) {
		return tool.Errorf(tool.CodeTooLarge, "nothing was extracted", "the archive expands to more than %s", wording.Bytes(ft.cfg.MaxUnzipBytes))
	}
	return nil
}
