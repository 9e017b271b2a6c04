package codeassist

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// diffCounts runs GNU diff --minimal on two files and counts the lines it
// removes (<) and adds (>): the counts of a shortest edit script, which
// every minimal diff shares.
func diffCounts(t *testing.T, oldPath, newPath string) (added, removed int) {
	t.Helper()
	bin := tooltest.NeedProgram(t, "diff")
	out, err := exec.Command(bin, "--minimal", oldPath, newPath).Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("diff: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		switch {
		case strings.HasPrefix(sc.Text(), "> "), sc.Text() == ">":
			added++
		case strings.HasPrefix(sc.Text(), "< "), sc.Text() == "<":
			removed++
		}
	}
	return added, removed
}

// Two versions of gin's README: the diff library's own line diff gave up
// after 100 edits and reported +156/-107 where a minimal diff is +118/-69.
func TestDiff_MinimalOnRealFiles(t *testing.T) {
	tl, root := setup(t)
	for _, name := range []string{"gin-README-v1.9.1.md", "gin-README-34dac20.md"} {
		data := tooltest.ReadFile(t, filepath.Join("testdata", name))
		tooltest.WriteFile(t, filepath.Join(root, name), data)
	}
	m := run(t, tl, map[string]any{"action": "diff", "paths": []any{"gin-README-v1.9.1.md", "gin-README-34dac20.md"}})
	added, removed := diffCounts(t, filepath.Join(root, "gin-README-v1.9.1.md"), filepath.Join(root, "gin-README-34dac20.md"))
	if m["added"] != float64(added) || m["removed"] != float64(removed) {
		t.Errorf("added %v removed %v, GNU diff --minimal: %d %d", m["added"], m["removed"], added, removed)
	}
	applyPatch(t, root, "gin-README-v1.9.1.md", "gin-README-34dac20.md", m["diff"].(string))
}

// applyPatch checks with GNU patch that diff turns the old file into the new.
func applyPatch(t *testing.T, root, oldName, newName, diff string) {
	t.Helper()
	patch := tooltest.NeedProgram(t, "patch")
	dir := t.TempDir()
	old, _ := os.ReadFile(filepath.Join(root, oldName))
	want, _ := os.ReadFile(filepath.Join(root, newName))
	tooltest.WriteFile(t, filepath.Join(dir, "f"), old)
	cmd := exec.Command(patch, "-s", "f")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch refused the diff: %v %s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "f")); string(got) != string(want) {
		t.Error("the diff does not turn the old file into the new one")
	}
}

// Files with hundreds of edits among repeated lines (braces, blank lines),
// where a diff that is valid but not minimal shows: the counts equal GNU
// diff --minimal's and the diff applies.
func TestDiff_MinimalOnManyEdits(t *testing.T) {
	tl, root := setup(t)
	rng := rand.New(rand.NewPCG(26, 1))
	pool := []string{"}", "", "\treturn nil", "\tif err != nil {", "\t}", "func f() {", "// comment"}
	line := func() string {
		if rng.IntN(3) == 0 {
			return fmt.Sprintf("x := %d", rng.IntN(50))
		}
		return pool[rng.IntN(len(pool))]
	}
	for round := range 4 {
		var a []string
		for range 1500 {
			a = append(a, line())
		}
		var b []string
		for _, l := range a {
			switch rng.IntN(6) {
			case 0: // dropped
			case 1:
				b = append(b, line())
			case 2:
				b = append(b, line(), l)
			default:
				b = append(b, l)
			}
		}
		oldName, newName := fmt.Sprintf("old%d.txt", round), fmt.Sprintf("new%d.txt", round)
		tooltest.WriteFile(t, filepath.Join(root, oldName), []byte(strings.Join(a, "\n")+"\n"))
		tooltest.WriteFile(t, filepath.Join(root, newName), []byte(strings.Join(b, "\n"))) // no final newline
		m := run(t, tl, map[string]any{"action": "diff", "paths": []any{oldName, newName}})
		added, removed := diffCounts(t, filepath.Join(root, oldName), filepath.Join(root, newName))
		if m["added"] != float64(added) || m["removed"] != float64(removed) {
			t.Errorf("round %d: added %v removed %v, GNU diff --minimal: %d %d", round, m["added"], m["removed"], added, removed)
		}
		applyPatch(t, root, oldName, newName, m["diff"].(string))
	}
}

// On small random texts the edits apply and their size is the one a
// longest common subsequence (by dynamic programming) gives.
func TestLineEdits_MatchesLCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	text := func() ([]string, string) {
		n := rng.IntN(25)
		lines := make([]string, n)
		for i := range lines {
			lines[i] = string(rune('a'+rng.IntN(4))) + "\n"
		}
		return lines, strings.Join(lines, "")
	}
	for range 3000 {
		al, a := text()
		bl, b := text()
		edits, err := lineEdits(t.Context(), a, b)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := udiff.Apply(a, edits); err != nil || got != b {
			t.Fatalf("%q -> %q: edits give %q (%v)", a, b, got, err)
		}
		removed, added := 0, 0
		for _, e := range edits {
			removed += strings.Count(a[e.Start:e.End], "\n")
			added += strings.Count(e.New, "\n")
		}
		if lcs := lcsLen(al, bl); removed != len(al)-lcs || added != len(bl)-lcs {
			t.Fatalf("%q -> %q: -%d +%d, minimal is -%d +%d", a, b, removed, added, len(al)-lcs, len(bl)-lcs)
		}
	}
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
