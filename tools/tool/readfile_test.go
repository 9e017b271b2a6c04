package tool

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadRegular: a regular file within the bound is read; a FIFO (with
// no writer), a directory, a symlink and a file over the bound are refused
// at once with a tool error.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular("path", "a.txt", file, 5); err != nil || string(b) != "12345" {
		t.Fatalf("%q %v", b, err)
	}
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		abs  string
		max  int64
		code string
	}{
		{fifo, 5, CodeInvalid},
		{dir, 5, CodeInvalid},
		{file, 4, CodeTooLarge},
		{link, 5, CodeDenied},
		{filepath.Join(dir, "none"), 5, CodeNotFound},
	} {
		_, err := ReadRegular("path", filepath.Base(tc.abs), tc.abs, tc.max)
		if te, ok := AsError(err); !ok || te.Code != tc.code {
			t.Errorf("%s: %v, want %s", tc.abs, err, tc.code)
		}
	}
}
