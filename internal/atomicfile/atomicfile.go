// Package atomicfile writes files so that readers see either the old content
// or the new, never a torn file: write a temp file beside the target, sync,
// rename (or, for a file that must not exist yet, hard-link it into place,
// which fails instead of replacing one that appeared meanwhile).
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile atomically replaces path with data.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// ErrExists is returned by WriteNew when path already exists.
var ErrExists = os.ErrExist

// Write atomically replaces path with what fill writes.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) error {
	return write(path, perm, fill, true)
}

// WriteNew is Write for a path that must not exist: when a file appeared
// there since the caller checked, it fails with an error matching
// ErrExists and leaves that file alone.
func WriteNew(path string, perm os.FileMode, fill func(w io.Writer) error) error {
	return write(path, perm, fill, false)
}

func write(path string, perm os.FileMode, fill func(w io.Writer) error, replace bool) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	tmp := f.Name()
	done := false
	defer func() { // also when fill panics, which leaves err nil
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("atomic write %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomic write %s: close: %w", path, err)
	}
	if err = os.Chmod(tmp, perm); err != nil {
		return fmt.Errorf("atomic write %s: chmod: %w", path, err)
	}
	if replace {
		if err = os.Rename(tmp, path); err != nil {
			return fmt.Errorf("atomic write %s: rename: %w", path, err)
		}
		done = true
		return nil
	}
	// link(2) refuses an existing name, so a file created by someone else
	// since the check is never replaced.
	if err = os.Link(tmp, path); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	done = true
	os.Remove(tmp)
	return nil
}
