package pyrunner

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The limit attacks of issue 26: work_mb 50 under a file size limit above
// it, so the quota is what stops the writes.
const quotaLimits = "timeout: 20s\ncpu_seconds: 10\nmemory_mb: 1024\nprocesses: 32\nmax_output_bytes: 4096\nwork_mb: 50\nfile_size_mb: 100"

// writtenUntilRefused writes files of chunk bytes, count of them, until a
// write fails, and prints how many bytes got written.
func writtenUntilRefused(count, chunk int) string {
	return fmt.Sprintf(`total = 0
try:
    for i in range(%d):
        with open(f"f{i}.bin", "wb") as f:
            f.write(b"x" * %d)
        total += %d
except OSError as e:
    print("refused:", e)
print("wrote", total)
`, count, chunk, chunk)
}

// outputsBytes is the size of everything under the workspace's outputs/.
func outputsBytes(t *testing.T, ws string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(filepath.Join(ws, "outputs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// wrote is the count the script printed, -1 without one.
func wrote(stdout string) int64 {
	for _, l := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(l, "wrote "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// TestLimits_WorkDirQuota: 200 files of 1 MB, one file of 80 MB, and 76 MB
// written in one go just before the script exits (after the last look of
// a poller, where 76 MB came back against 50): the work dir cannot hold
// more than work_mb while the run goes on, the run is reported as over its
// quota, and nothing of it comes back.
func TestLimits_WorkDirQuota(t *testing.T) {
	r, d := newRunner(t, quotaLimits)
	const capBytes = 50 << 20
	for name, args := range map[string]map[string]any{
		"200 files of 1 MB": {"code": writtenUntilRefused(200, 1<<20)},
		"one 80 MB file":    {"code": writtenUntilRefused(1, 80<<20)},
		"76 MB at the exit": {"code": "open('last.bin', 'wb').write(b'x' * (76 << 20))\n"},
		"node, one 80 MB":   {"language": "javascript", "code": "require('fs').writeFileSync('big.bin', Buffer.alloc(80 << 20, 120))\n"},
		"node, 200 of 1 MB": {"language": "javascript", "code": "const fs = require('fs')\nfor (let i = 0; i < 200; i++) fs.writeFileSync('f' + i, Buffer.alloc(1 << 20, 120))\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if args["language"] == "javascript" {
				tooltest.NeedProgram(t, "node")
			}
			o, res := run(t, r, args)
			if n := wrote(o.Stdout); n > capBytes+(1<<20) {
				t.Errorf("the script wrote %d bytes into a work dir of %d", n, capBytes)
			}
			if !hasLimit(o.LimitsHit, "work_dir") || len(o.Files) != 0 {
				t.Errorf("limits %v, files %v, summary %q", o.LimitsHit, o.Files, res.Summary)
			}
			if n := outputsBytes(t, d.Sandbox.Root()); n > 0 {
				t.Errorf("%d bytes came back", n)
			}
			if !strings.Contains(res.Summary, "outgrew 50 MB") {
				t.Errorf("summary: %s", res.Summary)
			}
			t.Logf("contained: %s (%s)", res.Summary, strings.TrimSpace(o.Stdout))
		})
	}
}

// TestLimits_WorkDirQuotaUnsandboxed: where the config allows runs on the
// host, 76 MB written just before the exit is caught after the run.
func TestLimits_WorkDirQuotaUnsandboxed(t *testing.T) {
	r, d := newRunner(t, quotaLimits)
	r.jailCheck = func() error { return jail.ErrUnavailable }
	r.cfg.AllowUnsandboxed = true
	o, res := run(t, r, map[string]any{"code": "open('last.bin', 'wb').write(b'x' * (76 << 20))\n"})
	if o.Sandboxed || !hasLimit(o.LimitsHit, "work_dir") || len(o.Files) != 0 || outputsBytes(t, d.Sandbox.Root()) > 0 {
		t.Fatalf("limits %v, files %v, summary %q", o.LimitsHit, o.Files, res.Summary)
	}
	t.Logf("contained: %s", res.Summary)
}

// TestLimits_WorkDirBelowQuota: a run under the quota gets its files, the
// unchanged inputs stay out, a changed input and both names of a hard link
// come back, a symlink and a FIFO do not.
func TestLimits_WorkDirBelowQuota(t *testing.T) {
	r, d := newRunner(t, quotaLimits)
	ws := d.Sandbox.Root()
	tooltest.WriteFile(t, filepath.Join(ws, "in", "keep.txt"), []byte("keep"))
	tooltest.WriteFile(t, filepath.Join(ws, "in", "edit.txt"), []byte("old"))
	o, res := run(t, r, map[string]any{"files": []any{"in/keep.txt", "in/edit.txt"}, "code": `import os
assert open("keep.txt").read() == "keep"
open("edit.txt", "w").write("new text")
os.makedirs("deep/er")
open("deep/er/made.bin", "wb").write(b"y" * (20 << 20))
os.symlink("/etc/passwd", "link")
os.mkfifo("pipe")
os.link("deep/er/made.bin", "hard.bin")
`})
	if o.ExitCode != 0 || len(o.LimitsHit) != 0 {
		t.Fatalf("%+v %s", o, res.Summary)
	}
	got := map[string]int64{}
	for _, f := range o.Files {
		fi, err := os.Lstat(filepath.Join(ws, f))
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s: %v %v", f, err, fi)
		}
		rel, _ := filepath.Rel(o.OutputDir, f)
		got[rel] = fi.Size()
	}
	if len(got) != 3 || got["edit.txt"] != 8 || got["deep/er/made.bin"] != 20<<20 || got["hard.bin"] != 20<<20 {
		t.Fatalf("files: %v", got)
	}
	t.Logf("%s", res.Summary)
}

// TestLimits_DevShm: /dev/shm is no way around the caps: filling it stops
// at its size, and multiprocessing's semaphores still work there.
func TestLimits_DevShm(t *testing.T) {
	r, _ := newRunner(t, quotaLimits)
	o, res := run(t, r, map[string]any{"code": `import multiprocessing, os
lock = multiprocessing.Lock()
with lock:
    print("lock ok")
total = 0
try:
    with open("/dev/shm/fill", "wb") as f:
        for _ in range(300):
            f.write(b"x" * (1 << 20))
            f.flush()
            total += 1 << 20
except OSError as e:
    print("refused:", e)
print("wrote", total)
`})
	if n := wrote(o.Stdout); n < 0 || n > 64<<20 || !strings.Contains(o.Stdout, "lock ok") {
		t.Fatalf("%+v", o)
	}
	t.Logf("contained: %s (%s)", res.Summary, strings.ReplaceAll(strings.TrimSpace(o.Stdout), "\n", "; "))
}

// TestLimits_MemoryPerRun: 8 children each taking 80% of memory_mb cannot
// hold it at once; the run says it ran out of memory.
func TestLimits_MemoryPerRun(t *testing.T) {
	if !jail.MemoryPerRun() {
		tooltest.Missing(t, "no memory cgroup can be made here: memory_mb is per process")
	}
	r, _ := newRunner(t, "timeout: 30s\ncpu_seconds: 20\nmemory_mb: 256\nprocesses: 32\nwork_mb: 50")
	script, err := os.ReadFile("../../internal/jail/testdata/forkmem.py") // the jail test's own attack
	if err != nil {
		t.Fatal(err)
	}
	o, res := run(t, r, map[string]any{"code": string(script), "args": []any{strconv.Itoa(256 << 20 * 8 / 10)}})
	if o.Stdout != "held 0\n" && o.Stdout != "held 1\n" {
		t.Fatalf("%s of 8 children held 80%% of memory_mb at once: %+v", strings.TrimSpace(o.Stdout), o)
	}
	if !hasLimit(o.LimitsHit, "memory") || !strings.Contains(res.Summary, "out of memory") {
		t.Errorf("limits %v, summary %q", o.LimitsHit, res.Summary)
	}
	t.Logf("contained: %s (%s)", res.Summary, strings.TrimSpace(o.Stdout))
}

// TestLimits_PathNotRegular: a FIFO or an oversized file as path (or in
// files) is a clear error, at once, and nothing runs.
func TestLimits_PathNotRegular(t *testing.T) {
	r, d := newRunner(t, quotaLimits+"\nmax_input_mb: 100")
	ws := d.Sandbox.Root()
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(ws, "big.py"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(120 << 20)
	big.Close()
	for name, args := range map[string]map[string]any{
		"fifo path":  {"path": "fifo.py"},
		"big path":   {"path": "big.py"},
		"fifo files": {"code": "print(1)", "files": []any{"fifo.py"}},
		"big files":  {"code": "print(1)", "files": []any{"big.py"}},
	} {
		args["action"] = "run"
		_, err := tooltest.Run(t, r.tool(), args)
		e, ok := tool.AsError(err)
		if !ok {
			t.Errorf("%s: want a tool error, got %v", name, err)
			continue
		}
		if !strings.Contains(e.Message, "named pipe") && !strings.Contains(e.Message, "too large") && !strings.Contains(e.Message, "MB") {
			t.Errorf("%s: unclear error %+v", name, e)
		}
		t.Logf("%s: %s", name, e.Message)
	}
	if ents, _ := os.ReadDir(filepath.Join(ws, "outputs")); len(ents) != 0 {
		t.Errorf("a refused call wrote outputs: %v", ents)
	}
}

// TestLimits_ForgedStream: the script writes its own tar into the stream
// that carries the work dir out (through the wrapper's fd in /proc): a
// name outside the work dir and a file far over the quota. Nothing lands
// outside, nothing over the quota comes back.
func TestLimits_ForgedStream(t *testing.T) {
	r, d := newRunner(t, quotaLimits)
	for name, member := range map[string]string{
		"escaping name": `info = tarfile.TarInfo("../../escaped.txt"); info.size = 5; tf.addfile(info, io.BytesIO(b"owned"))`,
		"over quota":    `info = tarfile.TarInfo("huge.bin"); info.size = 200 << 20; tf.addfile(info, Zeros())`,
	} {
		t.Run(name, func(t *testing.T) {
			o, res := run(t, r, map[string]any{"code": `import io, os, tarfile
class Zeros(io.RawIOBase):
    def readinto(self, b):
        b[:] = bytes(len(b))
        return len(b)
fds = f"/proc/{os.getppid()}/fd"
fd = next(f for f in os.listdir(fds) if int(f) > 2 and os.readlink(f"{fds}/{f}").startswith("pipe:"))
with open(f"{fds}/{fd}", "wb") as pipe:
    tf = tarfile.open(fileobj=pipe, mode="w|")
    ` + member + `
    tf.close()
print("forged")
`})
			// Written whole, or cut off by the server's refusal.
			if !strings.Contains(o.Stdout, "forged") && !strings.Contains(o.Stderr, "Broken pipe") {
				t.Fatalf("the forgery did not reach the stream: %+v", o)
			}
			if len(o.Files) != 0 || outputsBytes(t, d.Sandbox.Root()) > 0 {
				t.Errorf("files came back: %v", o.Files)
			}
			filepath.WalkDir(filepath.Dir(d.Sandbox.Root()), func(p string, _ fs.DirEntry, _ error) error {
				if filepath.Base(p) == "escaped.txt" {
					t.Errorf("a forged name landed at %s", p)
				}
				return nil
			})
			if _, err := os.Stat(filepath.Join(os.TempDir(), "escaped.txt")); err == nil {
				t.Error("a forged name landed in the temp dir")
			}
			t.Logf("contained: %s", res.Summary)
		})
	}
}
