package file

import (
	"context"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type entry struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Size  int64  `json:"size"`
	MTime string `json:"mtime"`
}

// dirPath resolves a directory argument (default: the workspace root).
func (ft *fileTool) dirPath(p string) (string, error) {
	abs, info, err := ft.existing(p)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", tool.Invalidf("path", "use action=stat or read for a file", "%s is not a directory", p)
	}
	return abs, nil
}

func (ft *fileTool) list(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.dirPath(p)
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, statErr("path", p, err)
	}
	offset := max(c.Args.Int("offset", 0), 0)
	limit := c.Args.Int("limit", 500)
	entries := []entry{}
	for i := offset; i < len(des) && len(entries) < limit; i++ {
		info, err := des[i].Info()
		if err != nil {
			continue // removed while listing
		}
		e := entry{Name: des[i].Name(), Type: trash.TypeOf(info.Mode()), MTime: mtime(info.ModTime())}
		if info.Mode().IsRegular() {
			e.Size = info.Size()
		}
		entries = append(entries, e)
	}
	data := map[string]any{"path": ft.rel(abs), "total": len(des), "offset": offset, "entries": entries}
	summary := fmt.Sprintf("%s holds %s", ft.rel(abs), wording.Count(len(des), "entry", "entries"))
	if next := offset + len(entries); next < len(des) {
		data["next_offset"] = next
		summary += fmt.Sprintf("; showing %d, continue with offset=%d", len(entries), next)
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}

func (ft *fileTool) tree(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.dirPath(p)
	if err != nil {
		return nil, err
	}
	depth := c.Args.Int("depth", 3)
	limit := c.Args.Int("limit", 500)
	var sb strings.Builder
	name := ft.rel(abs)
	sb.WriteString(name + "/\n")
	dirs, files, shown := 0, 0, 0
	truncated := false
	var walk func(dir, prefix string, level int) error
	walk = func(dir, prefix string, level int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		des, err := os.ReadDir(dir)
		if err != nil {
			sb.WriteString(prefix + "└── (unreadable)\n")
			return nil
		}
		// Directories first, then files, each by name.
		sort.SliceStable(des, func(i, j int) bool { return des[i].IsDir() && !des[j].IsDir() })
		for i, de := range des {
			if shown >= limit {
				truncated = true
				return nil
			}
			last := i == len(des)-1
			branch, next := "├── ", "│   "
			if last {
				branch, next = "└── ", "    "
			}
			full := filepath.Join(dir, de.Name())
			info, err := de.Info()
			if err != nil {
				continue
			}
			shown++
			switch {
			case info.IsDir():
				dirs++
				note := ""
				skip := skipDirs[de.Name()] || full == ft.sb.TrashDir()
				if skip {
					note = " (not expanded)"
				} else if level >= depth {
					if n, err := os.ReadDir(full); err == nil && len(n) > 0 {
						note = fmt.Sprintf(" (%s)", wording.Count(len(n), "entry", "entries"))
					}
				}
				sb.WriteString(prefix + branch + de.Name() + "/" + note + "\n")
				if !skip && level < depth {
					if err := walk(full, prefix+next, level+1); err != nil {
						return err
					}
				}
			case info.Mode()&fs.ModeSymlink != 0:
				files++
				sb.WriteString(prefix + branch + de.Name() + " -> (symlink)\n")
			default:
				files++
				sb.WriteString(prefix + branch + de.Name() + " (" + wording.Bytes(info.Size()) + ")\n")
			}
		}
		return nil
	}
	if err := walk(abs, "", 1); err != nil {
		return nil, err
	}
	if truncated {
		sb.WriteString(fmt.Sprintf("… stopped after %s (raise limit or tree a subdirectory)\n", wording.Count(limit, "entry", "entries")))
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Tree of %s: %s, %s shown (depth %d)", name, wording.Count(dirs, "directory", "directories"), wording.Count(files, "file", "files"), depth),
		Data:    map[string]any{"path": name, "depth": depth, "dirs": dirs, "files": files, "truncated": truncated, "tree": sb.String()},
	}, nil
}

// mimeOf guesses a MIME type from the extension, else from content.
func mimeOf(abs string, head []byte) string {
	if t := mime.TypeByExtension(strings.ToLower(filepath.Ext(abs))); t != "" {
		return t
	}
	if head != nil {
		return http.DetectContentType(head)
	}
	return "application/octet-stream"
}

func (ft *fileTool) stat(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.resolveLink("path", p)
	if err != nil {
		return nil, err
	}
	linfo, err := os.Lstat(abs)
	if err != nil {
		return nil, statErr("path", p, err)
	}
	relPath := ft.rel(abs)
	data := make(map[string]any, 10) // room for every field: no growth
	data["path"] = relPath
	info := linfo
	if linfo.Mode()&fs.ModeSymlink != 0 {
		data["symlink"] = true
		target, err := ft.sb.Resolve(abs)
		if err != nil {
			// Say that it leads outside, and nothing about what is there.
			data["type"] = "symlink"
			data["target_outside_workspace"] = true
			return &tool.Result{Summary: fmt.Sprintf("%s is a symlink that leads outside the workspace", p), Data: data}, nil
		}
		data["target"] = ft.rel(target)
		relPath = data["target"].(string) // the summary names the target
		if info, err = os.Stat(target); err != nil {
			data["type"] = "symlink"
			data["dangling"] = true
			return &tool.Result{Summary: fmt.Sprintf("%s is a dangling symlink", p), Data: data}, nil
		}
		abs = target
	}
	data["type"] = trash.TypeOf(info.Mode())
	data["size"] = info.Size()
	data["mode"] = info.Mode().Perm().String()
	data["mtime"] = mtime(info.ModTime())
	data["in_trash"] = ft.sb.IsTrash(abs)
	switch {
	case info.IsDir():
		if des, err := os.ReadDir(abs); err == nil {
			data["entries"] = len(des)
		}
		delete(data, "size")
	case info.Mode().IsRegular():
		if f, err := os.Open(abs); err == nil {
			sample, full, err := readSampleSized(f, 64<<10, info.Size()) // info: the regular file just stat'ed
			f.Close()
			if err == nil {
				s := detect(sample, full)
				data["mime"] = mimeOf(abs, sample)
				data["binary"] = s.Binary
				if !s.Binary && s.Encoding != "" {
					data["encoding"] = s.Encoding
				}
			}
		}
	}
	return &tool.Result{Summary: fmt.Sprintf("%s: %s, %s", relPath, data["type"], wording.Bytes(info.Size())), Data: data}, nil
}
