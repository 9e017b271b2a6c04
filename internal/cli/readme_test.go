package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, seen from this package.
var root = filepath.Join("..", "..")

func readme(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docs reads the README and every Markdown page under docs/, by path from
// the repository root.
func docs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"README.md": readme(t)}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("only %d documents", len(out))
	}
	return out
}

func allDocs(t *testing.T) string {
	var b strings.Builder
	for _, text := range docs(t) {
		b.WriteString(text)
	}
	return b.String()
}

// TestReadme_DocumentsEveryEnvVariable: every CLAWBRIDGE_* variable the code
// reads — named in a non-test Go file, or read by os.Getenv/LookupEnv in a
// test — is in the README or a page under docs/.
func TestReadme_DocumentsEveryEnvVariable(t *testing.T) {
	doc := allDocs(t)
	name := regexp.MustCompile(`CLAWBRIDGE_[A-Z0-9_]+`)
	read := regexp.MustCompile(`(?:Getenv|LookupEnv)\("(CLAWBRIDGE_[A-Z0-9_]+)"|(?:Env|env) += "(CLAWBRIDGE_[A-Z0-9_]+)"`)
	seen := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, _ := os.ReadFile(p)
		if strings.HasSuffix(p, "_test.go") {
			for _, m := range read.FindAllStringSubmatch(string(b), -1) {
				seen[m[1]+m[2]] = p
			}
			return nil
		}
		for _, n := range name.FindAllString(string(b), -1) {
			seen[n] = p
		}
		return nil
	})
	if len(seen) < 10 {
		t.Fatalf("found only %v", seen)
	}
	for n, where := range seen {
		if n == "CLAWBRIDGE_" || n == "" {
			continue
		}
		if !strings.Contains(doc, "`"+n) {
			t.Errorf("%s (read in %s) is not in the README or docs/", n, where)
		}
	}
	for _, flag := range []string{"--confirm", "--catalog", "--max-chars", "--verbose"} {
		if !strings.Contains(doc, flag) {
			t.Errorf("the docs do not document %s", flag)
		}
	}
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile("(?m)^#{1,6} +(.+?) *$")
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// anchors are the ids GitHub gives a page's headings: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', a repeated id numbered.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		id := b.String()
		for i := 1; out[id]; i++ {
			id = b.String() + "-" + strconv.Itoa(i)
		}
		out[id] = true
	}
	return out
}

// TestDocs_LinksResolve: every link between the README and docs/ names a
// file of the repository and, after '#', a heading of that file; nothing
// points outside the repository.
func TestDocs_LinksResolve(t *testing.T) {
	pages := docs(t)
	for page, text := range pages {
		for _, bad := range []string{"shared/", "ARCHITECTURE.md", "CATALOG.md", "/work/"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s points outside the repository: %q", page, bad)
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			rel := page
			if file != "" {
				rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), file)))
				if strings.HasPrefix(rel, "../") {
					t.Errorf("%s links %s, outside the repository", page, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
					t.Errorf("%s links %s, which is not in the repository", page, target)
					continue
				}
			}
			if frag == "" {
				continue
			}
			linked, ok := pages[rel]
			if !ok {
				t.Errorf("%s links %s: an anchor in a file that is not a document", page, target)
				continue
			}
			if !anchors(linked)[frag] {
				t.Errorf("%s links %s: %s has no heading #%s", page, target, rel, frag)
			}
		}
	}
}

// TestDocs_NamedPathsExist: every repository path a document names in
// backquotes exists.
func TestDocs_NamedPathsExist(t *testing.T) {
	path := regexp.MustCompile("`((?:exposure|internal|tools|server|e2e|fixtures|scripts|release|browser|docs)/[^` ]+)`")
	for page, text := range docs(t) {
		for _, m := range path.FindAllStringSubmatch(text, -1) {
			p := strings.TrimSuffix(m[1], "/")
			if strings.ContainsAny(p, "*{<") || strings.Contains(p, "NAME") || p == "tools/list" || p == "tools/call" {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s names %s, which is not in the repository", page, m[1])
			}
		}
	}
}

// TestReadme_FirstScreen: the README stays short and opens with what a
// newcomer needs: the two set-up commands, then connecting a client, the
// safety model and one line per tool of this build.
func TestReadme_FirstScreen(t *testing.T) {
	cliEnv(t)
	doc := readme(t)
	if len(doc) >= 12*1024 {
		t.Errorf("README is %d bytes; keep it under 12 KB and move detail to docs/", len(doc))
	}
	first, _, _ := strings.Cut(doc, "\n## ")
	for _, cmd := range []string{"\nmake run ", "\nmake test "} {
		if !strings.Contains(first, cmd) {
			t.Errorf("README does not open with %q", strings.TrimSpace(cmd))
		}
	}
	sections := regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatch(doc, -1)
	var names []string
	for _, s := range sections {
		names = append(names, s[1])
	}
	want := []string{"Connect a client", "Safety model", "Tools"}
	if len(names) < len(want) || strings.Join(names[:len(want)], "|") != strings.Join(want, "|") {
		t.Errorf("README sections %q; want them to start with %q", names, want)
	}
	connect := section(doc, "Connect a client")
	for _, client := range []string{"claude-desktop", "claude-code", "gemini", "codex", "--http"} {
		if !strings.Contains(connect, client) {
			t.Errorf("README's Connect a client does not say how to connect %s", client)
		}
	}
	rows := map[string]int{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(section(doc, "Tools"), -1) {
		rows[m[1]]++
	}
	for _, tl := range registry(t) {
		if rows[tl.Name] != 1 {
			t.Errorf("README's tool list has %d rows for %s; want one", rows[tl.Name], tl.Name)
		}
		delete(rows, tl.Name)
	}
	for name := range rows {
		t.Errorf("README lists %s, which this build lacks", name)
	}
}

// section is the text under a README "## " heading, up to the next one.
func section(doc, name string) string {
	_, rest, ok := strings.Cut(doc, "\n## "+name+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n## ")
	return body
}

// TestDocs_ArchitectureLayout: docs/architecture.md's layout names the
// module path, every top-level directory and every internal package.
func TestDocs_ArchitectureLayout(t *testing.T) {
	arch := docs(t)["docs/architecture.md"]
	_, layout, _ := strings.Cut(arch, "## Layout")
	layout, _, _ = strings.Cut(layout, "\n## ")
	if !strings.Contains(layout, "github.com/clawbridge/clawbridge") {
		t.Error("the layout does not name the module path")
	}
	dirs := func(dir string) []string {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" && e.Name() != "dist" {
				out = append(out, e.Name())
			}
		}
		return out
	}
	for _, d := range dirs(".") {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(d) + `/`).MatchString(layout) {
			t.Errorf("the layout does not name the directory %s/", d)
		}
	}
	for _, d := range dirs("internal") {
		if !regexp.MustCompile(`(?m)^  .*\b` + regexp.QuoteMeta(d) + `\b`).MatchString(layout) {
			t.Errorf("the layout does not name internal/%s", d)
		}
	}
}

// TestReadme_CoreToolsAreBuilt: the core tools the docs and the default
// config name are tools this build has.
func TestReadme_CoreToolsAreBuilt(t *testing.T) {
	cliEnv(t)
	have := map[string]bool{}
	for _, tl := range registry(t) {
		have[tl.Name] = true
	}
	a, err := newLookApp("")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, c := range a.cfg.Exposure.Core {
		if !have[c] {
			t.Errorf("default core tool %s is not in this build", c)
		}
	}
	m := regexp.MustCompile("Core tools \\(`exposure.core`, default ([^)]*)\\)").FindStringSubmatch(docs(t)["docs/exposure.md"])
	if m == nil {
		t.Fatal("docs/exposure.md does not name the core tools")
	}
	for _, n := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[1], -1) {
		if !have[n[1]] {
			t.Errorf("docs/exposure.md names core tool %s, which this build lacks", n[1])
		}
	}
}
