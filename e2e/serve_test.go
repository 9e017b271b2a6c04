package e2e

// End-to-end tests of the built binary for issue 9 part 5: graceful
// shutdown on SIGTERM, and audit lines without secrets.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// rawStdio starts `clawbridge serve` with a config file and returns its
// stdin, a reader of its JSON-RPC answers by id and the command.
func rawStdio(t *testing.T, configYAML string) (io.WriteCloser, func(id float64) map[string]any, *exec.Cmd) {
	t.Helper()
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=auto")
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte(configYAML), 0o600)
	cmd := exec.Command(binPath, "serve")
	cmd.Env = append(e.vars, "CLAWBRIDGE_CONFIG="+cfg)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	answers := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["method"] == nil {
				answers <- m
			}
		}
		close(answers)
	}()
	wait := func(id float64) map[string]any {
		t.Helper()
		return bridgetest.Answer(t, answers, id, 60*time.Second)
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	wait(0)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return in, wait, cmd
}

func exitCode(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(within):
		t.Fatalf("the process did not exit within %v", within)
	}
	return -1
}

// TestGracefulShutdown_StdioBinary: SIGTERM while `sleep 2` runs through the
// shell tool: the result arrives and the process exits 0; a call longer
// than shutdown_grace is cut and the process still exits 0.
func TestGracefulShutdown_StdioBinary(t *testing.T) {
	in, wait, cmd := rawStdio(t, "shutdown_grace: 5s\n")
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"shell","arguments":{"argv":["sleep","2"]}}}`)
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	m := wait(1)
	if m["result"] == nil || m["result"].(map[string]any)["isError"] == true {
		t.Fatalf("the call in flight at SIGTERM: %v", m)
	}
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM, want 0", code)
	}

	in, _, cmd = rawStdio(t, "shutdown_grace: 1s\n")
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"shell","arguments":{"argv":["sleep","30"]}}}`)
	time.Sleep(700 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM with a call over the grace, want 0", code)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("exit took %v with a 1s grace", d)
	}
}

// TestGracefulShutdown_StdinEOFBinary: stdin's end exits 0.
func TestGracefulShutdown_StdinEOFBinary(t *testing.T) {
	in, _, cmd := rawStdio(t, "{}\n")
	in.Close()
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit code %d on stdin EOF, want 0", code)
	}
}

// TestGracefulShutdown_HTTPBinary: SIGTERM to `serve --http` while a call
// runs over streamable HTTP: the result arrives and the process exits 0.
func TestGracefulShutdown_HTTPBinary(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=auto")
	cmd, urls := serveBanner(t, e, []string{"streamable HTTP"}, "serve", "--http", "127.0.0.1:0")
	c := started(t)(client.NewStreamableHttpClient(urls["streamable HTTP"]))
	initialize(t, c, mcp.ProtocolVersion20250618)
	got := make(chan *mcp.CallToolResult, 1)
	go func() {
		got <- callTool(t, c, "shell", map[string]any{"argv": []any{"sleep", "2"}})
	}()
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case r := <-got:
		if r.IsError {
			t.Fatalf("call in flight at SIGTERM: %s", text(r))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no result after SIGTERM")
	}
	if code := exitCode(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
}

// TestAudit_NoSecretInLog: a real call whose arguments carry secrets in
// several shapes leaves an audit line without any of them.
func TestAudit_NoSecretInLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "audit.log")
	e := newEnv(t, "CLAWBRIDGE_LOG_FILE="+logFile)
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)
	secrets := []string{"hunter2pw", "tok-abc-123", "dsnpass99", "bearerXYZ987", "ghp_abcdefghijklmnopqrstuvwxyz0123"}
	r := callTool(t, c, "shell", map[string]any{"argv": []any{"echo",
		"--password=hunter2pw", "--token", "tok-abc-123", "postgres://app:dsnpass99@db/x",
		"Authorization: Bearer bearerXYZ987", "ghp_abcdefghijklmnopqrstuvwxyz0123", "密码"}})
	if r.IsError {
		t.Fatalf("echo: %s", text(r))
	}
	c.Close()
	var line string
	deadline := time.Now().Add(10 * time.Second)
	for line == "" && time.Now().Before(deadline) {
		b, _ := os.ReadFile(logFile)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, `"kind":"audit"`) && strings.Contains(l, `"tool":"shell"`) {
				line = l
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if line == "" {
		t.Fatal("no audit line for the call")
	}
	for _, s := range secrets {
		if strings.Contains(line, s) {
			t.Errorf("audit line holds %q: %s", s, line)
		}
	}
	if !strings.Contains(line, "echo") || !strings.Contains(line, "密码") {
		t.Errorf("audit line lost the plain arguments: %s", line)
	}
}
