package shell

import (
	"github.com/clawbridge/clawbridge/tools/tooltest"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// needJail skips (or in CI fails) when the jail cannot run here.
func needJail(t *testing.T) {
	t.Helper()
	if err := jail.Check(); err != nil {
		tooltest.Missing(t, "the jail cannot run here: %v", err)
	}
}

// runRead runs a call that must be read-level, so in the jail.
func runRead(t *testing.T, tl tool.Tool, d *tool.Deps, args map[string]any) *output {
	t.Helper()
	if lvl := CallLevel(d.Config, d.Sandbox.Roots(), tool.Args(args)); lvl != tool.Read {
		t.Fatalf("%v: level %s, want read", args, lvl)
	}
	o := runOK(t, tl, args)
	if !o.Jailed {
		t.Fatalf("%v did not run in the jail", args)
	}
	return o
}

// plantSecret writes a secret file outside the workspace and returns its
// path and content.
func plantSecret(t *testing.T) (string, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret.txt")
	const s = "TOPSECRET-outside-workspace-31337"
	if err := os.WriteFile(p, []byte(s+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, s
}

func noLeak(t *testing.T, o *output, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(o.Stdout, s) || strings.Contains(o.Stderr, s) {
			t.Errorf("%q leaked:\nstdout %s\nstderr %s", s, o.Stdout, o.Stderr)
		}
	}
}

func listWorkspace(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err == nil && p != root {
			names = append(names, strings.TrimPrefix(p, root+"/"))
		}
		return nil
	})
	return names
}

// TestJail_CompressProgramCannotEscape: `sort --compress-program=sh` runs
// the data sort spills as a shell script. It runs (the marker on stderr
// proves it), but in the jail: it cannot create files in the workspace or
// next to the secret, nor read the secret.
func TestJail_CompressProgramCannotEscape(t *testing.T) {
	needPrograms(t, "sort", "sh")
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	os.WriteFile(filepath.Join(root, "keep.txt"), []byte("keep\n"), 0o644)
	secret, content := plantSecret(t)
	outsideDir := filepath.Dir(secret)
	script := strings.Join([]string{
		"echo RAN-IN-JAIL >&2",
		"touch " + filepath.Join(root, "pwned"),
		"echo x > " + filepath.Join(root, "keep.txt"),
		"touch " + filepath.Join(outsideDir, "pwned"),
		"cat " + secret + " >&2",
		"rm -f " + filepath.Join(root, "keep.txt"),
	}, "; ") + "\n"
	for _, variant := range [][]any{
		{"sort", "-S", "1k", "--compress-program=sh"},
		{"sort", "--buffer-size=1k", "--compress-program", "sh", "-T", "/tmp"},
		{"sort", "-S1k", "--compress-prog=/bin/sh", "-"},
	} {
		t.Run(strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(strings.Join(toStrings(variant), " "), "/", "_"), " ")), "_"), func(t *testing.T) {
			o := runRead(t, tl, d, map[string]any{"argv": variant, "stdin": strings.Repeat(script, 400)})
			if !strings.Contains(o.Stderr, "RAN-IN-JAIL") {
				t.Errorf("the compressor did not run (stderr %q): the test would prove nothing", o.Stderr)
			}
			noLeak(t, o, content)
			if names := listWorkspace(t, root); len(names) != 1 || names[0] != "keep.txt" {
				t.Errorf("workspace changed: %v", names)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "keep.txt")); string(b) != "keep\n" {
				t.Errorf("keep.txt = %q", b)
			}
			if _, err := os.Stat(filepath.Join(outsideDir, "pwned")); err == nil {
				t.Error("a file was created outside the workspace")
			}
		})
	}
}

func toStrings(a []any) []string {
	out := make([]string, len(a))
	for i, v := range a {
		out[i] = v.(string)
	}
	return out
}

// TestJail_FileListsCannotReadOutside: programs that take file names on
// stdin (sort --files0-from=-, file -f -, du/wc --files0-from) cannot read a
// file outside the workspace, nor the server's /proc/<pid>/environ.
func TestJail_FileListsCannotReadOutside(t *testing.T) {
	needPrograms(t, "sort", "file", "wc")
	needJail(t)
	const envSecret = "server-env-secret-8675309"
	t.Setenv("CLAWBRIDGE_JAIL_TEST_SECRET", envSecret)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	secret, content := plantSecret(t)
	environ := "/proc/" + strconv.Itoa(os.Getpid()) + "/environ"
	inside := filepath.Join(root, "inside.txt")
	os.WriteFile(inside, []byte("INSIDE-visible\n"), 0o644)
	// A magic file that prints a file's first bytes, so `file` would show
	// the secret if it could open it; the inside file shows it works.
	os.WriteFile(filepath.Join(root, "magic"), []byte("0\tstring\tx\tLEAK:%s\n"), 0o644)
	names := []string{secret, environ, "/proc/1/environ", "/proc/self/../" + strconv.Itoa(os.Getpid()) + "/environ", "/etc/shadow", inside}

	o := runRead(t, tl, d, map[string]any{"argv": []any{"sort", "--files0-from=-"}, "stdin": strings.Join(names, "\x00") + "\x00"})
	noLeak(t, o, content, envSecret)
	// Positive control: the same call on the workspace file reads it.
	o = runRead(t, tl, d, map[string]any{"argv": []any{"sort", "--files0-from=-"}, "stdin": inside + "\x00"})
	if !strings.Contains(o.Stdout, "INSIDE-visible") {
		t.Errorf("sort did not read the workspace file: %q %q", o.Stdout, o.Stderr)
	}

	o = runRead(t, tl, d, map[string]any{"argv": []any{"file", "-m", "magic", "-f", "-"}, "stdin": strings.Join(names, "\n") + "\n"})
	noLeak(t, o, content, envSecret)
	if !strings.Contains(o.Stdout, "LEAK:INSIDE-visible") {
		t.Errorf("the magic file did not work on the workspace file: %q %q", o.Stdout, o.Stderr)
	}

	for _, argv := range [][]any{
		{"wc", "-c", "--files0-from=-"},
		{"cat", secret, environ},
		{"head", "-c", "4096", environ},
		{"grep", "-a", "SECRET", environ, "/proc/1/environ", secret},
	} {
		o := runRead(t, tl, d, map[string]any{"argv": argv, "stdin": strings.Join(names, "\x00") + "\x00"})
		noLeak(t, o, content, envSecret)
	}
}

// TestJail_SymlinksOutNotFollowed: grep -R, diff -r, cat and find -L do not
// reach a directory outside the workspace through a link planted inside.
func TestJail_SymlinksOutNotFollowed(t *testing.T) {
	needPrograms(t, "grep", "diff")
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	secret, content := plantSecret(t)
	os.Mkdir(filepath.Join(root, "a"), 0o755)
	os.Mkdir(filepath.Join(root, "b"), 0o755)
	os.Symlink(filepath.Dir(secret), filepath.Join(root, "a", "out"))
	os.Symlink(secret, filepath.Join(root, "a", "secret-link"))
	os.Symlink("/etc", filepath.Join(root, "a", "etc"))
	for _, argv := range [][]any{
		{"grep", "-R", "TOPSECRET", "."},
		{"grep", "-r", "--dereference-recursive", "TOPSECRET", "a"},
		{"diff", "-r", "a", "b"},
		{"diff", "-r", "--new-file", "a", "b"},
		{"cat", "a/out/secret.txt", "a/secret-link"},
		{"find", "-L", ".", "-name", "secret*"},
		{"ls", "-lR", "a/out/"},
	} {
		o := runRead(t, tl, d, map[string]any{"argv": argv})
		noLeak(t, o, content)
	}
}

// TestJail_HostUnchanged: hostname and date cannot change the host.
func TestJail_HostUnchanged(t *testing.T) {
	needPrograms(t, "hostname", "date")
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	os.WriteFile(filepath.Join(root, "name"), []byte("pwned-by-file\n"), 0o644)
	before, _ := os.Hostname()
	for _, argv := range [][]any{
		{"hostname", "pwned-host"},
		{"hostname", "--fi=name"},
		{"hostname", "--file", "name"},
		{"hostname", "-F", "name"},
		{"hostname", "-b", "pwned-boot"},
		{"date", "-s", "2001-02-03 04:05:06"},
		{"date", "--set=2001-02-03"},
		{"date", "020304052001"},
	} {
		runRead(t, tl, d, map[string]any{"argv": argv})
		if after, _ := os.Hostname(); after != before {
			t.Fatalf("%v changed the hostname to %q", argv, after)
		}
		if y := time.Now().Year(); y < 2025 {
			t.Fatalf("%v changed the clock: year %d", argv, y)
		}
	}
}

// TestJail_NoNetwork: a read call cannot connect to a listener on the
// host's loopback, even with a program that can open sockets.
func TestJail_NoNetwork(t *testing.T) {
	needPrograms(t, "bash")
	needJail(t)
	tl, d := newTool(t)
	// bash is allowed as "read" here only to have a program that opens
	// sockets: the jail, not the allow-list, must stop it.
	d.Config.Shell.ReadOnlyPrograms = append(d.Config.Shell.ReadOnlyPrograms, "bash")
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("%s: %v", addr, err)
			continue
		}
		defer ln.Close()
		var hits atomic.Int32
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				hits.Add(1)
				c.Close()
			}
		}()
		host, port, _ := net.SplitHostPort(ln.Addr().String())
		o := runRead(t, tl, d, map[string]any{"argv": []any{"bash", "-c", "exec 3<>/dev/tcp/" + host + "/" + port + " && echo CONNECTED"}})
		time.Sleep(100 * time.Millisecond)
		if strings.Contains(o.Stdout, "CONNECTED") || hits.Load() != 0 {
			t.Errorf("%s: the jail reached the host (%d hits)", addr, hits.Load())
		}
	}
}

// TestJail_DataDirHidden: the server's data dir stays invisible even when
// it lies inside the workspace.
func TestJail_DataDirHidden(t *testing.T) {
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	d.Config.DataDir = filepath.Join(root, ".clawbridge")
	os.MkdirAll(d.Config.DataDir, 0o700)
	os.WriteFile(filepath.Join(d.Config.DataDir, "store.db"), []byte("DATA-DIR-SECRET"), 0o600)
	os.WriteFile(filepath.Join(root, "visible.txt"), []byte("VISIBLE"), 0o644)
	o := runRead(t, tl, d, map[string]any{"argv": []any{"grep", "-r", "-a", "-e", "SECRET", "-e", "VISIBLE", "."}})
	noLeak(t, o, "DATA-DIR-SECRET")
	if !strings.Contains(o.Stdout, "VISIBLE") {
		t.Errorf("workspace not visible: %q %q", o.Stdout, o.Stderr)
	}
	o = runRead(t, tl, d, map[string]any{"argv": []any{"ls", "-A", ".clawbridge"}})
	if strings.Contains(o.Stdout, "store.db") {
		t.Errorf("data dir listed: %q", o.Stdout)
	}
}

// TestJail_WorkspaceReadOnly: read calls cannot change the workspace, with
// whatever options.
func TestJail_WorkspaceReadOnly(t *testing.T) {
	needPrograms(t, "sort", "find", "env", "uniq")
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("b\na\n"), 0o644)
	for _, argv := range [][]any{
		{"sort", "-o", "notes.txt", "notes.txt"},
		{"sort", "--output=made.txt", "notes.txt"},
		{"uniq", "notes.txt", "out.txt"},
		{"find", ".", "-delete"},
		{"find", ".", "-fprint", "list.txt"},
		{"env", "rm", "-f", "notes.txt"},
		{"env", "sh", "-c", "echo x > made2.txt"},
	} {
		runRead(t, tl, d, map[string]any{"argv": argv})
		if names := listWorkspace(t, root); len(names) != 1 || names[0] != "notes.txt" {
			t.Fatalf("%v changed the workspace: %v", argv, names)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(b) != "b\na\n" {
			t.Fatalf("%v changed notes.txt: %q", argv, b)
		}
	}
}

// TestJail_HighCallsRunOnHost: a confirmed (high) call is not jailed.
func TestJail_HighCallsRunOnHost(t *testing.T) {
	needPrograms(t, "touch")
	tl, d := newTool(t)
	o := runOK(t, tl, map[string]any{"argv": []any{"touch", "made.txt"}})
	if o.Jailed || o.ExitCode != 0 {
		t.Fatalf("jailed=%v exit=%d %s", o.Jailed, o.ExitCode, o.Stderr)
	}
	if _, err := os.Stat(filepath.Join(d.Sandbox.Root(), "made.txt")); err != nil {
		t.Fatal(err)
	}
}

// TestJail_NarrowedRootsOnly: when the client's MCP roots narrow the
// workspace to a subfolder, a read call sees only that folder: a sibling of
// it in the configured root is neither a cwd that counts as read nor visible
// inside the jail.
func TestJail_NarrowedRootsOnly(t *testing.T) {
	needJail(t)
	tl, d := newTool(t)
	root := d.Sandbox.Root()
	project, sibling := filepath.Join(root, "project"), filepath.Join(root, "private")
	for _, dir := range []string{project, sibling} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sibling, "notes.txt"), []byte("sibling-secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Sandbox.ApplyClientRoots([]string{project}, false); err != nil {
		t.Fatal(err)
	}
	if lvl := CallLevel(d.Config, d.Sandbox.Roots(), tool.Args{"argv": []any{"ls"}, "cwd": sibling}); lvl != tool.High {
		t.Errorf("cwd outside the narrowed workspace: level %s, want high", lvl)
	}
	out := runRead(t, tl, d, map[string]any{"argv": []any{"cat", filepath.Join(sibling, "notes.txt")}})
	if strings.Contains(out.Stdout, "sibling-secret") || out.ExitCode == 0 {
		t.Fatalf("a read call saw a folder outside the narrowed workspace: %+v", out)
	}
}
