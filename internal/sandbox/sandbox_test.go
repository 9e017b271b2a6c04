package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o755)
	s, err := New([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	os.Symlink(outside, filepath.Join(root, "link-out"))
	os.Symlink(filepath.Join(outside, "nofile"), filepath.Join(root, "dangling-out"))
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "link-in"))
	bad := []string{"../outside", "/etc/passwd", "link-out", "link-out/x.txt", "dangling-out", "sub/../../outside", "a\x00b"}
	for _, p := range bad {
		if _, err := s.Resolve(p); !errors.Is(err, ErrOutside) && err == nil {
			t.Errorf("%q resolved", p)
		}
	}
	good := map[string]string{
		"":                root,
		"new/file.txt":    filepath.Join(root, "new", "file.txt"),
		"link-in/a.txt":   filepath.Join(root, "sub", "a.txt"),
		"sub/../x":        filepath.Join(root, "x"),
		root + "/abs.txt": filepath.Join(root, "abs.txt"),
	}
	real, _ := filepath.EvalSymlinks(root)
	for p, want := range good {
		want = filepath.Join(real, mustRel(t, root, want))
		got, err := s.Resolve(p)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	out, err := s.Output("", "r.txt")
	if err != nil || out != filepath.Join(real, "outputs", "r.txt") {
		t.Errorf("Output default = %q, %v", out, err)
	}
}

func mustRel(t *testing.T, base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
