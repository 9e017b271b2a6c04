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
		if s.privatePath(p) {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d, err)
	})
}

// privatePath reports whether p (a walked path: its parents are real
// directories, its last element may be a symlink) is or lies in a private
// directory. A symlink to one is caught as well: its target is resolved.
func (s *Sandbox) privatePath(p string) bool {
	if s.isPrivate(p) {
		return true
	}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		return s.isPrivate(real)
	}
	return false
}
