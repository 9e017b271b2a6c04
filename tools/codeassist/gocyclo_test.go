package codeassist

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fzipp/gocyclo"
)

// The complexity agrees with gocyclo (a reference nobody on this project
// wrote) on every function of the Go standard library of this machine: both
// run on the same parsed files, and functions are matched by position.
func TestAnalyze_GocycloAgreement(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go source tree at %s", root)
	}
	start := time.Now()
	var files, funcs, agree int
	var diffs []string
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // a few files are deliberately broken; gocyclo skips them too
		}
		files++
		ref := map[string]int{}
		for _, s := range gocyclo.AnalyzeASTFile(f, fset, nil) {
			ref[s.Pos.String()] = s.Complexity
		}
		for _, fn := range goFuncs(fset, f) {
			funcs++
			want, ok := ref[fn.pos.String()]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s %s: ours %d, gocyclo does not list it", fn.pos, fn.Name, fn.Complexity))
			case want != fn.Complexity:
				diffs = append(diffs, fmt.Sprintf("%s %s: ours %d, gocyclo %d", fn.pos, fn.Name, fn.Complexity, want))
			default:
				agree++
			}
			delete(ref, fn.pos.String())
		}
		for pos, c := range ref {
			diffs = append(diffs, fmt.Sprintf("%s: gocyclo %d, we do not list it", pos, c))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 1000 {
		t.Fatalf("only %d files under %s; the corpus is too small to mean anything", files, root)
	}
	ratio := float64(agree) / float64(funcs)
	t.Logf("corpus: %s, %d files, %d functions, %d agree with gocyclo (%.4f), %d differences, %s",
		root, files, funcs, agree, ratio, len(diffs), time.Since(start).Round(time.Millisecond))
	for i, d := range diffs {
		if i == 20 {
			t.Logf("... and %d more", len(diffs)-20)
			break
		}
		t.Log(d)
	}
	if ratio < 0.99 {
		t.Errorf("agreement %.4f is below 0.99", ratio)
	}
}
