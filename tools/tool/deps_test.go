package tool

import (
	"os/exec"
	"strings"
	"testing"
)

// depsOf lists the packages pkg links, as the go command sees them.
func depsOf(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// The contract is what every tool imports: it must not pull the browser
// library (go-rod) into tools that never drive a browser.
func TestContractDeps_NoBrowser(t *testing.T) {
	for _, dep := range depsOf(t, "github.com/clawbridge/clawbridge/tools/tool") {
		if strings.Contains(dep, "go-rod") || dep == "github.com/clawbridge/clawbridge/browser" {
			t.Errorf("tools/tool links %s", dep)
		}
	}
}

// toolerr is a leaf: the browser library and the contract both import it, so
// it imports nothing of ours.
func TestContractDeps_ErrorPackageIsALeaf(t *testing.T) {
	for _, dep := range depsOf(t, "github.com/clawbridge/clawbridge/internal/toolerr") {
		if strings.HasPrefix(dep, "github.com/clawbridge/clawbridge/") && dep != "github.com/clawbridge/clawbridge/internal/toolerr" {
			t.Errorf("internal/toolerr links %s", dep)
		}
	}
}
