package pyrunner

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The escape attempts of issue 19: each must be contained, reported, and
// leave no process behind. Limits are small so the suite stays quick.
const escapeLimits = "timeout: 5s\ncpu_seconds: 3\nmemory_mb: 512\nprocesses: 32\nmax_output_bytes: 4096\nwork_mb: 50\nfile_size_mb: 20"

// TestJail_NoNetworkToLoopbackListener: the test's own listener on the
// host's 127.0.0.1 is out of reach.
func TestJail_NoNetworkToLoopbackListener(t *testing.T) {
	r, _ := newRunner(t, escapeLimits)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	o, _ := run(t, r, map[string]any{"code": fmt.Sprintf(`import socket
try:
    socket.create_connection(("127.0.0.1", %d), timeout=2)
    print("CONNECTED")
except OSError as e:
    print("refused:", e)
`, port)})
	select {
	case <-accepted:
		t.Fatal("the jail reached the host's loopback listener")
	case <-time.After(200 * time.Millisecond):
	}
	if strings.Contains(o.Stdout, "CONNECTED") || !strings.Contains(o.Stdout, "refused") {
		t.Fatalf("stdout: %q", o.Stdout)
	}
	t.Logf("contained: %s", strings.TrimSpace(o.Stdout))
}

// TestJail_CannotReadPlantedSecret: a file outside the work dir (outside
// the workspace, and a workspace file not given in files) is not visible.
func TestJail_CannotReadPlantedSecret(t *testing.T) {
	r, d := newRunner(t, escapeLimits)
	const secret = "TOPSECRET-4711"
	outside := filepath.Join(t.TempDir(), "secret.txt")
	inWS := filepath.Join(d.Sandbox.Root(), "private.txt")
	tooltest_write(t, outside, secret)
	tooltest_write(t, inWS, secret)
	tooltest_write(t, filepath.Join(d.Config.DataDir, "db-secret"), secret)
	o, _ := run(t, r, map[string]any{"code": fmt.Sprintf(`for p in [%q, %q, %q, "/etc/shadow", "/root/.bash_history"]:
    try:
        print(open(p).read())
    except OSError as e:
        print("denied:", type(e).__name__)
`, outside, inWS, filepath.Join(d.Config.DataDir, "db-secret"))})
	if strings.Contains(o.Stdout+o.Stderr, secret) {
		t.Fatalf("the secret leaked: %q", o.Stdout)
	}
	if strings.Count(o.Stdout, "denied") != 5 {
		t.Fatalf("stdout: %q", o.Stdout)
	}
	t.Logf("contained: %s", strings.ReplaceAll(strings.TrimSpace(o.Stdout), "\n", "; "))
}

// TestJail_CannotWriteOutsideWorkDir: the host's paths (a temp dir, the
// workspace, /usr) cannot be written; the jail's /tmp is private and gone.
func TestJail_CannotWriteOutsideWorkDir(t *testing.T) {
	r, d := newRunner(t, escapeLimits)
	outside := t.TempDir()
	targets := []string{filepath.Join(outside, "x"), filepath.Join(d.Sandbox.Root(), "x"), "/usr/x", "/etc/x", "/x"}
	var lines []string
	for _, p := range targets {
		lines = append(lines, fmt.Sprintf("%q", p))
	}
	o, _ := run(t, r, map[string]any{"code": `import os
for p in [` + strings.Join(lines, ", ") + `]:
    try:
        open(p, "w").write("pwned")
        print("WROTE", p)
    except OSError as e:
        print("denied:", p, type(e).__name__)
open("/tmp/jail-private-marker", "w").write("x")
`})
	if strings.Contains(o.Stdout, "WROTE") {
		t.Fatalf("wrote outside: %q", o.Stdout)
	}
	for _, p := range append(targets, "/tmp/jail-private-marker") {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists on the host", p)
		}
	}
	t.Logf("contained: %s", strings.ReplaceAll(strings.TrimSpace(o.Stdout), "\n", "; "))
}

// TestJail_ForkBomb: the process limit stops it, the run ends, and no
// process survives it.
func TestJail_ForkBomb(t *testing.T) {
	r, _ := newRunner(t, escapeLimits)
	o, res := run(t, r, map[string]any{"code": "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n", "args": []any{"forkbomb-marker-91"}})
	if !o.TimedOut && !hasLimit(o.LimitsHit, "cpu") {
		t.Fatalf("a fork bomb ended by itself: %+v", o)
	}
	noProcessWith(t, "forkbomb-marker-91")
	t.Logf("contained: %s", res.Summary)

	// A bomb that gives up at the first failed fork reports the limit.
	o, res = run(t, r, map[string]any{"code": "import os\nwhile True:\n    os.fork()\n", "args": []any{"forkbomb-marker-92"}})
	if !hasLimit(o.LimitsHit, "processes") {
		t.Fatalf("limits: %v, stderr %q", o.LimitsHit, o.Stderr)
	}
	noProcessWith(t, "forkbomb-marker-92")
	t.Logf("contained: %s", res.Summary)
}

// TestJail_AllocateFourGiB: the address-space limit refuses it.
func TestJail_AllocateFourGiB(t *testing.T) {
	r, _ := newRunner(t, escapeLimits)
	o, res := run(t, r, map[string]any{"code": "b = bytearray(4 << 30)\nprint('ALLOCATED', len(b))"})
	if strings.Contains(o.Stdout, "ALLOCATED") || !hasLimit(o.LimitsHit, "memory") || o.ExitCode == 0 {
		t.Fatalf("%+v", o)
	}
	if !strings.Contains(res.Summary, "out of memory") {
		t.Errorf("summary: %s", res.Summary)
	}
	t.Logf("contained: %s", res.Summary)
}

// TestJail_InfiniteLoop: a busy loop is stopped by the CPU limit, a
// sleeping one by the wall clock.
func TestJail_InfiniteLoop(t *testing.T) {
	r, _ := newRunner(t, escapeLimits)
	o, res := run(t, r, map[string]any{"code": "while True:\n    pass\n", "args": []any{"loop-marker-93"}})
	if !hasLimit(o.LimitsHit, "cpu") && !o.TimedOut {
		t.Fatalf("%+v", o)
	}
	noProcessWith(t, "loop-marker-93")
	t.Logf("contained: %s", res.Summary)

	start := time.Now()
	o, res = run(t, r, map[string]any{"code": "import time\ntime.sleep(1000)", "timeout_seconds": 2, "args": []any{"loop-marker-94"}})
	if !o.TimedOut || time.Since(start) > 10*time.Second || !strings.Contains(res.Summary, "time limit") {
		t.Fatalf("%+v %s", o, res.Summary)
	}
	noProcessWith(t, "loop-marker-94")
	t.Logf("contained: %s", res.Summary)
}

// TestJail_HundredMBOutput: the output is cut at the cap, the size
// produced is counted and the cut is said.
func TestJail_HundredMBOutput(t *testing.T) {
	// Only the output and work-dir caps are under test: a wall clock long
	// enough that a loaded machine (make test runs packages side by side)
	// still writes the 100 MB before it.
	r, _ := newRunner(t, strings.Replace(escapeLimits, "timeout: 5s", "timeout: 60s", 1))
	o, res := run(t, r, map[string]any{"code": "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(100):\n    sys.stdout.write(chunk)\n"})
	if !o.StdoutTruncated || len(o.Stdout) > 4096 || o.StdoutBytes != 100<<20 || !hasLimit(o.LimitsHit, "output") {
		t.Fatalf("truncated %v, kept %d, counted %d, limits %v", o.StdoutTruncated, len(o.Stdout), o.StdoutBytes, o.LimitsHit)
	}
	if !strings.Contains(res.Summary, "output cut at 4096 bytes") {
		t.Errorf("summary: %s", res.Summary)
	}
	t.Logf("contained: %s", res.Summary)

	// And 100 MB of files: the work dir quota stops it.
	o, res = run(t, r, map[string]any{"code": "import time\nfor i in range(100):\n    open(f'f{i}', 'wb').write(b'x' * (1 << 20))\n    time.sleep(0.01)\n"})
	if !hasLimit(o.LimitsHit, "work_dir") || len(o.Files) != 0 {
		t.Fatalf("work dir quota: %+v", o.LimitsHit)
	}
	t.Logf("contained: %s", res.Summary)
}

// TestJail_ChildLeftRunning: a child (even one in its own session) that
// outlives the script is killed with the run, which ends at once.
func TestJail_ChildLeftRunning(t *testing.T) {
	r, _ := newRunner(t, escapeLimits)
	start := time.Now()
	o, res := run(t, r, map[string]any{"code": `import subprocess, os
subprocess.Popen(["sleep", "1000", "child-marker-95"], start_new_session=True, stdout=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "999", "child-marker-95"])
print("parent done")
`})
	if o.ExitCode != 0 || !strings.Contains(o.Stdout, "parent done") || time.Since(start) > 4*time.Second {
		t.Fatalf("%+v after %s", o, time.Since(start))
	}
	noProcessWith(t, "child-marker-95")
	t.Logf("contained: %s in %s, no child left", res.Summary, time.Since(start).Round(time.Millisecond))
}

func tooltest_write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
