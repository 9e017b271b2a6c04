package tool

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/internal/sandbox"
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

// TestReadInput: a workspace file is resolved and read; a file over the
// bound is answered with the caller's hint, a path outside with a path
// error naming the field.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	sb, err := sandbox.New([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, b, err := ReadInput(sb, "path", "a.txt", 5, "raise max_mb")
	if err != nil || string(b) != "12345" || filepath.Base(abs) != "a.txt" {
		t.Fatalf("%s %q %v", abs, b, err)
	}
	_, _, err = ReadInput(sb, "path", "a.txt", 4, "raise max_mb")
	if te, ok := AsError(err); !ok || te.Code != CodeTooLarge || te.Field != "path" || te.Hint != "raise max_mb" {
		t.Fatalf("over the bound: %#v", err)
	}
	_, _, err = ReadInput(sb, "input", "../outside.txt", 5, "")
	if te, ok := AsError(err); !ok || te.Field != "input" {
		t.Fatalf("outside: %#v", err)
	}
}
