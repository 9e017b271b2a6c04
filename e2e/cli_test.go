package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// runSplit runs the binary with stdout and stderr apart.
func runSplit(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, o.String(), e.String()
}

// TestCLI_CallAuditLineOnlyWithVerbose: `clawbridge call` logging to stderr
// prints the result and nothing else there; --verbose adds the audit line.
// A confirmation needed exits 3, a failure 1.
func TestCLI_CallAuditLineOnlyWithVerbose(t *testing.T) {
	e := newEnv(t) // CLAWBRIDGE_LOG_LEVEL=debug, no log file: logs would go to stderr
	os.MkdirAll(e.workspace, 0o755)
	os.WriteFile(filepath.Join(e.workspace, "a.txt"), []byte("hello"), 0o600)
	code, out, errOut := runSplit(t, e.vars, "call", "file", "--args", `{"action":"read","path":"a.txt"}`)
	if code != 0 || !strings.Contains(out, "hello") || errOut != "" {
		t.Fatalf("call: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runSplit(t, e.vars, "call", "file", "--verbose", "--args", `{"action":"read","path":"a.txt"}`)
	if code != 0 || !strings.Contains(out, "hello") || !strings.Contains(errOut, `"kind":"audit"`) {
		t.Fatalf("call --verbose: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, _ = runSplit(t, e.vars, "call", "shell", "--args", `{"argv":["touch","b.txt"]}`); code != 3 || !strings.Contains(out, "confirm_token") {
		t.Fatalf("high call: exit %d\n%s", code, out)
	}
	if code, _, errOut = runSplit(t, e.vars, "call", "file", "--args", `{"action":"read","path":"none.txt"}`); code != 1 || !strings.Contains(errOut, "not_found") {
		t.Fatalf("failed call: exit %d %s", code, errOut)
	}
}

// TestCLI_HTTPAddrFromEnvironment: CLAWBRIDGE_HTTP_ADDR makes `serve`
// listen over HTTP there, as --http does, and a real client talks to it.
func TestCLI_HTTPAddrFromEnvironment(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_HTTP_ADDR=127.0.0.1:0")
	_, urls := serveBanner(t, e, []string{"streamable HTTP"}, "serve")
	c := started(t)(client.NewStreamableHttpClient(urls["streamable HTTP"]))
	initialize(t, c, mcp.ProtocolVersion20250618)
	if tools := listTools(t, c); len(tools) == 0 {
		t.Fatal("no tools listed")
	}
}
