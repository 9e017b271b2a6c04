package sandbox

import (
	"io/fs"
	"path/filepath"
)

// WalkDir is the one walk of the workspace every tool uses: filepath.WalkDir
// over root (which never follows directory symlinks), except that the
// server's private directories are never entered nor reported, wherever
// they lie under root. A walk that starts inside one visits nothing.
func (s *Sandbox) WalkDir(root string, fn fs.WalkDirFunc) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if s.privatePath(p, d) {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d, err)
	})
}

// privatePath reports whether p (a walked path: its parents are real
// directories) is or lies in a private directory. Only a symlink is
// resolved, to catch a link to one; other entries need no syscall.
func (s *Sandbox) privatePath(p string, d fs.DirEntry) bool {
	if s.isPrivate(p) {
		return true
	}
	if d == nil || d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	return err == nil && s.isPrivate(real)
}
