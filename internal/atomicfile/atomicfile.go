// Package atomicfile writes files so that readers see either the old content
// or the new, never a torn file: write a temp file beside the target, sync,
// rename.
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

// Write atomically replaces path with what fill writes.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	tmp := f.Name()
	renamed := false
	defer func() { // also when fill panics, which leaves err nil
		if !renamed {
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
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomic write %s: rename: %w", path, err)
	}
	renamed = true
	return nil
}
