package file

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// resolve maps a user path to a real absolute path inside the workspace,
// following symlinks (a link that leads outside is refused by the sandbox).
func (ft *fileTool) resolve(field, p string) (string, error) {
	abs, err := ft.sb.Resolve(p)
	if err != nil {
		return "", ft.pathErr(field, p, err)
	}
	return abs, nil
}

// existing resolves the path argument p and reads what it names, links
// followed; a missing path is a not-found error on the field.
func (ft *fileTool) existing(p string) (string, fs.FileInfo, error) {
	abs, err := ft.resolve("path", p)
	if err != nil {
		return "", nil, err
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", nil, statErr("path", p, err)
	}
	return abs, info, nil
}

// resolveWrite is resolve for a path that will be created or changed: the
// trash and the server's data dir are refused, symlinks resolved first.
func (ft *fileTool) resolveWrite(field, p string) (string, error) {
	abs, err := ft.sb.ResolveWrite(p)
	if err != nil {
		return "", ft.pathErr(field, p, err)
	}
	return abs, nil
}

// resolveLink resolves everything but the last element, so that delete, move
// and stat act on a symlink itself rather than on what it points to. The
// parent is still resolved through the sandbox, so the result is inside.
func (ft *fileTool) resolveLink(field, p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return ft.resolve(field, p) // the sandbox refuses it, naming the field
	}
	clean := filepath.Clean(p)
	base := filepath.Base(clean)
	if p == "" || base == "." || base == ".." || base == string(filepath.Separator) {
		return ft.resolve(field, p)
	}
	parent, err := ft.sb.Resolve(filepath.Dir(clean))
	if err != nil {
		return "", ft.pathErr(field, p, err)
	}
	return filepath.Join(parent, base), nil
}

func (ft *fileTool) pathErr(field, p string, err error) error {
	if errors.Is(err, sandbox.ErrProtected) {
		return &tool.Error{Code: tool.CodeDenied, Field: field,
			Message: "refused: " + strings.TrimPrefix(err.Error(), sandbox.ErrProtected.Error()+": "),
			Hint:    "choose a path outside " + ft.rel(ft.sb.TrashDir()) + " and the server's data directory; the trash changes only through delete and restore"}
	}
	if errors.Is(err, sandbox.ErrOutside) {
		return tool.OutsideWorkspace(field, p)
	}
	return tool.Invalidf(field, "", "cannot resolve %s: %v", p, err)
}

// isRoot reports whether abs is one of the workspace roots.
func (ft *fileTool) isRoot(abs string) bool {
	for _, r := range ft.sb.Roots() {
		if r == abs {
			return true
		}
	}
	return false
}

// checkWrite refuses a resolved target (not followed further) inside the
// trash or the data dir: the trash's layout is the tool's bookkeeping and
// changes only through delete and restore.
func (ft *fileTool) checkWrite(field, p, abs string) error {
	if err := ft.sb.CheckWrite(abs); err != nil {
		return ft.pathErr(field, p, err)
	}
	return nil
}

func (ft *fileTool) rel(abs string) string { return filepath.ToSlash(ft.sb.Rel(abs)) }

func notFound(field, p string) error {
	return tool.NotFoundf(field, "check the name with action=list or action=find",
		"%s does not exist", p)
}

// statErr turns an os error on a user path into a tool error.
func statErr(field, p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return notFound(field, p)
	}
	if errors.Is(err, fs.ErrPermission) {
		return &tool.Error{Code: tool.CodeDenied, Field: field, Message: fmt.Sprintf("%s: permission denied", p)}
	}
	// Any other failure is about the path as given: say so without the
	// host's absolute path the os error carries.
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return tool.Invalidf(field, "", "cannot read %s: %v", p, err)
}

func exists(abs string) bool {
	_, err := os.Lstat(abs)
	return err == nil
}

func mtime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// within reports whether p is root or below it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// skipDirs are not descended into by find, grep and tree.
var skipDirs = map[string]bool{".git": true, "node_modules": true}
