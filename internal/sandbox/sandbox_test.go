package sandbox

import (
	"errors"
	"fmt"
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

// TestResolveWrite_TrashAndDataDir: writes never resolve into the trash of
// any root or into a protected data dir, whether named, absolute or
// reached through a symlink; reads of the trash still resolve, reads of
// the data dir do not.
func TestResolveWrite_TrashAndDataDir(t *testing.T) {
	dir := t.TempDir()
	root, second := filepath.Join(dir, "ws"), filepath.Join(dir, "ws2")
	s, err := New([]string{root, second})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	os.MkdirAll(filepath.Join(root, ".trash", "id1"), 0o755)
	os.MkdirAll(filepath.Join(root, "data"), 0o755)
	if err := s.Protect(filepath.Join(root, "data")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(root, ".trash"), filepath.Join(root, "t"))
	os.Symlink(filepath.Join(root, "data"), filepath.Join(root, "d"))
	for _, p := range []string{".trash", ".trash/x", "t/x", "t", "sub/../.trash/x", filepath.Join(second, ".trash", "x"), "data/x", "d/x", "data"} {
		if got, err := s.ResolveWrite(p); !errors.Is(err, ErrProtected) {
			t.Errorf("ResolveWrite(%q) = %q, %v; want ErrProtected", p, got, err)
		}
		if got, err := s.Output(p, "x"); !errors.Is(err, ErrProtected) {
			t.Errorf("Output(%q) = %q, %v; want ErrProtected", p, got, err)
		}
	}
	if _, err := s.Resolve(".trash/id1"); err != nil {
		t.Errorf("reading the trash: %v", err)
	}
	for _, p := range []string{"data", "data/store.db", "d/store.db"} {
		if _, err := s.Resolve(p); !errors.Is(err, ErrProtected) {
			t.Errorf("Resolve(%q): %v; want ErrProtected", p, err)
		}
	}
	if got, err := s.ResolveWrite("trash-not/x"); err != nil || got != filepath.Join(real, "trash-not", "x") {
		t.Errorf("ResolveWrite(trash-not/x) = %q, %v", got, err)
	}
	if err := s.CheckWrite(filepath.Join(real, "t")); err != nil {
		t.Errorf("CheckWrite follows the link: %v", err) // acting on the link itself is allowed
	}
}

// TestApplyClientRoots_Intersection: client roots narrow the configured
// roots, never widen them, never create a directory; trust replaces.
func TestApplyClientRoots_Intersection(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	s, err := New([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(a, "proj"), 0o755)
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.Symlink(filepath.Join(a, "proj"), filepath.Join(dir, "link-proj"))
	missing := filepath.Join(a, "missing")
	cases := []struct {
		client []string
		trust  bool
		want   []string
		fails  bool
	}{
		{[]string{filepath.Join(a, "proj")}, false, []string{filepath.Join(a, "proj")}, false},
		{[]string{filepath.Join(dir, "link-proj")}, false, []string{filepath.Join(a, "proj")}, false},
		{[]string{dir}, false, []string{a, b}, false},
		{[]string{other}, false, []string{a, b}, true},
		{[]string{missing}, false, []string{a, b}, true},
		{[]string{"relative/x", filepath.Join(a, "proj", "..", "..", "other")}, false, []string{a, b}, true},
		{[]string{other, b}, false, []string{b}, false},
		{[]string{other, missing}, true, []string{other}, false},
		{[]string{missing}, true, []string{a, b}, true},
	}
	for _, c := range cases {
		got, err := s.ApplyClientRoots(c.client, c.trust)
		if (err != nil) != c.fails || fmt.Sprint(got) != fmt.Sprint(c.want) || fmt.Sprint(s.Roots()) != fmt.Sprint(c.want) {
			t.Errorf("ApplyClientRoots(%v, %v) = %v, %v; roots %v; want %v (fails %v)", c.client, c.trust, got, err, s.Roots(), c.want, c.fails)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a missing client root was created")
	}
}
