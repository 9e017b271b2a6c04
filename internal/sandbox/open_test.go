package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpen_CreatesNothing: Open resolves roots without creating them (the
// look-only commands), New creates them; both confine the same way.
func TestOpen_CreatesNothing(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "a", "ws")
	sb, err := Open([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(base, "a")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open created the root: %v", err)
	}
	real, _ := filepath.EvalSymlinks(base)
	if got := sb.Root(); got != filepath.Join(real, "a", "ws") {
		t.Errorf("root %s", got)
	}
	if _, err := sb.Resolve("../../etc/passwd"); !errors.Is(err, ErrOutside) {
		t.Errorf("escape through an absent root: %v", err)
	}
	if _, err := New([]string{root}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		t.Errorf("New did not create the root: %v", err)
	}
}
