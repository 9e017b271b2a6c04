package file

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

func layout(f *fixture) {
	f.put("a.md", "# A\nTODO: first\n")
	f.put("docs/b.md", "# B\nnothing here\n")
	f.put("docs/x/c.md", "# C\ntodo: lower case\nTODO: again\n")
	f.put("docs/x/c.txt", "plain TODO\n")
	f.put(".git/config", "TODO in git\n")
	os.WriteFile(f.path("docs/bin.dat"), []byte("TODO\x00\x01\x02binary"), 0o644)
}

func TestListTreeStat(t *testing.T) {
	f := newFixture(t, "")
	layout(f)
	d := f.ok(map[string]any{"action": "list", "path": "docs"})
	got := map[string]string{}
	for _, e := range list(d, "entries") {
		got[e["name"].(string)] = e["type"].(string)
		if e["mtime"] == "" {
			t.Fatalf("no mtime: %v", e)
		}
	}
	if len(got) != 3 || got["b.md"] != "file" || got["x"] != "dir" || got["bin.dat"] != "file" {
		t.Fatalf("list: %v", d)
	}
	for _, e := range list(d, "entries") {
		if e["name"] == "b.md" && e["size"] != float64(len("# B\nnothing here\n")) {
			t.Fatalf("size: %v", e)
		}
	}
	// Paging.
	d = f.ok(map[string]any{"action": "list", "path": "docs", "offset": 1, "limit": 1})
	if len(list(d, "entries")) != 1 || d["next_offset"] != float64(2) || d["total"] != float64(3) {
		t.Fatalf("paging: %v", d)
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "list", "path": "a.md"})

	d = f.ok(map[string]any{"action": "tree", "depth": 2})
	tree := d["tree"].(string)
	for _, want := range []string{"docs/", "├── ", "b.md (", "x/ (2 entries)", ".git/ (not expanded)"} {
		if !strings.Contains(tree, want) {
			t.Fatalf("tree lacks %q:\n%s", want, tree)
		}
	}
	if strings.Contains(tree, "c.md") {
		t.Fatalf("tree went past depth 2:\n%s", tree)
	}
	d = f.ok(map[string]any{"action": "tree", "limit": 2})
	if d["truncated"] != true {
		t.Fatalf("tree limit: %v", d)
	}

	d = f.ok(map[string]any{"action": "stat", "path": "docs/x/c.md"})
	if d["type"] != "file" || d["encoding"] != "utf-8" || d["binary"] != false || d["size"] != float64(len("# C\ntodo: lower case\nTODO: again\n")) || !strings.HasPrefix(d["mime"].(string), "text/markdown") {
		t.Fatalf("stat file: %v", d)
	}
	d = f.ok(map[string]any{"action": "stat", "path": "docs/bin.dat"})
	if d["binary"] != true {
		t.Fatalf("stat binary: %v", d)
	}
	d = f.ok(map[string]any{"action": "stat", "path": "docs"})
	if d["type"] != "dir" || d["entries"] != float64(3) {
		t.Fatalf("stat dir: %v", d)
	}
	if err := os.Symlink("docs/b.md", f.path("link.md")); err != nil {
		t.Fatal(err)
	}
	d = f.ok(map[string]any{"action": "stat", "path": "link.md"})
	if d["symlink"] != true || d["target"] != "docs/b.md" || d["type"] != "file" {
		t.Fatalf("stat link: %v", d)
	}
}

func TestFind(t *testing.T) {
	f := newFixture(t, "")
	layout(f)
	tests := []struct {
		pattern, path string
		want          []string
	}{
		{"*.md", "", []string{"a.md", "docs/b.md", "docs/x/c.md"}},
		{"docs/**/*.md", "", []string{"docs/b.md", "docs/x/c.md"}},
		{"docs/*.md", "", []string{"docs/b.md"}},
		{"**/*.{md,txt}", "docs", []string{"docs/b.md", "docs/x/c.md", "docs/x/c.txt"}},
		{"x", "docs", []string{"docs/x"}},
		{"c.?d", "", []string{"docs/x/c.md"}},
		{"config", "", nil}, // .git is not searched
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			d := f.ok(map[string]any{"action": "find", "pattern": tc.pattern, "path": tc.path})
			var got []string
			for _, r := range list(d, "results") {
				got = append(got, r["path"].(string))
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("find %s: %v, want %v", tc.pattern, got, tc.want)
			}
		})
	}
	d := f.ok(map[string]any{"action": "find", "pattern": "*.md", "limit": 1})
	if len(list(d, "results")) != 1 || d["truncated"] != true {
		t.Fatalf("limit: %v", d)
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "find", "pattern": "[a-"})
	f.fail(tool.CodeInvalid, map[string]any{"action": "find", "pattern": "../*"})
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"**", "a/b/c", true},
		{"a/**", "a", true},
		{"a/**/c", "a/c", true},
		{"a/**/c", "a/b/b/c", true},
		{"a/**/c", "a/b/d", false},
		{"**/**/**/x", "x", true},
		{"*.go", "deep/er/main.go", true},
		{"src/*.go", "src/a/main.go", false},
		{"{a,b}/*.txt", "b/x.txt", true},
		{"{a,b}/*.txt", "c/x.txt", false},
		{"a/{b,{c,d}}/e", "a/d/e", true},
	}
	for _, tc := range tests {
		g, err := compileGlob(tc.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := g.match(tc.path); got != tc.want {
			t.Errorf("match(%q, %q) = %v", tc.pattern, tc.path, got)
		}
	}
}

func TestGrep(t *testing.T) {
	f := newFixture(t, "")
	layout(f)
	d := f.ok(map[string]any{"action": "grep", "query": `TODO`})
	got := map[string]bool{}
	for _, m := range list(d, "matches") {
		got[fmt.Sprintf("%s:%v", m["path"], m["line"])] = true
	}
	want := []string{"a.md:2", "docs/x/c.md:3", "docs/x/c.txt:1"}
	if len(got) != len(want) {
		t.Fatalf("grep: %v", d)
	}
	for _, w := range want {
		if !got[w] {
			t.Fatalf("grep lacks %s: %v", w, got)
		}
	}
	if d["skipped_binary"] != float64(1) {
		t.Fatalf("binary not skipped: %v", d)
	}
	d = f.ok(map[string]any{"action": "grep", "query": `^todo`, "ignore_case": true, "pattern": "*.md"})
	if m := list(d, "matches"); len(m) != 3 {
		t.Fatalf("ignore_case+pattern: %v", d)
	}
	d = f.ok(map[string]any{"action": "grep", "query": `TODO`, "limit": 1})
	if len(list(d, "matches")) != 1 || d["truncated"] != true {
		t.Fatalf("limit: %v", d)
	}
	d = f.ok(map[string]any{"action": "grep", "path": "docs/x/c.md", "query": `again$`})
	if m := list(d, "matches"); len(m) != 1 || m[0]["line"] != float64(3) || m[0]["text"] != "TODO: again" {
		t.Fatalf("single file: %v", d)
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "grep", "query": `(`})
}
