package e2e

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestBare_TerminalGetsHintAndStillServes: bare `clawbridge` with a
// terminal on stdin (a pty from script(1)) says on stderr what it is and
// how to connect a client, and still answers JSON-RPC; with a pipe on stdin,
// as every client runs it, stderr has no hint.
func TestBare_TerminalGetsHintAndStillServes(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Fatal("script (util-linux) is needed for a pty")
	}
	e := newEnv(t, "CLAWBRIDGE_LOG_LEVEL=error")
	cmd := exec.Command("script", "-qfec", "'"+binPath+"'", "/dev/null")
	cmd.Env = e.vars
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	var seen strings.Builder
	until := func(want string) {
		t.Helper()
		for !strings.Contains(seen.String(), want) {
			if !lines.Scan() {
				t.Fatalf("no %q in the terminal:\n%s", want, seen.String())
			}
			seen.WriteString(lines.Text() + "\n")
		}
	}
	// The hint is written before serving starts, so it is on the terminal
	// before the answer to the first request.
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":7,"method":"ping"}`+"\n")
	until(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	for _, want := range []string{"MCP server", "clawbridge install CLIENT", "clawbridge --help"} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("no %q on the terminal:\n%s", want, seen.String())
		}
	}

	// A pipe: no hint.
	pipe := exec.Command(binPath)
	pipe.Env = e.vars
	pipe.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	var errOut strings.Builder
	pipe.Stderr = &errOut
	out, err := pipe.Output()
	if err != nil || !strings.Contains(string(out), `"id":1,"result":{}`) || strings.Contains(errOut.String(), "install CLIENT") {
		t.Fatalf("pipe: %v, stdout %q, stderr %q", err, out, errOut.String())
	}
}
