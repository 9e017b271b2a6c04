package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNew_RefusesExistingAndLeavesIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteNew(p, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(p, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err })
	if !errors.Is(err, ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("replaced: %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}

func TestWrite_FailedFillKeepsOld(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	WriteFile(p, []byte("old"), 0o644)
	if err := Write(p, 0o644, func(w io.Writer) error { io.WriteString(w, "ne"); return errors.New("boom") }); err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("torn: %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}
