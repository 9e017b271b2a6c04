package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tooltest"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/screen"
)

// cliEnv isolates the CLI's config, workspace and data dir.
func cliEnv(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("CLAWBRIDGE_CONFIG", filepath.Join(dir, "config.yaml"))
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("{}\n"), 0o600)
	t.Setenv("CLAWBRIDGE_WORKSPACE", filepath.Join(dir, "ws"))
	t.Setenv("CLAWBRIDGE_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("CLAWBRIDGE_LOG_FILE", filepath.Join(dir, "log.jsonl"))
	return dir
}

func runCLI(t *testing.T, args ...string) (string, error) {
	return runStdin(t, "", args...)
}

func runStdin(t *testing.T, stdin string, args ...string) (string, error) {
	var out bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &out)
	return out.String(), err
}

func TestInstallMergesAfterBackup(t *testing.T) {
	dir := cliEnv(t)
	target := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(target, []byte(`{"mcpServers":{"other":{"command":"x"}},"theme":"dark"}`), 0o600)
	if out, err := runCLI(t, "install", "claude-desktop", "--path", target); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var doc map[string]any
	b, _ := os.ReadFile(target)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	servers := doc["mcpServers"].(map[string]any)
	if servers["other"] == nil || doc["theme"] != "dark" {
		t.Fatalf("existing entries lost: %s", b)
	}
	entry := servers["clawbridge"].(map[string]any)
	if args := entry["args"].([]any); args[0] != "serve" {
		t.Fatalf("entry %v", entry)
	}
	backups, _ := filepath.Glob(target + ".bak-*")
	if len(backups) != 1 {
		t.Fatalf("want one backup, got %v", backups)
	}
	// A broken file is left alone with a clear error.
	os.WriteFile(target, []byte(`{broken`), 0o600)
	if _, err := runCLI(t, "install", "claude-desktop", "--path", target); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("broken config: %v", err)
	}
	out, err := runCLI(t, "install", "vscode", "--print")
	if err != nil || !strings.Contains(out, `"servers"`) || !strings.Contains(out, `"type": "stdio"`) {
		t.Fatalf("vscode --print: %v %s", err, out)
	}
}

func TestConfigInitAndTools(t *testing.T) {
	dir := cliEnv(t)
	p := filepath.Join(dir, "new", "config.yaml")
	if _, err := runCLI(t, "config", "init", "--path", p); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "config", "init", "--path", p); err == nil {
		t.Fatal("config init overwrote a file")
	}
	if _, err := runCLI(t, "--config", p, "tools"); err == nil {
		t.Fatal("flags before the command should be a usage error")
	}
	out, err := runCLI(t, "tools", "--config", p)
	if err != nil || !strings.Contains(out, "pdf_tool") || !strings.Contains(out, "run(high)") {
		t.Fatalf("tools: %v\n%s", err, out)
	}
	out, err = runCLI(t, "call", "file", "--args", `{"action":"write","path":"x.txt","text":"cli"}`)
	if err != nil || !strings.Contains(out, "x.txt") {
		t.Fatalf("call: %v %s", err, out)
	}
	if _, err := runCLI(t, "call", "file", "--args", `{"action":"read","path":"../../etc/passwd"}`); err == nil {
		t.Fatal("call with an escaping path succeeded")
	}
}

func TestDoctorNamesPackages(t *testing.T) {
	cliEnv(t)
	t.Setenv("PATH", t.TempDir()) // nothing installed
	out, err := runCLI(t, "doctor")
	if err == nil || !strings.Contains(out, "apt-get install chromium") || !strings.Contains(out, "MISSING") {
		t.Fatalf("doctor should name the missing packages: %v\n%s", err, out)
	}
}

// `clawbridge approve` lists a waiting call and approves or rejects it by
// id, from its own store handle on the data dir (as another process would).
func TestApproveCLI_DecidesWaitingCalls(t *testing.T) {
	dir := cliEnv(t)
	a, ws := approvingApp(t, dir)
	approveOnce(t, ws, startWaitingCall(t, a, ws, "approved.txt"))

	call := startWaitingCall(t, a, ws, "rejected.txt")
	if out, err := runCLI(t, "reject", call.id); err != nil || !strings.Contains(out, "rejected") {
		t.Fatalf("reject %s: %v %s", call.id, err, out)
	}
	if r := <-call.result; !r.IsError {
		t.Fatal("a rejected call ran")
	}
	if _, err := os.Stat(filepath.Join(ws, "rejected.txt")); err != nil {
		t.Fatal("the rejected rm ran")
	}
	if out, _ := runCLI(t, "approve"); !strings.Contains(out, "no calls are waiting") {
		t.Fatalf("list after decisions: %s", out)
	}
}

// approvingApp is the app on dir's config under the approve policy, closed
// when the test ends, and its workspace dir/ws.
func approvingApp(t *testing.T, dir string) (*app, string) {
	t.Helper()
	a, err := newApp("", func(c *config.Config) { c.Confirm = "approve" })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	return a, ws
}

// waitingCall is a shell call waiting for approval: its id as `clawbridge
// approve` lists it, the file its rm removes, and where its result arrives.
type waitingCall struct {
	id, file string
	result   chan *mcp.CallToolResult
}

// startWaitingCall starts `rm file` in ws through a's server, which waits
// for approval, and finds the call in the CLI's list.
func startWaitingCall(t *testing.T, a *app, ws, file string) waitingCall {
	t.Helper()
	os.WriteFile(filepath.Join(ws, file), []byte("x"), 0o600)
	ch := make(chan *mcp.CallToolResult, 1)
	go func() { ch <- a.srv.Call(context.Background(), "shell", map[string]any{"argv": []any{"rm", file}}) }()
	for i := 0; i < 200; i++ {
		out, err := runCLI(t, "approve")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, file) {
				// The call's own line; the preview's lines follow it.
				return waitingCall{id: strings.Fields(line)[0], file: file, result: ch}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the waiting call is not listed")
	return waitingCall{}
}

// approveOnce approves the call with the CLI, checks that it ran and that
// a second approval of the same id is refused.
func approveOnce(t *testing.T, ws string, call waitingCall) {
	t.Helper()
	if out, err := runCLI(t, "approve", call.id); err != nil || !strings.Contains(out, "approved") {
		t.Fatalf("approve %s: %v %s", call.id, err, out)
	}
	if r := <-call.result; r.IsError {
		t.Fatalf("approved call failed: %v", r.Content)
	}
	if _, err := os.Stat(filepath.Join(ws, call.file)); !os.IsNotExist(err) {
		t.Fatal("the approved rm did not run")
	}
	if _, err := runCLI(t, "approve", call.id); err == nil {
		t.Fatal("an approval was accepted twice")
	}
}

// TestDoctorReportsJail: doctor says whether the jail works, and if not,
// what to fix.
func TestDoctorReportsJail(t *testing.T) {
	cliEnv(t)
	out, _ := runCLI(t, "doctor")
	if err := jail.Check(); err != nil {
		if !regexp.MustCompile(`MISSING\s+jail\s.*(bubblewrap|user namespaces)`).MatchString(out) {
			t.Fatalf("doctor does not report the broken jail (%v):\n%s", err, out)
		}
		return
	}
	if !regexp.MustCompile(`ok\s+jail\s+bubblewrap: no network`).MatchString(out) {
		t.Fatalf("doctor does not report the jail:\n%s", out)
	}
}

// TestExitCode_UsageErrorAndVersion: Main, which main hands the process to,
// answers a usage error with exit code 2 and the error and the usage on
// stderr, leaving stdout (the JSON-RPC channel under stdio) empty; a
// command that works exits 0 with its output on stdout.
func TestExitCode_UsageErrorAndVersion(t *testing.T) {
	cliEnv(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{"serve", "--htp", ":1"}, "-htp"},
		{[]string{"doctor", "extra"}, `unexpected argument "extra"`},
		{[]string{"tools", "file", "extra"}, `name one tool`},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit code %d, want 2", c.args, code)
		}
		if stdout.Len() > 0 || !strings.Contains(stderr.String(), c.says) || !strings.Contains(stderr.String(), "Usage:\n  clawbridge [serve]") {
			t.Errorf("%v: stdout %q, stderr:\n%s", c.args, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"version"}, strings.NewReader(""), &stdout, &stderr); code != 0 || stdout.String() != versionLine() || stderr.Len() > 0 {
		t.Errorf("version: exit code %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestInstall_PrintNamesFileAndRepeatIsPresent: --print names the file it
// would change and writes nothing; a second install of the same entry says
// it is already present and makes no backup; a changed entry is replaced.
func TestInstall_PrintNamesFileAndRepeatIsPresent(t *testing.T) {
	dir := cliEnv(t)
	target := filepath.Join(dir, "cursor", "mcp.json")
	out, err := runCLI(t, "install", "cursor", "--print", "--path", target)
	if err != nil || !strings.Contains(out, "would add this to "+target) || !strings.Contains(out, `"mcpServers"`) {
		t.Fatalf("--print: %v\n%s", err, out)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("--print wrote the file")
	}
	t.Setenv("HOME", dir)
	if out, _ := runCLI(t, "install", "cursor", "--print"); !strings.Contains(out, filepath.Join(dir, ".cursor", "mcp.json")) {
		t.Fatalf("--print without --path names no default file:\n%s", out)
	}
	if out, err := runCLI(t, "install", "cursor", "--path", target); err != nil || !strings.Contains(out, "added clawbridge to "+target) {
		t.Fatalf("first install: %v %s", err, out)
	}
	before, _ := os.ReadFile(target)
	out, err = runCLI(t, "install", "cursor", "--path", target)
	if err != nil || !strings.Contains(out, "already present") {
		t.Fatalf("second install: %v %s", err, out)
	}
	after, _ := os.ReadFile(target)
	if backups, _ := filepath.Glob(target + ".bak-*"); len(backups) != 0 || !bytes.Equal(before, after) {
		t.Fatalf("a repeated install changed the file or backed it up: %v", backups)
	}
	cfg := filepath.Join(dir, "other.yaml")
	os.WriteFile(cfg, []byte("{}\n"), 0o600)
	if out, err := runCLI(t, "install", "cursor", "--path", target, "--config", cfg); err != nil || !strings.Contains(out, "replaced the clawbridge entry") {
		t.Fatalf("changed entry: %v %s", err, out)
	}
}

// TestDoctor_CoversScreen: doctor has a screen line that agrees with the
// screen tool's own check: a display that does not answer is a note, not a
// failure; a live one (Xvfb) is ok with its screens. DISPLAY is set in both
// cases, so displays other processes start and stop meanwhile change nothing.
func TestDoctor_CoversScreen(t *testing.T) {
	cliEnv(t)
	t.Setenv("DISPLAY", ":199")
	out, _ := runCLI(t, "doctor")
	if _, _, err := screen.Available(); err == nil || !regexp.MustCompile(`(?m)^note\s+screen\s+no usable X display .*Xvfb`).MatchString(out) {
		t.Errorf("DISPLAY=:199: Available says %v, doctor says\n%s", err, out)
	}
	if regexp.MustCompile(`(?m)^(MISSING|FAIL)\s+screen`).MatchString(out) {
		t.Errorf("a missing display counted as a problem:\n%s", out)
	}

	disp := tooltest.Xvfb(t, "320x200x24")
	t.Setenv("DISPLAY", disp)
	out, _ = runCLI(t, "doctor")
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^ok\s+screen\s+X display %s, 1 screen\(s\): 320x200`, disp)).MatchString(out) {
		t.Errorf("live display %s: doctor says\n%s", disp, out)
	}
}

// TestHelpAndVersion_EveryForm: --version, -h and --help before any command
// answer with the version and the command list (not serve's flags), and
// every command with subcommands or a positional first argument answers
// --help with its own usage on stdout, exit 0.
func TestHelpAndVersion_EveryForm(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--version"}, "clawbridge " + Version},
		{[]string{"-version"}, "clawbridge " + Version},
		{[]string{"-h"}, "Usage:\n  clawbridge [serve]"},
		{[]string{"--help"}, "clawbridge approve [--reject] ID"},
		{[]string{"install", "--help"}, "clawbridge install claude-desktop|cursor|vscode|claude-code|gemini|codex"},
		{[]string{"config", "-h"}, "clawbridge config init"},
		{[]string{"bridge", "--help"}, "clawbridge bridge refresh"},
		{[]string{"call", "--help"}, "clawbridge call TOOL"},
		{[]string{"serve", "--help"}, "clawbridge serve [--http ADDR]"},
	} {
		code, stdout, stderr := mainCLI(t, c.args...)
		if code != 0 || !strings.Contains(stdout, c.says) || stderr != "" {
			t.Errorf("%v: exit %d, stdout %.120q, stderr %.120q; want %q", c.args, code, stdout, stderr, c.says)
		}
	}
}
