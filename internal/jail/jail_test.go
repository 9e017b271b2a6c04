package jail

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/testneed"
)

func needJail(t *testing.T) {
	t.Helper()
	if err := Check(); err != nil {
		testneed.Missing(t, "the jail cannot run here: %v", err)
	}
}

func run(t *testing.T, s Spec) *Result {
	t.Helper()
	if s.Timeout == 0 {
		s.Timeout = 30 * time.Second
	}
	r, err := Run(t.Context(), s)
	if err != nil {
		t.Fatalf("run %q: %v", s.Argv, err)
	}
	return r
}

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

func TestJail_Basics(t *testing.T) {
	needJail(t)
	t.Setenv("CLAWBRIDGE_TEST_SECRET", "server-secret-789")
	r := run(t, Spec{Argv: sh(`echo out; echo err >&2; cat; env; pwd; id -u; hostname; exit 3`), Env: []string{"LANG=C.UTF-8"}, Stdin: strings.NewReader("from-stdin\n")})
	if r.ExitCode != 3 || r.Signal != "" || r.TimedOut {
		t.Fatalf("exit=%d signal=%q timed_out=%v stderr=%q", r.ExitCode, r.Signal, r.TimedOut, r.Stderr)
	}
	for _, want := range []string{"out\n", "from-stdin\n", "LANG=C.UTF-8", "HOME=" + jailHome, "PATH=/usr/bin:/bin", jailHome + "\n", "jail\n"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.Stdout)
		}
	}
	if strings.Contains(r.Stdout, "server-secret-789") || strings.Contains(r.Stdout, "CLAWBRIDGE_TEST_SECRET") {
		t.Errorf("the server's environment reached the jail:\n%s", r.Stdout)
	}
	if r.Stderr != "err\n" {
		t.Errorf("stderr = %q", r.Stderr)
	}
}

// TestJail_SystemView: only /usr, the usrmerge links and a few /etc files
// are visible; host secrets and home directories are not.
func TestJail_SystemView(t *testing.T) {
	needJail(t)
	r := run(t, Spec{Argv: sh(`for p in /etc/shadow /root /home /var/lib /var/log /var/spool /var/mail /var/tmp /var/backups /srv /opt /work /etc/hostname /etc/ssh; do [ -e $p ] && echo "VISIBLE $p"; done; cat /etc/passwd; ls /; touch /usr/x 2>/dev/null && echo WROTE-USR; echo ok`)})
	if strings.Contains(r.Stdout, "VISIBLE") || strings.Contains(r.Stdout, "WROTE") || !strings.HasSuffix(r.Stdout, "ok\n") {
		t.Errorf("system view too wide:\n%s%s", r.Stdout, r.Stderr)
	}
	if strings.Count(r.Stdout, ":x:") != 1 {
		t.Errorf("/etc/passwd is not the jail's own:\n%s", r.Stdout)
	}
}

func TestJail_Binds(t *testing.T) {
	needJail(t)
	in, out, data := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "ws")
	os.WriteFile(filepath.Join(in, "a.txt"), []byte("input"), 0o600)
	os.MkdirAll(filepath.Join(data, "data"), 0o700)
	os.WriteFile(filepath.Join(data, "data", "secret.db"), []byte("data-dir-secret"), 0o600)
	os.WriteFile(filepath.Join(data, "notes.txt"), []byte("notes"), 0o600)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("outside-secret"), 0o600)
	r := run(t, Spec{
		Argv: sh(`cat /in/a.txt; echo; touch /in/new 2>/dev/null && echo WROTE-IN; echo made > /out/b.txt && echo wrote-out;
cat ` + filepath.Join(data, "notes.txt") + `; echo; cat ` + filepath.Join(data, "data", "secret.db") + ` 2>&1; echo LS:$(ls -A ` + filepath.Join(data, "data") + `); cat ` + filepath.Join(outside, "secret") + ` 2>&1; touch ` + filepath.Join(data, "data", "x") + ` 2>/dev/null && echo WROTE-HIDE; true`),
		Binds:     []Bind{{Source: in, Target: "/in"}, {Source: out, Target: "/out", Writable: true}, {Source: data, Target: data}},
		Protected: []string{filepath.Join(data, "data")},
	})
	if !strings.Contains(r.Stdout, "input") || !strings.Contains(r.Stdout, "wrote-out") || !strings.Contains(r.Stdout, "notes") {
		t.Errorf("binds not visible:\n%s%s", r.Stdout, r.Stderr)
	}
	for _, leak := range []string{"WROTE", "data-dir-secret", "LS:secret.db", "outside-secret"} {
		if strings.Contains(r.Stdout, leak) {
			t.Errorf("jail leaked %q:\n%s", leak, r.Stdout)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "b.txt")); string(b) != "made\n" {
		t.Errorf("writable bind: %q", b)
	}
	if _, err := os.Stat(filepath.Join(in, "new")); err == nil {
		t.Error("read-only bind was written")
	}
	// The protected path itself, or a path inside it, cannot be bound.
	for _, src := range []string{filepath.Join(data, "data"), filepath.Join(data, "data", "secret.db")} {
		_, err := Run(t.Context(), Spec{Argv: []string{"true"}, Binds: []Bind{{Source: src, Target: "/x"}}, Protected: []string{filepath.Join(data, "data")}})
		if err == nil || !strings.Contains(err.Error(), "protected") {
			t.Errorf("binding %s: err = %v", src, err)
		}
	}
	// A symlink to the protected dir is resolved before the check.
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(filepath.Join(data, "data"), link)
	if _, err := Run(t.Context(), Spec{Argv: []string{"true"}, Binds: []Bind{{Source: link, Target: "/x"}}, Protected: []string{filepath.Join(data, "data")}}); err == nil {
		t.Error("a symlink to the protected dir was bound")
	}
}

// TestJail_NoNetwork: the host's loopback (and everything else) is out of
// reach.
func TestJail_NoNetwork(t *testing.T) {
	needJail(t)
	for _, network := range []string{"tcp4", "tcp6"} {
		addr := map[string]string{"tcp4": "127.0.0.1:0", "tcp6": "[::1]:0"}[network]
		ln, err := net.Listen(network, addr)
		if err != nil {
			t.Logf("%s: %v", network, err)
			continue
		}
		defer ln.Close()
		var mu sync.Mutex
		hits := 0
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				hits++
				mu.Unlock()
				c.Close()
			}
		}()
		host, port, _ := net.SplitHostPort(ln.Addr().String())
		r := run(t, Spec{Argv: []string{"bash", "-c", `exec 3<>/dev/tcp/` + host + `/` + port + ` && echo CONNECTED; ip -o addr 2>/dev/null || cat /proc/net/dev`}})
		if strings.Contains(r.Stdout, "CONNECTED") {
			t.Errorf("%s: the jail reached the host listener", network)
		}
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		if hits != 0 {
			t.Errorf("%s: %d connections reached the host listener", network, hits)
		}
		mu.Unlock()
		if strings.Contains(r.Stdout, "eth") {
			t.Errorf("the jail has a network interface:\n%s", r.Stdout)
		}
	}
}

// TestJail_ProcIsolated: /proc shows the jail's processes only, so the
// server's /proc/<pid>/environ is out of reach.
func TestJail_ProcIsolated(t *testing.T) {
	needJail(t)
	t.Setenv("CLAWBRIDGE_PROC_SECRET", "proc-secret-456")
	pid := strconv.Itoa(os.Getpid())
	r := run(t, Spec{Argv: sh(`cat /proc/` + pid + `/environ 2>/dev/null; cat /proc/1/environ 2>/dev/null; echo; ls /proc | grep -c '^[0-9]'`)})
	if strings.Contains(r.Stdout, "proc-secret-456") {
		t.Fatal("the server's environment is readable through /proc")
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(r.Stdout[strings.LastIndexByte(strings.TrimSpace(r.Stdout), '\n')+1:])); n == 0 || n > 6 {
		t.Errorf("the jail sees %d processes:\n%s", n, r.Stdout)
	}
}

// TestJail_ProcessLimit: a bounded loop that tries to start 200 sleepers
// under a limit of 32 must fail to start them all.
func TestJail_ProcessLimit(t *testing.T) {
	needJail(t)
	r := run(t, Spec{Argv: sh(`n=0; while [ $n -lt 200 ]; do sleep 20 & n=$((n+1)); echo $n; done`), Limits: Limits{Processes: 32}, Timeout: 10 * time.Second})
	lines := strings.Fields(r.Stdout)
	started := 0
	if len(lines) > 0 {
		started, _ = strconv.Atoi(lines[len(lines)-1])
	}
	if started >= 200 || started > 40 {
		t.Fatalf("started %d sleepers under a limit of 32 (exit %d, stderr %q)", started, r.ExitCode, r.Stderr)
	}
	if r.ExitCode == 0 {
		t.Errorf("the loop did not fail (started %d)", started)
	}
}

func TestJail_FileSizeLimit(t *testing.T) {
	needJail(t)
	out := t.TempDir()
	r := run(t, Spec{Argv: sh(`head -c 3000000 /dev/zero > /out/big`), Binds: []Bind{{Source: out, Target: "/out", Writable: true}}, Limits: Limits{FileSizeMB: 1}})
	fi, err := os.Stat(filepath.Join(out, "big"))
	if err != nil || fi.Size() > 1<<20 || r.ExitCode == 0 {
		t.Fatalf("file size limit did not hold: exit %d, %v, size %d", r.ExitCode, err, fi.Size())
	}
}

func TestJail_MemoryLimit(t *testing.T) {
	needJail(t)
	// awk doubles a string to 256 MB: not under a 64 MB address space.
	grow := func(n int) []string {
		return []string{"awk", "BEGIN{s=\"x\"; while (length(s) < " + strconv.Itoa(n) + ") s = s s; print \"grew\"}"}
	}
	r := run(t, Spec{Argv: grow(200_000_000), Limits: Limits{MemoryMB: 64}})
	if strings.Contains(r.Stdout, "grew") || r.ExitCode == 0 {
		t.Fatalf("awk got 256 MB under a 64 MB limit:\n%s%s", r.Stdout, r.Stderr)
	}
	// A small string with room succeeds, so it is the limit that bit.
	r = run(t, Spec{Argv: grow(1_000_000), Limits: Limits{MemoryMB: 64}})
	if !strings.Contains(r.Stdout, "grew") {
		t.Fatalf("small sort failed:\n%s%s", r.Stdout, r.Stderr)
	}
}

func TestJail_CPULimit(t *testing.T) {
	needJail(t)
	start := time.Now()
	r := run(t, Spec{Argv: sh(`while :; do :; done`), Limits: Limits{CPUSeconds: 1}, Timeout: 30 * time.Second})
	if r.TimedOut || r.Signal == "" || time.Since(start) > 15*time.Second {
		t.Fatalf("CPU limit did not kill the loop: exit %d signal %q timed_out %v after %s", r.ExitCode, r.Signal, r.TimedOut, time.Since(start))
	}
}

// TestJail_TimeoutKillsTree: the wall-clock timeout kills the program and
// its children, including one that started its own session.
func TestJail_TimeoutKillsTree(t *testing.T) {
	needJail(t)
	out := t.TempDir()
	start := time.Now()
	r := run(t, Spec{Argv: sh(`setsid sh -c 'sleep 3; echo alive > /out/late' & sleep 30`), Binds: []Bind{{Source: out, Target: "/out", Writable: true}}, Timeout: time.Second})
	if !r.TimedOut || time.Since(start) > 15*time.Second {
		t.Fatalf("timed_out=%v after %s", r.TimedOut, time.Since(start))
	}
	time.Sleep(4 * time.Second)
	if _, err := os.Stat(filepath.Join(out, "late")); err == nil {
		t.Fatal("a child survived the timeout")
	}
	// Cancellation works the same way and is reported as an error.
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, Spec{Argv: []string{"sleep", "30"}}); err == nil {
		t.Fatal("cancelled run returned no error")
	}
}

func TestJail_OutputCapAndLines(t *testing.T) {
	needJail(t)
	var mu sync.Mutex
	var lines []string
	r := run(t, Spec{Argv: sh(`seq 1 1000; echo progress 50% >&2`), StdoutCap: 100, OnLine: func(stream, l string) {
		mu.Lock()
		lines = append(lines, stream+":"+l)
		mu.Unlock()
	}})
	if !r.StdoutTruncated || len(r.Stdout) != 100 || r.StdoutBytes != 3893 || r.StderrTruncated {
		t.Errorf("cap: truncated=%v len=%d bytes=%d", r.StdoutTruncated, len(r.Stdout), r.StdoutBytes)
	}
	mu.Lock()
	defer mu.Unlock()
	// The two streams are read on their own goroutines: only each one's
	// order is given, so the first stdout line is looked for, not line 0.
	first := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "stdout:") {
			first = l
			break
		}
	}
	if len(lines) != 1001 || first != "stdout:1" {
		t.Errorf("got %d lines, first stdout %q", len(lines), first)
	}
	found := false
	for _, l := range lines {
		found = found || l == "stderr:progress 50%"
	}
	if !found {
		t.Error("stderr progress line not reported")
	}
}

func TestJail_InvalidSpec(t *testing.T) {
	needJail(t)
	for name, s := range map[string]Spec{
		"no argv":         {},
		"relative source": {Argv: []string{"true"}, Binds: []Bind{{Source: "rel", Target: "/x"}}},
		"bind root":       {Argv: []string{"true"}, Binds: []Bind{{Source: "/", Target: "/host"}}},
		"bind proc":       {Argv: []string{"true"}, Binds: []Bind{{Source: "/proc/self", Target: "/p"}}},
		"target usr":      {Argv: []string{"true"}, Binds: []Bind{{Source: t.TempDir(), Target: "/usr/bin"}}},
		"unclean target":  {Argv: []string{"true"}, Binds: []Bind{{Source: t.TempDir(), Target: "/a/../b"}}},
		"missing source":  {Argv: []string{"true"}, Binds: []Bind{{Source: "/nonexistent-clawbridge", Target: "/x"}}},
		"nul":             {Argv: []string{"echo", "a\x00b"}},
	} {
		if _, err := Run(t.Context(), s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestJail_RefusesWithoutBwrap: without bwrap the jail says what to install
// and runs nothing.
func TestJail_RefusesWithoutBwrap(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Check()
	if err == nil || !strings.Contains(err.Error(), "apt-get install bubblewrap") {
		t.Fatalf("Check without bwrap: %v", err)
	}
	if _, err := Run(t.Context(), Spec{Argv: []string{"true"}}); err == nil || !strings.Contains(err.Error(), "bubblewrap") {
		t.Fatalf("Run without bwrap: %v", err)
	}
}

func TestUnconfined(t *testing.T) {
	r, err := RunUnconfined(t.Context(), Spec{Argv: []string{"sh", "-c", "echo $X; pwd"}, Env: []string{"X=1"}, Dir: "/usr"})
	if err != nil || r.Stdout != "1\n/usr\n" {
		t.Fatalf("%v %q", err, r.Stdout)
	}
}

// TestJail_RootReadOnly: the root bwrap builds cannot be written (not /,
// not /etc, not /home); the private /tmp and a writable bind can.
func TestJail_RootReadOnly(t *testing.T) {
	needJail(t)
	dir := t.TempDir()
	r := run(t, Spec{Argv: sh(`for p in /x /etc/x /home; do (mkdir -p $p/y || echo > $p) 2>/dev/null && echo WROTE $p; done; echo ok > /tmp/t && echo ok > /w/t && echo writable`),
		Binds: []Bind{{Source: dir, Target: "/w", Writable: true}}})
	if strings.Contains(r.Stdout, "WROTE") || !strings.Contains(r.Stdout, "writable") {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// TestJail_DevCapped: /dev is not a place to park RAM. Before, /dev and
// /dev/shm were tmpfs mounts of half the host's memory, outside every cap;
// now /dev is read-only (its devices still work) and /dev/shm is a small
// tmpfs.
func TestJail_DevCapped(t *testing.T) {
	needJail(t)
	r := run(t, Spec{Argv: sh(`head -c 300000000 /dev/zero > /dev/shm/fill 2>/dev/null; echo shm=$(stat -c %s /dev/shm/fill)
head -c 1000000 /dev/zero > /dev/fill 2>/dev/null && echo WROTE-DEV; mkdir /dev/d 2>/dev/null && echo WROTE-DEV
echo x > /dev/null && head -c 3 /dev/urandom | wc -c | sed 's/^/urandom=/'
rm /dev/shm/fill; echo small > /dev/shm/sem && cat /dev/shm/sem`)})
	if strings.Contains(r.Stdout, "WROTE-DEV") {
		t.Errorf("/dev is writable:\n%s%s", r.Stdout, r.Stderr)
	}
	var shm int64 = -1
	for _, l := range strings.Fields(r.Stdout) {
		if v, ok := strings.CutPrefix(l, "shm="); ok {
			shm, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	if shm < 0 || shm > shmBytes {
		t.Errorf("/dev/shm took %d bytes, cap %d:\n%s%s", shm, shmBytes, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "urandom=3") || !strings.Contains(r.Stdout, "small\n") {
		t.Errorf("devices or a small /dev/shm file do not work:\n%s%s", r.Stdout, r.Stderr)
	}
	t.Logf("contained: /dev/shm held %d bytes of 300000000", shm)
}

// TestJail_MemoryPerRun: memory_mb holds for the run, not per process: 8
// children each taking 80% of the limit cannot all hold it at once (with a
// limit per process all 8 did, 6.4 times the limit), the kernel's kill is
// reported, and the test process is fine.
func TestJail_MemoryPerRun(t *testing.T) {
	needJail(t)
	if _, err := exec.LookPath("python3"); err != nil {
		testneed.Missing(t, "python3 not installed")
	}
	if !MemoryPerRun() {
		testneed.Missing(t, "no memory cgroup can be made here: memory limits are per process")
	}
	script, err := filepath.Abs("testdata/forkmem.py")
	if err != nil {
		t.Fatal(err)
	}
	const limitMB = 256
	r := run(t, Spec{Argv: []string{"/usr/bin/python3", "/t/forkmem.py", strconv.Itoa(limitMB << 20 * 8 / 10)},
		Binds:  []Bind{{Source: filepath.Dir(script), Target: "/t"}},
		Limits: Limits{MemoryMB: limitMB}, Timeout: 60 * time.Second})
	if !strings.Contains(r.Stdout, "held ") {
		t.Fatalf("no result: exit %d %s\n%s%s", r.ExitCode, r.Signal, r.Stdout, r.Stderr)
	}
	if r.Stdout != "held 0\n" && r.Stdout != "held 1\n" {
		t.Fatalf("%s of 8 children each held %d MB at once under a run limit of %d MB", strings.TrimPrefix(strings.TrimSpace(r.Stdout), "held "), limitMB*8/10, limitMB)
	}
	if !r.OutOfMemory {
		t.Error("the kernel's kill at the memory limit is not reported")
	}
	t.Logf("contained: %s, out of memory reported", strings.TrimSpace(r.Stdout))
}

// TestJail_TmpfsAndExtraFiles: a Tmpfs holds no more than its size; an
// extra file reaches the program as fd 5.
func TestJail_TmpfsAndExtraFiles(t *testing.T) {
	needJail(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	got := make(chan string, 1)
	go func() { b, _ := io.ReadAll(pr); got <- string(b) }()
	r := run(t, Spec{Argv: sh(`head -c 5000000 /dev/zero > /w/fill 2>/dev/null; stat -c %s /w/fill; echo via-fd5 >&5`),
		Tmpfs: []Tmpfs{{Target: "/w", SizeMB: 2}}, ExtraFiles: []*os.File{pw}})
	if n, _ := strconv.Atoi(strings.TrimSpace(r.Stdout)); n == 0 || n > 2<<20 {
		t.Errorf("a 2 MB tmpfs took %q bytes (%s)", r.Stdout, r.Stderr)
	}
	if s := <-got; s != "via-fd5\n" {
		t.Errorf("fd 5: %q", s)
	}
	for _, target := range []string{"/", "/usr/x", "/proc", "rel"} {
		if _, err := Run(t.Context(), Spec{Argv: []string{"true"}, Tmpfs: []Tmpfs{{Target: target, SizeMB: 1}}}); err == nil {
			t.Errorf("tmpfs at %s: no error", target)
		}
	}
}

// TestJail_FilesBoundByTheirCheckedFD: a read-only file is bound by the fd
// opened and checked when the run starts, so the program reads that file;
// a FIFO (or a file swapped for one after its caller's check) is refused
// at once instead of blocking the program that opens it.
func TestJail_FilesBoundByTheirCheckedFD(t *testing.T) {
	needJail(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("checked bytes\n"), 0o644)
	r := run(t, Spec{Argv: []string{"cat", "/in/in.txt"}, Binds: []Bind{{Source: in, Target: "/in/in.txt"}}})
	if r.ExitCode != 0 || r.Stdout != "checked bytes\n" {
		t.Fatalf("bound file: exit %d, %q, %q", r.ExitCode, r.Stdout, r.Stderr)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := Run(t.Context(), Spec{Argv: []string{"cat", "/in/pipe"}, Binds: []Bind{{Source: fifo, Target: "/in/pipe"}}, Timeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO bound: %v after %s", err, time.Since(start))
	}
}
