package file

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type zentry struct {
	name string
	body []byte
	mode fs.FileMode // 0: regular file
	raw  bool        // write the header as given (no UTF-8 flag games)
}

// writeZip builds an archive in the workspace with archive/zip.
func writeZip(t *testing.T, dst string, entries []zentry) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.raw {
			h.NonUTF8 = true
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	tooltest.WriteFile(t, dst, buf.Bytes())
}

// snapshot lists every path under dir, to prove that nothing was written.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var all []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	return strings.Join(all, "\n")
}

func TestZipUnzipRoundTrip(t *testing.T) {
	f := newFixture(t, "")
	f.put("site/index.html", "<h1>hi</h1>")
	f.put("site/css/app.css", "body{}")
	f.put("readme.txt", strings.Repeat("compressible text ", 1000))
	d := f.ok(map[string]any{"action": "zip", "paths": []any{"site", "readme.txt"}, "output": "bundle.zip"})
	if d["files"] != float64(3) || d["output"] != "bundle.zip" {
		t.Fatalf("zip: %v", d)
	}
	zr, err := zip.OpenReader(f.path("bundle.zip"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range zr.File {
		names = append(names, e.Name)
	}
	zr.Close()
	sort.Strings(names)
	if strings.Join(names, ",") != "readme.txt,site/,site/css/,site/css/app.css,site/index.html" {
		t.Fatalf("entries: %v", names)
	}
	f.fail(tool.CodeExists, map[string]any{"action": "zip", "paths": []any{"site"}, "output": "bundle.zip"})
	f.fail(tool.CodeDenied, map[string]any{"action": "zip", "paths": []any{"site"}, "output": ".trash/sub/x.zip"})
	noFile(t, f.path(".trash/sub"))

	d = f.ok(map[string]any{"action": "unzip", "path": "bundle.zip"})
	if d["output"] != "bundle" || d["files"] != float64(3) {
		t.Fatalf("unzip: %v", d)
	}
	if f.content("bundle/site/css/app.css") != "body{}" || f.content("bundle/readme.txt") != f.content("readme.txt") {
		t.Fatal("unzip content")
	}
	// Again into the same place: conflicts refused, then replaced with overwrite.
	f.put("bundle/site/index.html", "changed")
	te := f.fail(tool.CodeExists, map[string]any{"action": "unzip", "path": "bundle.zip"})
	if !strings.Contains(te.Message, "bundle/site/index.html") {
		t.Fatalf("conflicts: %v", te)
	}
	if f.content("bundle/site/index.html") != "changed" {
		t.Fatal("refused unzip changed a file")
	}
	d = f.ok(map[string]any{"action": "unzip", "path": "bundle.zip", "overwrite": true})
	if f.content("bundle/site/index.html") != "<h1>hi</h1>" || len(d["replaced_trash_ids"].([]any)) != 3 {
		t.Fatalf("unzip overwrite: %v", d)
	}
	for _, e := range mustReadDir(t, f.path("bundle")) {
		if strings.HasPrefix(e, ".unzip-") {
			t.Fatalf("staging left: %s", e)
		}
	}
	// Zipping the root skips the trash, the archive and its temp file.
	f.ok(map[string]any{"action": "delete", "path": "bundle/readme.txt"})
	f.ok(map[string]any{"action": "zip", "paths": []any{"."}, "output": "whole.zip"})
	zr, err = zip.OpenReader(f.path("whole.zip"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range zr.File {
		if strings.Contains(e.Name, ".tmp-") || strings.Contains(e.Name, "whole.zip") || strings.HasPrefix(e.Name, ".trash") {
			t.Errorf("root zip holds %s", e.Name)
		}
	}
	if len(zr.File) < 8 {
		t.Errorf("root zip has only %d entries", len(zr.File))
	}
	zr.Close()
	// Default output name for zip.
	d = f.ok(map[string]any{"action": "zip", "paths": []any{"site"}})
	if d["output"] != "outputs/site.zip" {
		t.Fatalf("default zip output: %v", d)
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

func TestUnzipRefusesEscapes(t *testing.T) {
	tests := []struct {
		name    string
		entries []zentry
	}{
		{"dotdot", []zentry{{name: "ok.txt", body: []byte("fine")}, {name: "../evil", body: []byte("pwned")}}},
		{"nested dotdot", []zentry{{name: "a/../../evil", body: []byte("pwned")}}},
		{"absolute", []zentry{{name: "ok.txt", body: []byte("fine")}, {name: "/tmp/clawbridge-evil-abs", body: []byte("pwned")}}},
		{"backslash", []zentry{{name: `..\evil`, body: []byte("pwned")}}},
		{"drive letter", []zentry{{name: `C:/evil`, body: []byte("pwned")}}},
		{"symlink", []zentry{{name: "ok.txt", body: []byte("fine")}, {name: "link", body: []byte("/etc"), mode: fs.ModeSymlink | 0o777}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "")
			writeZip(t, f.path("in/evil.zip"), tc.entries)
			parent := filepath.Dir(f.root)
			before := snapshot(t, parent)
			te := f.fail(tool.CodeDenied, map[string]any{"action": "unzip", "path": "in/evil.zip", "output": "out"})
			if !strings.Contains(te.Message, "refused") && !strings.Contains(te.Message, "symlink") {
				t.Fatalf("message: %v", te)
			}
			if after := snapshot(t, parent); after != before {
				t.Fatalf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			noFile(t, f.path("out"))
			noFile(t, "/tmp/clawbridge-evil-abs")
			noFile(t, filepath.Join(parent, "evil"))
		})
	}
}

func TestUnzipThroughSymlinkInDestination(t *testing.T) {
	f := newFixture(t, "")
	outside := t.TempDir()
	os.MkdirAll(f.path("dest"), 0o755)
	os.Symlink(outside, f.path("dest/sub"))
	writeZip(t, f.path("a.zip"), []zentry{{name: "sub/x.txt", body: []byte("pwned")}})
	f.fail(tool.CodeDenied, map[string]any{"action": "unzip", "path": "a.zip", "output": "dest"})
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatal("wrote outside through a symlink")
	}
}

func TestUnzipBombsAndLimits(t *testing.T) {
	f := newFixture(t, "")
	// 20 MiB of zeros deflates to ~20 KiB: a ratio near 1000.
	writeZip(t, f.path("bomb.zip"), []zentry{{name: "zeros.bin", body: make([]byte, 20<<20)}})
	before := snapshot(t, f.root)
	te := f.fail(tool.CodeDenied, map[string]any{"action": "unzip", "path": "bomb.zip"})
	if !strings.Contains(te.Hint, "zip bomb") {
		t.Fatalf("bomb: %v", te)
	}
	if snapshot(t, f.root) != before {
		t.Fatal("bomb wrote files")
	}

	// Entry count and total size limits come from config.
	g := newFixture(t, "max_unzip_entries: 3\nmax_unzip_bytes: 1000\n")
	var many []zentry
	for i := 0; i < 5; i++ {
		many = append(many, zentry{name: "f" + string(rune('a'+i)), body: []byte("x")})
	}
	writeZip(t, g.path("many.zip"), many)
	g.fail(tool.CodeTooLarge, map[string]any{"action": "unzip", "path": "many.zip"})
	writeZip(t, g.path("big.zip"), []zentry{{name: "big.txt", body: bytes.Repeat([]byte("abc"), 400)}})
	g.fail(tool.CodeTooLarge, map[string]any{"action": "unzip", "path": "big.zip"})
	noFile(t, g.path("many"))
	noFile(t, g.path("big"))

	g.put("not.zip", "this is text")
	g.fail(tool.CodeInvalid, map[string]any{"action": "unzip", "path": "not.zip"})
}

// An archive whose header lies about the uncompressed size is caught while
// extracting and leaves nothing behind.
func TestUnzipLyingSize(t *testing.T) {
	f := newFixture(t, "")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "liar.txt", Method: zip.Store, CRC32: 0, CompressedSize64: 100, UncompressedSize64: 10})
	w.Write(bytes.Repeat([]byte("A"), 100))
	zw.Close()
	os.WriteFile(f.path("liar.zip"), buf.Bytes(), 0o644)
	te := f.fail("", map[string]any{"action": "unzip", "path": "liar.zip"})
	t.Log(te)
	noFile(t, f.path("liar"))
	for _, e := range mustReadDir(t, f.root) {
		if strings.Contains(e, ".unzip-") {
			t.Fatalf("staging left: %s", e)
		}
	}
}

func TestUnzipGBKNames(t *testing.T) {
	f := newFixture(t, "")
	name, _ := simplifiedchinese.GBK.NewEncoder().String("报告/第一章.txt")
	writeZip(t, f.path("cn.zip"), []zentry{{name: name, body: []byte("内容"), raw: true}})
	f.ok(map[string]any{"action": "unzip", "path": "cn.zip"})
	if f.content("cn/报告/第一章.txt") != "内容" {
		t.Fatal("GBK entry name not decoded")
	}
}

func TestCheckEntryName(t *testing.T) {
	good := []string{"a.txt", "dir/", "dir/sub/file", "./x", "中文/文件.txt", "a..b", "..."}
	bad := []string{"", "../x", "a/../../x", "..", "/etc/passwd", `a\b`, "C:/x", "c:x", "a\x00b", "\xff\xfe"}
	for _, n := range good {
		if err := checkEntryName(n); err != nil {
			t.Errorf("%q refused: %v", n, err)
		}
	}
	for _, n := range bad {
		if err := checkEntryName(n); err == nil {
			t.Errorf("%q accepted", n)
		}
	}
}

// FuzzEntryName: any accepted name lands inside the destination.
func FuzzEntryName(f *testing.F) {
	for _, s := range []string{"a.txt", "../x", "a/../b", "/abs", `..\x`, "x/./y/", "a/b/../../..", "...", "C:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkEntryName(name) != nil {
			return
		}
		dest := "/dest/root"
		rel := filepath.FromSlash(path.Clean(strings.TrimSuffix(name, "/")))
		target := filepath.Join(dest, rel)
		if !within(dest, target) {
			t.Fatalf("%q accepted but lands at %s", name, target)
		}
	})
}

// FuzzGlob: pattern compilation and matching never panic.
func FuzzGlob(f *testing.F) {
	for _, s := range []string{"*.md", "**/a/**", "{a,{b,c}}/*", "[a-", "{", "a/**/b/**/c"} {
		f.Add(s, "a/b/c.md")
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		g, err := compileGlob(pattern)
		if err != nil {
			return
		}
		g.match(p)
	})
}
