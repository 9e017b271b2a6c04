package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readme(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadme_DocumentsEveryEnvVariable: every CLAWBRIDGE_* variable the code
// reads — named in a non-test Go file, or read by os.Getenv/LookupEnv in a
// test — is in the README.
func TestReadme_DocumentsEveryEnvVariable(t *testing.T) {
	doc := readme(t)
	name := regexp.MustCompile(`CLAWBRIDGE_[A-Z0-9_]+`)
	read := regexp.MustCompile(`(?:Getenv|LookupEnv)\("(CLAWBRIDGE_[A-Z0-9_]+)"|(?:Env|env) += "(CLAWBRIDGE_[A-Z0-9_]+)"`)
	seen := map[string]string{}
	filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
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
			t.Errorf("%s (read in %s) is not in the README", n, where)
		}
	}
	for _, flag := range []string{"--confirm", "--catalog", "--max-chars", "--verbose"} {
		if !strings.Contains(doc, flag) {
			t.Errorf("README does not document %s", flag)
		}
	}
}

// TestReadme_NoLinksOutsideRepository: the README points at nothing outside
// the repository, and every repository path it names exists.
func TestReadme_NoLinksOutsideRepository(t *testing.T) {
	doc := readme(t)
	for _, bad := range []string{"../", "shared/", "ARCHITECTURE.md", "CATALOG.md", "/work/"} {
		if strings.Contains(doc, bad) {
			t.Errorf("README points outside the repository: %q", bad)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)\)`).FindAllStringSubmatch(doc, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", m[1])); err != nil {
			t.Errorf("README links %s, which is not in the repository", m[1])
		}
	}
	for _, m := range regexp.MustCompile("`((?:exposure|internal|tools|server|e2e|fixtures|scripts)/[^` ]+)`").FindAllStringSubmatch(doc, -1) {
		p := strings.TrimSuffix(m[1], "/")
		if strings.ContainsAny(p, "*{<") || strings.Contains(p, "NAME") || p == "tools/list" || p == "tools/call" {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
			t.Errorf("README names %s, which is not in the repository", m[1])
		}
	}
}

// TestReadme_CoreToolsAreBuilt: the core tools the README and the default
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
	m := regexp.MustCompile("Core tools \\(`exposure.core`, default ([^)]*)\\)").FindStringSubmatch(readme(t))
	if m == nil {
		t.Fatal("README does not name the core tools")
	}
	for _, n := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[1], -1) {
		if !have[n[1]] {
			t.Errorf("README names core tool %s, which this build lacks", n[1])
		}
	}
}
