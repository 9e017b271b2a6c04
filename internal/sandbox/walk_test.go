package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestWalkDir_NeverEntersThePrivateDir: a data dir inside the workspace,
// and a symlink to it, are neither entered nor reported by the one walk.
func TestWalkDir_NeverEntersThePrivateDir(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "sub", ".clawbridge")
	for _, d := range []string{data, filepath.Join(root, "docs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(data, "store.db"), []byte("secret"), 0o600)
	os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("a"), 0o644)
	os.Symlink(data, filepath.Join(root, "docs", "link"))
	os.Symlink(filepath.Join(data, "store.db"), filepath.Join(root, "docs", "db"))
	sb, err := Open([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Protect(data); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	var seen []string
	err = sb.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(real, p)
		seen = append(seen, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".", "docs", "docs/a.md", "sub"}
	if !slices.Equal(seen, want) {
		t.Fatalf("walked %v, want %v", seen, want)
	}
	seen = nil
	sb.WalkDir(filepath.Join(real, "sub", ".clawbridge"), func(p string, d fs.DirEntry, err error) error {
		seen = append(seen, p)
		return nil
	})
	if len(seen) != 0 {
		t.Fatalf("a walk from inside the data dir visited %v", seen)
	}
}

// TestOpenRegular_RefusesFIFOsDirectoriesAndLargeFiles: a FIFO is refused at
// once (the open does not wait for a writer), as are a directory, a device
// and a file over the cap; a regular file reads whole.
func TestOpenRegular_RefusesFIFOsDirectoriesAndLargeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegular(fifo, 0); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("fifo: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO blocked")
	}
	for _, p := range []string{dir, "/dev/zero"} {
		if _, err := ReadRegular(p, 0); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v", p, err)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 2048), 0o644)
	if _, err := ReadRegular(big, 1024); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big: %v", err)
	}
	if b, err := ReadRegular(big, 2048); err != nil || len(b) != 2048 {
		t.Errorf("at the cap: %d bytes, %v", len(b), err)
	}
}
