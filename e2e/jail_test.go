package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestJail_ShellReadCallsThroughMCP: through a real MCP client and the
// built binary, a read-level shell call that abuses a read-only program's
// options (sort --compress-program=sh, hostname NAME) runs without
// confirmation but in the jail: nothing in the workspace changes, the data
// dir inside the workspace stays hidden, the host keeps its name.
func TestJail_ShellReadCallsThroughMCP(t *testing.T) {
	if err := jail.Check(); err != nil {
		tooltest.Missing(t, "the jail: %v", err)
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	data := filepath.Join(ws, ".clawbridge-data")
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=token", "CLAWBRIDGE_WORKSPACE="+ws, "CLAWBRIDGE_DATA_DIR="+data)
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "keep.txt"), []byte("keep\n"), 0o644)
	c := stdioClient(t, e, "2025-06-18")
	script := "echo RAN-IN-JAIL >&2; touch " + filepath.Join(ws, "pwned") + " 2>/dev/null; rm -f " + filepath.Join(ws, "keep.txt") +
		" 2>/dev/null; ls -A " + data + " >&2\n"
	r := callTool(t, c, "shell", map[string]any{"argv": []any{"sort", "-S", "1k", "--compress-program=sh"}, "stdin": strings.Repeat(script, 40)})
	sc, _ := r.StructuredContent.(map[string]any)
	if r.IsError || sc["confirm_token"] != nil || sc["jailed"] != true {
		t.Fatalf("want a jailed read-level run (isError=%v): %v", r.IsError, sc)
	}
	if stderr, _ := sc["stderr"].(string); !strings.Contains(stderr, "RAN-IN-JAIL") || strings.Contains(stderr, ".db") {
		t.Errorf("stderr = %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "pwned")); err == nil {
		t.Error("the jailed sh created a file in the workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "keep.txt")); string(b) != "keep\n" {
		t.Error("the jailed sh removed a workspace file")
	}
	before, _ := os.Hostname()
	r = callTool(t, c, "shell", map[string]any{"argv": []any{"hostname", "pwned-e2e"}})
	if sc, _ := r.StructuredContent.(map[string]any); r.IsError || sc["jailed"] != true {
		t.Fatalf("hostname: %s", text(r))
	}
	if after, _ := os.Hostname(); after != before {
		t.Fatalf("hostname changed to %q", after)
	}
}
