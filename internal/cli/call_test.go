package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mainCLI runs Main as the process would: exit code, stdout, stderr.
func mainCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestCallCLI_PrintsWholeResult: a result far over the server's 20,000
// character cap for a model is printed whole; --max-chars cuts it and says so.
func TestCallCLI_PrintsWholeResult(t *testing.T) {
	dir := cliEnv(t)
	os.MkdirAll(filepath.Join(dir, "ws"), 0o755)
	var b strings.Builder
	for i := 0; b.Len() < 60000; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("\n")
	}
	b.WriteString("THE-END\n")
	os.WriteFile(filepath.Join(dir, "ws", "big.txt"), []byte(b.String()), 0o600)
	code, out, errOut := mainCLI(t, "call", "file", "--args", `{"action":"read","path":"big.txt"}`)
	if code != 0 || !strings.Contains(out, b.String()) || strings.Contains(out, "truncated") || errOut != "" {
		t.Fatalf("exit %d, %d characters, stderr %q, tail %q", code, len(out), errOut, out[max(0, len(out)-200):])
	}
	code, out, _ = mainCLI(t, "call", "file", "--max-chars", "100", "--args", `{"action":"read","path":"big.txt"}`)
	if code != 0 || len([]rune(out)) > 200 || !strings.Contains(out, "cut by --max-chars: 100 of") {
		t.Fatalf("--max-chars 100: exit %d\n%s", code, out)
	}
}

// TestCallCLI_ExitCodes: a failed call exits 1 with the error on stderr;
// one that needs confirmation exits 3 and prints the command that runs it,
// which then works (the token is the CLI session's, across processes).
func TestCallCLI_ExitCodes(t *testing.T) {
	dir := cliEnv(t)
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	code, out, errOut := mainCLI(t, "call", "file", "--args", `{"action":"read","path":"missing.txt"}`)
	if code != 1 || out != "" || !strings.Contains(errOut, "not_found") || !strings.Contains(errOut, "hint:") {
		t.Fatalf("failed call: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	args := `{"argv":["touch","it's.txt"]}`
	code, out, errOut = mainCLI(t, "call", "shell", "--args", args)
	if code != exitNeedsConfirmation || !strings.Contains(out, "did not run") || !strings.Contains(out, "clawbridge approve") {
		t.Fatalf("confirmation: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "it's.txt")); err == nil {
		t.Fatal("the unconfirmed call ran")
	}
	m := regexp.MustCompile(`clawbridge call shell --args '((?:[^']|'\\'')*confirm_token(?:[^']|'\\'')*)'`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no runnable command in\n%s", out)
	}
	signed := strings.ReplaceAll(m[1], `'\''`, `'`)
	var parsed map[string]any
	if err := json.Unmarshal([]byte(signed), &parsed); err != nil || parsed["confirm_token"] == nil {
		t.Fatalf("printed args %q: %v", signed, err)
	}
	if code, out, errOut = mainCLI(t, "call", "shell", "--args", signed); code != 0 {
		t.Fatalf("confirmed call: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "it's.txt")); err != nil {
		t.Fatal("the confirmed call did not run")
	}
	if code, _, errOut = mainCLI(t, "call", "shell", "--confirm", "deny", "--args", args); code != 1 || !strings.Contains(errOut, "permission_denied") {
		t.Fatalf("deny: exit %d %s", code, errOut)
	}
}

// TestCallCLI_HintsForPeople: nothing the CLI prints tells a person to call
// find_tools; an unknown tool names the commands that list and suggest tools.
func TestCallCLI_HintsForPeople(t *testing.T) {
	cliEnv(t)
	for _, name := range []string{"no_such_tool", "find_tools", "call_tool"} {
		code, out, errOut := mainCLI(t, "call", name, "--args", `{"request":"x"}`)
		if code != 1 || strings.Contains(out+errOut, "find_tools to") || !strings.Contains(errOut, "`clawbridge tools`") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, out, errOut)
		}
	}
	if got := cliHints("unknown tool \"x\"\nhint: call find_tools to see the available tools"); strings.Contains(got, "find_tools") {
		t.Errorf("hint not rewritten: %q", got)
	}
	code, out, _ := mainCLI(t, "call", "file", "--args", `[1]`)
	if code != 2 {
		t.Errorf("--args not an object: exit %d %s", code, out)
	}
	code, out, _ = mainCLI(t, "call", "--help")
	if code != 0 || !strings.Contains(out, "Exit codes") || !strings.Contains(out, "-max-chars") {
		t.Errorf("call --help: exit %d\n%s", code, out)
	}
}
