package e2e

import (
	"os/exec"
	"runtime"
	"testing"
)

// TestVersion_ReportsTheCommit: the built binary's `version` and `--version`
// print the version, commit and date it was stamped with at build time.
func TestVersion_ReportsTheCommit(t *testing.T) {
	want := "clawbridge 0.0.0-e2e (commit " + builtCommit + ", built 2026-01-02T03:04:05Z, " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	for _, arg := range []string{"version", "--version"} {
		out, err := exec.Command(binPath, arg).Output()
		if err != nil {
			t.Fatalf("clawbridge %s: %v", arg, err)
		}
		if string(out) != want {
			t.Errorf("clawbridge %s printed %q; want %q", arg, out, want)
		}
	}
}
