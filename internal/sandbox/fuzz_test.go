package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve: whatever the path, a resolved result lies inside a root,
// is already real (resolving it again through symlinks gives itself, so no
// link in it can lead elsewhere later), and is never in the data dir; a
// write result is never in the trash. The workspace holds links inside,
// outside, dangling, relative, chained and looping.
func FuzzResolve(f *testing.F) {
	dir := f.TempDir()
	root := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o755)
	s, err := New([]string{root, filepath.Join(dir, "ws2")})
	if err != nil {
		f.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755)
	os.MkdirAll(filepath.Join(root, ".trash", "id"), 0o755)
	os.MkdirAll(filepath.Join(root, "data"), 0o755)
	if err := s.Protect(filepath.Join(root, "data")); err != nil {
		f.Fatal(err)
	}
	links := map[string]string{
		"out":        outside,
		"out-rel":    "../outside",
		"in":         filepath.Join(root, "sub"),
		"in-rel":     "sub/deep",
		"dangling":   filepath.Join(outside, "nothing", "here"),
		"dangle-in":  "sub/not-yet",
		"chain":      "out-rel",
		"loop-a":     "loop-b",
		"loop-b":     "loop-a",
		"up":         "..",
		"sub/up2":    "../..",
		"trash-link": ".trash",
		"data-link":  "data",
		"root-abs":   "/",
	}
	for name, target := range links {
		os.Symlink(target, filepath.Join(root, name))
	}
	for _, seed := range []string{"", ".", "a.txt", "../outside", "out/x", "out-rel/../ws/a", "in/../../outside", "chain/x", "loop-a/x", "up/outside",
		"sub/up2/x", "dangling", "dangle-in/x", ".trash/x", "trash-link/x", "data/x", "data-link/x", "root-abs/etc/passwd", "/etc/passwd",
		root + "/sub/../../outside", "sub//deep/./../a", "a\x00b", strings.Repeat("../", 40) + "x", "~/x", "in-rel/../../../x"} {
		f.Add(seed)
	}
	realRoots := s.Roots()
	f.Fuzz(func(t *testing.T, p string) {
		got, err := s.Resolve(p)
		if err == nil {
			inside := false
			for _, r := range realRoots {
				inside = inside || within(r, got)
			}
			if !inside {
				t.Fatalf("Resolve(%q) = %q, outside %v", p, got, realRoots)
			}
			if again, err := evalExisting(got); err != nil || again != got {
				t.Fatalf("Resolve(%q) = %q is not real: resolves again to %q, %v", p, got, again, err)
			}
			if s.isPrivate(got) {
				t.Fatalf("Resolve(%q) = %q is in the data dir", p, got)
			}
		}
		if w, err := s.ResolveWrite(p); err == nil && s.inAnyTrash(w) {
			t.Fatalf("ResolveWrite(%q) = %q is in the trash", p, w)
		}
	})
}
