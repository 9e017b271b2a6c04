package shell

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// needPrograms skips (or, in CI, fails) when a program the test runs is
// missing: see tooltest.NeedProgram.
func needPrograms(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		tooltest.NeedProgram(t, n)
	}
}

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	t.Helper()
	d := tooltest.Deps(t)
	return tooltest.Build(t, New, d), d
}

func runOK(t *testing.T, tl tool.Tool, args map[string]any) *output {
	t.Helper()
	return tooltest.OK(t, tl, args).Data.(*output)
}

func TestRunBasics(t *testing.T) {
	needPrograms(t, "echo", "cat", "ls", "false", "pwd")
	tl, d := newTool(t)
	if err := os.MkdirAll(filepath.Join(d.Sandbox.Root(), "sub", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       map[string]any
		wantOut    string
		wantErrOut string
		wantCode   int
		wantCwd    string
	}{
		{"echo round trip", map[string]any{"argv": []any{"echo", "hello", "世界"}}, "hello 世界\n", "", 0, "."},
		{"stdin", map[string]any{"argv": []any{"cat"}, "stdin": "line one\nline two\n"}, "line one\nline two\n", "", 0, "."},
		{"cwd", map[string]any{"argv": []any{"pwd"}, "cwd": "sub/dir"}, filepath.Join(d.Sandbox.Root(), "sub", "dir") + "\n", "", 0, "sub/dir"},
		{"non-zero exit is a result", map[string]any{"argv": []any{"false"}}, "", "", 1, "."},
		{"stderr and exit code", map[string]any{"argv": []any{"ls", "no-such-file"}}, "", "no-such-file", 2, "."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := runOK(t, tl, tc.args)
			if o.ExitCode != tc.wantCode {
				t.Errorf("exit code = %d, want %d (stderr %q)", o.ExitCode, tc.wantCode, o.Stderr)
			}
			if tc.wantOut != "" || tc.wantCode == 0 {
				if o.Stdout != tc.wantOut {
					t.Errorf("stdout = %q, want %q", o.Stdout, tc.wantOut)
				}
			}
			if !strings.Contains(o.Stderr, tc.wantErrOut) {
				t.Errorf("stderr = %q, want it to contain %q", o.Stderr, tc.wantErrOut)
			}
			if o.Cwd != tc.wantCwd {
				t.Errorf("cwd = %q, want %q", o.Cwd, tc.wantCwd)
			}
			if o.TimedOut || o.Truncated {
				t.Errorf("unexpected timed_out=%v truncated=%v", o.TimedOut, o.Truncated)
			}
		})
	}
}

func TestMetacharactersAreLiteral(t *testing.T) {
	needPrograms(t, "printf", "echo")
	tl, d := newTool(t)
	meta := []string{";", "|", "$(touch pwned1)", "&&", "`touch pwned2`", "x; touch pwned3", "a | touch pwned4", "*", "$HOME", "> out.txt", "'quoted'"}
	argv := []any{"printf", "[%s]\n"}
	for _, m := range meta {
		argv = append(argv, m)
	}
	o := runOK(t, tl, map[string]any{"argv": argv})
	var want strings.Builder
	for _, m := range meta {
		want.WriteString("[" + m + "]\n")
	}
	if o.Stdout != want.String() {
		t.Errorf("stdout = %q, want %q", o.Stdout, want.String())
	}
	// A second command glued on with ; or && must not run either.
	o = runOK(t, tl, map[string]any{"argv": []any{"echo", "a", ";", "touch", "pwned5", "&&", "touch", "pwned6"}})
	if o.Stdout != "a ; touch pwned5 && touch pwned6\n" {
		t.Errorf("stdout = %q", o.Stdout)
	}
	entries, err := os.ReadDir(d.Sandbox.Root())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("a metacharacter was interpreted: %s was created", e.Name())
	}
}

func TestCwdEscapeRefused(t *testing.T) {
	tl, d := newTool(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(d.Sandbox.Root(), "link-out")); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{"..", "../..", "/etc", outside, "link-out", "sub/../../x"} {
		t.Run(cwd, func(t *testing.T) {
			_, err := tooltest.Run(t, tl, map[string]any{"argv": []any{"pwd"}, "cwd": cwd})
			te := tooltest.ToolError(t, err, tool.CodeDenied)
			if te.Field != "cwd" || !strings.Contains(te.Message, "outside the workspace") {
				t.Errorf("error = %+v", te)
			}
		})
	}
	_, err := tooltest.Run(t, tl, map[string]any{"argv": []any{"pwd"}, "cwd": "missing-dir"})
	tooltest.ToolError(t, err, tool.CodeNotFound)
}

func TestMissingProgram(t *testing.T) {
	tl, _ := newTool(t)
	_, err := tooltest.Run(t, tl, map[string]any{"argv": []any{"clawbridge-no-such-program", "x"}})
	te := tooltest.ToolError(t, err, tool.CodeNotFound)
	if !strings.Contains(te.Message, "clawbridge-no-such-program") {
		t.Errorf("error does not name the program: %v", te)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"argv": []any{"./nothing-here.sh"}})
	tooltest.ToolError(t, err, tool.CodeNotFound)
	_, err = tooltest.Run(t, tl, map[string]any{})
	te = tooltest.ToolError(t, err, tool.CodeInvalid)
	if te.Field != "argv" {
		t.Errorf("field = %q, want argv", te.Field)
	}
}

// TestTimeoutKillsGroup runs a command that starts a background child and
// sleeps; the timeout must kill both, promptly, and say so.
func TestTimeoutKillsGroup(t *testing.T) {
	needPrograms(t, "sh", "sleep")
	tl, _ := newTool(t)
	start := time.Now()
	o := runOK(t, tl, map[string]any{
		"argv":            []any{"sh", "-c", "sleep 30 & echo $!; sleep 30"},
		"timeout_seconds": 1,
	})
	// Not a speed target: without the kill this would take 30 s.
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("timeout did not kill the command: took %s", d)
	}
	if !o.TimedOut || o.ExitCode != -1 || o.Signal == "" {
		t.Fatalf("timed_out=%v exit=%d signal=%q, want a reported kill", o.TimedOut, o.ExitCode, o.Signal)
	}
	child, err := strconv.Atoi(strings.TrimSpace(o.Stdout))
	if err != nil {
		t.Fatalf("background pid: %q", o.Stdout)
	}
	if alive(child) {
		t.Errorf("background child %d survived the timeout", child)
	}
}

// TestLeftoverChildrenKilled: a program that exits normally leaves nothing
// running behind it, and the call does not wait for its children.
func TestLeftoverChildrenKilled(t *testing.T) {
	needPrograms(t, "sh", "sleep")
	tl, _ := newTool(t)
	o := runOK(t, tl, map[string]any{"argv": []any{"sh", "-c", "sleep 30 & echo $!"}})
	if o.ExitCode != 0 || o.TimedOut {
		t.Fatalf("exit=%d timed_out=%v", o.ExitCode, o.TimedOut)
	}
	child, err := strconv.Atoi(strings.TrimSpace(o.Stdout))
	if err != nil {
		t.Fatalf("background pid: %q", o.Stdout)
	}
	if alive(child) {
		t.Errorf("background child %d still running", child)
	}
}

func TestCancelKills(t *testing.T) {
	needPrograms(t, "sleep")
	tl, _ := newTool(t)
	c, err := tl.Prepare(map[string]any{"argv": []any{"sleep", "30"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err = tl.Handle(ctx, c)
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("cancel did not kill the command: took %s", d)
	}
}

// alive reports whether pid is a running (not zombie) process, waiting a
// little for the kernel to finish the kill.
func alive(pid int) bool {
	for i := 0; i < 50; i++ {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return true
}

func TestOutputCap(t *testing.T) {
	needPrograms(t, "seq", "sh")
	tl, d := newTool(t)
	d.Config.Shell.MaxOutputBytes = 1000
	o := runOK(t, tl, map[string]any{"argv": []any{"seq", "1", "100000"}})
	full := 0
	for i := 1; i <= 100000; i++ {
		full += len(strconv.Itoa(i)) + 1
	}
	if !o.Truncated || !o.StdoutTruncated || o.StderrTruncated {
		t.Errorf("truncated=%v stdout_truncated=%v stderr_truncated=%v", o.Truncated, o.StdoutTruncated, o.StderrTruncated)
	}
	if len(o.Stdout) != 1000 || !strings.HasPrefix(o.Stdout, "1\n2\n3\n") {
		t.Errorf("stdout has %d bytes, starts %q", len(o.Stdout), o.Stdout[:min(10, len(o.Stdout))])
	}
	if o.StdoutBytes != int64(full) {
		t.Errorf("stdout_bytes = %d, want %d", o.StdoutBytes, full)
	}
	if o.ExitCode != 0 {
		t.Errorf("exit = %d", o.ExitCode)
	}
	// stderr has its own cap, and a multi-byte rune cut by the cap is dropped.
	o = runOK(t, tl, map[string]any{"argv": []any{"sh", "-c", "i=0; while [ $i -lt 400 ]; do printf '汉' >&2; i=$((i+1)); done"}})
	if !o.StderrTruncated || o.StdoutTruncated || o.StderrBytes != 1200 {
		t.Errorf("stderr_truncated=%v stdout_truncated=%v stderr_bytes=%d", o.StderrTruncated, o.StdoutTruncated, o.StderrBytes)
	}
	if o.Stderr != strings.Repeat("汉", 333) {
		t.Errorf("stderr = %d bytes, want 333 whole runes", len(o.Stderr))
	}
}

func TestScrubbedEnv(t *testing.T) {
	needPrograms(t, "env")
	t.Setenv("FAKE_SECRET_TOKEN", "fake-secret-value-123")
	t.Setenv("CLAWBRIDGE_TOKEN", "server-bearer-456")
	t.Setenv("OPENAI_API_KEY", "sk-abcdefghijklmnopqrstuvwx")
	t.Setenv("MY_PLAIN_VAR", "plain-value")
	t.Setenv("PROXY_URL", "http://user:hunter2@proxy.example:3128")
	t.Setenv("LANG", "C.UTF-8")
	tl, d := newTool(t)
	d.Config.Shell.PassEnv = []string{"MY_PLAIN_VAR", "FAKE_SECRET_TOKEN", "PROXY_URL"}
	for _, prog := range []string{"env", "printenv"} {
		t.Run(prog, func(t *testing.T) {
			needPrograms(t, prog)
			o := runOK(t, tl, map[string]any{"argv": []any{prog}})
			for _, leak := range []string{"FAKE_SECRET_TOKEN", "fake-secret-value-123", "CLAWBRIDGE_TOKEN", "server-bearer-456", "OPENAI_API_KEY", "sk-abc", "hunter2", "PROXY_URL"} {
				if strings.Contains(o.Stdout, leak) {
					t.Errorf("%s printed %q:\n%s", prog, leak, o.Stdout)
				}
			}
			for _, want := range []string{"PATH=", "LANG=C.UTF-8", "MY_PLAIN_VAR=plain-value"} {
				if !strings.Contains(o.Stdout, want) {
					t.Errorf("%s output lacks %q:\n%s", prog, want, o.Stdout)
				}
			}
			lines := strings.Split(strings.TrimSpace(o.Stdout), "\n")
			// PWD is the jail's working directory, set by bwrap.
			allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "LC_ALL": true, "TZ": true, "TMPDIR": true, "MY_PLAIN_VAR": true, "PWD": true}
			for _, l := range lines {
				name, _, _ := strings.Cut(l, "=")
				if !allowed[name] {
					t.Errorf("unexpected variable %q in the scrubbed environment", name)
				}
			}
		})
	}
}

func TestDisabledParam_ShellCommandLine(t *testing.T) {
	needPrograms(t, "sh", "tr")
	tl, d := newTool(t)
	args := map[string]any{"shell": "echo abc | tr a-c x-z"}
	_, err := tooltest.Run(t, tl, args)
	te := tooltest.ToolError(t, err, tool.CodeDenied)
	if !strings.Contains(te.Hint, "allow_shell") || !strings.Contains(te.Hint, "CLAWBRIDGE_ALLOW_SHELL") {
		t.Errorf("hint does not say how to enable: %q", te.Hint)
	}
	if _, published := tl.InputSchema()["properties"].(map[string]any)["shell"]; published {
		t.Error("the disabled `shell` parameter is published")
	}
	d.Config.Shell.AllowShell = true
	tl = tooltest.Build(t, New, d) // the config is read when the tool is built
	if _, published := tl.InputSchema()["properties"].(map[string]any)["shell"]; !published {
		t.Error("the enabled `shell` parameter is not published")
	}
	o := runOK(t, tl, args)
	if o.Stdout != "xyz\n" {
		t.Errorf("stdout = %q, want xyz", o.Stdout)
	}
	if len(o.Argv) != 3 || o.Argv[0] != "sh" || o.Argv[1] != "-c" {
		t.Errorf("argv = %q", o.Argv)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"shell": "true", "argv": []any{"true"}})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestCallLevel(t *testing.T) {
	needJail(t)
	d := tooltest.Deps(t)
	cfg := d.Config
	root := d.Sandbox.Root()
	tooltest.WriteFile(t, filepath.Join(root, "notes.txt"), []byte("x"))
	if err := os.Mkdir(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "passwd-link")); err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	tests := []struct {
		name string
		args map[string]any
		want tool.Level
	}{
		{"ls", map[string]any{"argv": []any{"ls", "-la"}}, tool.Read},
		{"rm", map[string]any{"argv": []any{"rm", "-rf", "src"}}, tool.High},
		{"ls in subdir", map[string]any{"argv": []any{"ls", "."}, "cwd": "src"}, tool.Read},
		{"cat inside", map[string]any{"argv": []any{"cat", "notes.txt"}}, tool.Read},
		{"cat absolute inside", map[string]any{"argv": []any{"cat", filepath.Join(root, "notes.txt")}}, tool.Read},
		{"grep pattern", map[string]any{"argv": []any{"grep", "-rn", "TODO", "."}}, tool.Read},
		{"wc stdin", map[string]any{"argv": []any{"wc", "-l"}, "stdin": "a\nb\n"}, tool.Read},
		{"system ls path", map[string]any{"argv": []any{"/usr/bin/ls"}}, tool.Read},
		{"env listing", map[string]any{"argv": []any{"env"}}, tool.Read},
		{"printenv", map[string]any{"argv": []any{"printenv", "PATH"}}, tool.Read},
		{"ps aux", map[string]any{"argv": []any{"ps", "aux"}}, tool.Read},
		{"date format", map[string]any{"argv": []any{"date", "+%Y-%m-%d"}}, tool.Read},
		{"date -d", map[string]any{"argv": []any{"date", "-d", "yesterday"}}, tool.Read},
		{"sort", map[string]any{"argv": []any{"sort", "-n", "notes.txt"}}, tool.Read},
		{"find names", map[string]any{"argv": []any{"find", ".", "-name", "*.go"}}, tool.Read},

		// Option parsing no longer decides: these run in the read-only jail,
		// where writing, other files and the system are out of reach
		// (TestJail_* in jail_test.go show that they are).
		{"cat outside", map[string]any{"argv": []any{"cat", "/etc/passwd"}}, tool.Read},
		{"cat ssh key", map[string]any{"argv": []any{"cat", filepath.Join(home, ".ssh", "id_rsa")}}, tool.Read},
		{"cat symlink out", map[string]any{"argv": []any{"cat", "passwd-link"}}, tool.Read},
		{"proc environ", map[string]any{"argv": []any{"cat", "/proc/1/environ"}}, tool.Read},
		{"env runs a command", map[string]any{"argv": []any{"env", "rm", "-rf", "src"}}, tool.Read},
		{"find -delete", map[string]any{"argv": []any{"find", ".", "-delete"}}, tool.Read},
		{"sort compress program", map[string]any{"argv": []any{"sort", "--compress-program=sh"}}, tool.Read},
		{"date set", map[string]any{"argv": []any{"date", "-s", "2020-01-01"}}, tool.Read},
		{"hostname set", map[string]any{"argv": []any{"hostname", "pwned"}}, tool.Read},

		{"shell line", map[string]any{"shell": "ls"}, tool.High},
		{"empty", map[string]any{}, tool.High},
		{"relative program", map[string]any{"argv": []any{"./ls"}}, tool.High},
		{"program elsewhere", map[string]any{"argv": []any{"/tmp/evil/ls"}}, tool.High},
		{"unclean program path", map[string]any{"argv": []any{"/usr/bin/../../tmp/ls"}}, tool.High},
		{"cwd outside", map[string]any{"argv": []any{"ls"}, "cwd": "/etc"}, tool.High},
		{"cwd dotdot", map[string]any{"argv": []any{"ls"}, "cwd": "../.."}, tool.High},
		{"not in list", map[string]any{"argv": []any{"python3", "-c", "print(1)"}}, tool.High},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CallLevel(cfg, cfg.Workspace, tool.Args(tc.args)); got != tc.want {
				t.Errorf("CallLevel(%v) = %s, want %s", tc.args, got, tc.want)
			}
		})
	}
	// The list comes from config.
	cfg2 := *cfg
	cfg2.Shell.ReadOnlyPrograms = []string{"cat"}
	if got := CallLevel(&cfg2, cfg2.Workspace, tool.Args{"argv": []any{"ls"}}); got != tool.High {
		t.Errorf("ls with a list without it = %s, want high", got)
	}
	if got := CallLevel(nil, nil, tool.Args{"argv": []any{"ls"}}); got != tool.High {
		t.Errorf("nil config = %s, want high", got)
	}
}

func TestDeclaredLevel(t *testing.T) {
	needJail(t)
	tl, _ := newTool(t)
	if tl.MaxLevel() != tool.High || tl.MultiAction() {
		t.Errorf("level=%s multi=%v, want a single high action", tl.MaxLevel(), tl.MultiAction())
	}
	s := tl.InputSchema()
	props := s["properties"].(map[string]any)
	for _, p := range []string{"argv", "cwd", "timeout_seconds", "stdin"} { // `shell` only when allowed: TestShellCommandLine
		if _, ok := props[p]; !ok {
			t.Errorf("schema lacks %s", p)
		}
	}
	if _, ok := props["action"]; ok {
		t.Error("single-action tool must not have an action parameter")
	}
	// The tool hands CallLevel to the pipeline through Tool.CallLevel.
	for argv, want := range map[string]tool.Level{"ls": tool.Read, "rm": tool.High} {
		c, err := tl.Prepare(map[string]any{"argv": []any{argv, "x"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := tl.LevelOf(c); got != want {
			t.Errorf("LevelOf(%s) = %s, want %s", argv, got, want)
		}
	}
}

func BenchmarkEcho(b *testing.B) {
	d := tooltest.Deps(b)
	tl := tooltest.Build(b, New, d)
	for b.Loop() {
		if _, err := tooltest.Run(b, tl, map[string]any{"argv": []any{"echo", "x"}}); err != nil {
			b.Fatal(err)
		}
	}
}
