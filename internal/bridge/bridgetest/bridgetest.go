// Package bridgetest finds the real npm MCP servers that the bridge's tests
// run (installed by scripts/install-mcp-servers.sh into .cache/mcp-servers).
package bridgetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var install sync.Once

// Script returns the path of an installed server's entry point, e.g.
// Script(t, "server-everything"). Without npm the test is skipped, unless
// CLAWBRIDGE_REQUIRE_PROGRAMS is set.
func Script(t testing.TB, pkg string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatal("node/npm is required (CLAWBRIDGE_REQUIRE_PROGRAMS is set)")
		}
		t.Skip("node/npm not installed")
	}
	root := repoRoot(t)
	js := filepath.Join(root, ".cache/mcp-servers/node_modules/@modelcontextprotocol", pkg, "dist/index.js")
	install.Do(func() {
		if _, err := os.Stat(js); err == nil {
			return
		}
		cmd := exec.Command(filepath.Join(root, "scripts/install-mcp-servers.sh"), filepath.Join(root, ".cache/mcp-servers"))
		cmd.Stderr = os.Stderr
		_ = cmd.Run()
	})
	if _, err := os.Stat(js); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatalf("%s is not installed (scripts/install-mcp-servers.sh): %v", pkg, err)
		}
		t.Skipf("%s is not installed: %v", pkg, err)
	}
	return js
}

func repoRoot(t testing.TB) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}
