// Package jail runs an external program on user data inside a bubblewrap
// (bwrap) sandbox: new user, PID, IPC, UTS, network and (where the kernel
// has it) cgroup namespaces; no network (only the jail's own loopback, so
// the host's 127.0.0.1 and [::1] are out of reach); a read-only minimal
// system view (/usr and its usrmerge links, a few /etc files); a private
// /tmp with HOME in it; a /proc of the jail's own processes; a minimal /dev;
// all capabilities dropped; rlimits on CPU time, address space, processes
// and file size; a wall-clock timeout that kills every process of the call;
// only the environment the caller lists; and only the host paths the caller
// binds, read-only unless it says otherwise.
//
// Where bwrap or user namespaces are missing the jail refuses to run (see
// Check); it never falls back to running a program unconfined. RunUnconfined
// is the separate, explicit way to run a program the user has approved
// directly on the host with the same timeout, output caps and result.
package jail

import (
	"context"
	"errors"
	"fmt"
	"github.com/clawbridge/clawbridge/internal/platform"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Spec is one program run.
type Spec struct {
	// Argv is the program and its arguments; a program without a slash is
	// looked up on the PATH of Env (inside the jail).
	Argv []string
	// Dir is the working directory inside the jail; default the private
	// HOME. It must be a bind target or inside one (or under /tmp).
	Dir string
	// Env is the whole environment ("NAME=value"); nothing of the server's
	// own environment is added. HOME and TMPDIR point into the private /tmp
	// and PATH defaults to /usr/bin:/bin when Env does not set them.
	Env []string
	// Binds are the host paths the program sees.
	Binds []Bind
	// Protected are host paths that must stay invisible, typically the
	// server's data dir: binding them (or anything inside) is refused, and
	// where one lies under a bind an empty tmpfs covers it.
	Protected []string
	// Tmpfs are empty in-memory directories of a bounded size, mounted
	// after the binds. What is written there counts against the run's
	// memory where a memory cgroup holds it (see cgroup.go).
	Tmpfs []Tmpfs
	// ExtraFiles are passed to the program open, as fds 5, 6, … (bwrap
	// uses 3 and 4). Run closes them once the program has them, or on
	// error.
	ExtraFiles []*os.File
	// Stdin is the program's standard input; nil means empty.
	Stdin io.Reader
	// Limits bound the program's resources; zero fields take Defaults().
	Limits Limits
	// Timeout kills the program and everything it started; 0 means
	// DefaultTimeout. The context cancels it too.
	Timeout time.Duration
	// StdoutCap and StderrCap are how many bytes of each stream are kept
	// (the rest is counted); 0 means 64 KiB.
	StdoutCap, StderrCap int
	// OnLine, if set, is called with each line of output as it arrives
	// (stream is "stdout" or "stderr"), for progress reports. It runs on
	// the reading goroutines and must not block for long.
	OnLine func(stream, line string)
}

// Tmpfs is one size-limited tmpfs in the jail, empty at the start.
type Tmpfs struct {
	Target string
	SizeMB int
}

// Result is what a run produced. A non-zero exit is a result, not an error.
type Result struct {
	// ExitCode is -1 when the program was killed by a signal. bwrap reports
	// a signal N as exit status 128+N, so in the jail a status above 128 is
	// read as a signal, as shells do.
	ExitCode        int
	Signal          string // the signal that ended the program, if any
	TimedOut        bool
	Stdout, Stderr  string
	StdoutTruncated bool
	StderrTruncated bool
	StdoutBytes     int64 // produced, before the cap
	StderrBytes     int64
	Duration        time.Duration
	// OutOfMemory says the kernel killed a process of the run because the
	// run as a whole reached Limits.MemoryMB (see cgroup.go).
	OutOfMemory bool
}

// DefaultTimeout is the wall-clock limit of a run that sets none.
const DefaultTimeout = 5 * time.Minute

const defaultCap = 64 << 10

// killGrace bounds how long we wait for the output pipes to close once the
// process tree has been killed.
const killGrace = 2 * time.Second

// Runner runs a spec in the jail: Run itself, or a tool's Deps.Run, which
// adds the server's data dir to Protected. Libraries that run programs for
// the tools (office, pdftext) take one from their caller.
type Runner func(ctx context.Context, spec Spec) (*Result, error)

// Run runs spec in the jail. It fails (without running anything) when the
// jail is unavailable or the spec is invalid.
func Run(ctx context.Context, spec Spec) (*Result, error) {
	extra := spec.ExtraFiles
	defer closeAll(extra)
	bwrap, err := findBwrap()
	if err != nil {
		return nil, err
	}
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return nil, errors.New("jail: no program given")
	}
	for i, a := range spec.Argv {
		if strings.ContainsRune(a, 0) {
			return nil, fmt.Errorf("jail: argv[%d] contains a NUL byte", i)
		}
	}
	binds, hide, err := resolveBinds(spec.Binds, spec.Protected)
	if err != nil {
		return nil, err
	}
	lim := spec.Limits.withDefaults()
	args, files, bindFiles, err := bwrapArgs(spec, binds, hide)
	if err != nil {
		return nil, err
	}
	defer closeAll(bindFiles)
	args = append(args, "--", prlimitPath)
	args = append(args, lim.prlimitArgs()...)
	args = append(args, "--")
	args = append(args, spec.Argv...)

	files = append(append(files, extra...), bindFiles...)
	cmd := &exec.Cmd{Path: bwrap, Args: append([]string{"bwrap"}, args...), Env: jailEnv(spec.Env), ExtraFiles: files}
	pids := 0
	if lim.Processes > 0 && os.Geteuid() == 0 {
		// RLIMIT_NPROC does not bind uid 0 (see cgroup.go): a pids cgroup does.
		pids = lim.Processes
	}
	cg, err := newRunCgroup(pids, lim.MemoryMB)
	if err != nil {
		closeAll(files)
		return nil, err
	}
	if cg != nil {
		defer cg.remove()
		cmd = cg.wrap(cmd)
	}
	res, err := execute(ctx, cmd, spec, files)
	if err != nil {
		return nil, err
	}
	res.OutOfMemory = cg.oomKilled()
	// bwrap reports a program killed by signal N as exit code 128+N.
	if res.Signal == "" && res.ExitCode > 128 && res.ExitCode < 128+65 {
		res.Signal = syscall.Signal(res.ExitCode - 128).String()
		res.ExitCode = -1
	}
	return res, nil
}

// RunUnconfined runs spec.Argv directly on the host, in spec.Dir, with
// spec.Env, stdin, timeout, output caps and OnLine; binds and limits do not
// apply. It is for calls a user has approved, never for untrusted ones.
func RunUnconfined(ctx context.Context, spec Spec) (*Result, error) {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return nil, errors.New("jail: no program given")
	}
	cmd := &exec.Cmd{Path: spec.Argv[0], Args: spec.Argv, Dir: spec.Dir, Env: spec.Env}
	if !strings.Contains(spec.Argv[0], "/") {
		p, err := exec.LookPath(spec.Argv[0])
		if err != nil {
			return nil, err
		}
		cmd.Path = p
	}
	return execute(ctx, cmd, spec, nil)
}

func resolveBinds(binds []Bind, protected []string) ([]Bind, []string, error) {
	real := make([]Bind, len(binds))
	for i, b := range binds {
		if err := checkPath("bind source", b.Source); err != nil {
			return nil, nil, err
		}
		src, err := filepath.EvalSymlinks(b.Source)
		if err != nil {
			return nil, nil, fmt.Errorf("jail: bind source: %w", err)
		}
		real[i] = Bind{Source: src, Target: b.Target, Writable: b.Writable}
	}
	var prot []string
	for _, p := range protected {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, nil, fmt.Errorf("jail: protected path: %w", err)
		}
		prot = append(prot, abs)
		if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
			prot = append(prot, r)
		}
	}
	return planBinds(real, prot)
}

// jailHome is HOME inside the jail, in its private /tmp.
const jailHome = "/tmp/home"

func jailEnv(env []string) []string {
	out := make([]string, 0, len(env)+3)
	has := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || name == "TMPDIR" {
			continue // the host's would point outside the jail
		}
		has[name] = true
		out = append(out, kv)
	}
	if !has["PATH"] {
		out = append(out, "PATH=/usr/bin:/bin")
	}
	return append(out, "HOME="+jailHome, "TMPDIR=/tmp")
}

// execute starts cmd in its own process group, feeds stdin, collects capped
// output and waits. On timeout or cancellation the whole group is killed;
// for a jailed run that kills bwrap, and with it (--die-with-parent, PID
// namespace) every process in the jail.
func execute(ctx context.Context, cmd *exec.Cmd, spec Spec, files []*os.File) (*Result, error) {
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Our own pipes (rather than exec's copying goroutines) let us wait for
	// the process itself, kill the group, and then drain with a bounded wait.
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(files)
		return nil, fmt.Errorf("jail: pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(append(files, outR, outW))
		return nil, fmt.Errorf("jail: pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.Stdin = spec.Stdin
	platform.NewGroup(cmd)
	cmd.WaitDelay = killGrace // bounds the stdin copier

	stdout, stderr := NewCapped(orDefault(spec.StdoutCap)), NewCapped(orDefault(spec.StderrCap))
	start := time.Now()
	err = cmd.Start()
	closeAll(append(files, outW, errW)) // the child has its copies
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("jail: start %s: %w", spec.Argv[0], err)
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go copyStream(&wg, stdout, outR, "stdout", spec.OnLine)
	go copyStream(&wg, stderr, errR, "stderr", spec.OnLine)

	pgid := cmd.Process.Pid
	done := make(chan struct{})
	go func() {
		select {
		case <-runCtx.Done():
			platform.KillGroup(pgid)
		case <-done:
		}
	}()
	waitErr := cmd.Wait()
	close(done)
	// Leftover members of the group (background children) go too.
	platform.KillGroup(pgid)
	elapsed := time.Since(start)

	drain(&wg, outR, errR)

	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return nil, fmt.Errorf("jail: wait %s: %w", spec.Argv[0], waitErr)
	}
	res := &Result{
		ExitCode:        cmd.ProcessState.ExitCode(),
		Stdout:          stdout.String(),
		Stderr:          stderr.String(),
		StdoutTruncated: stdout.Truncated(),
		StderrTruncated: stderr.Truncated(),
		StdoutBytes:     stdout.Total(),
		StderrBytes:     stderr.Total(),
		Duration:        elapsed,
		TimedOut:        errors.Is(runCtx.Err(), context.DeadlineExceeded),
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Signal = ws.Signal().String()
	}
	return res, nil
}

// copyStream copies a child's output stream into dst, also passing it to
// onLine line by line when set.
func copyStream(wg *sync.WaitGroup, dst *Capped, src *os.File, stream string, onLine func(stream, line string)) {
	defer wg.Done()
	var w io.Writer = dst
	var lw *lineWriter
	if onLine != nil {
		lw = &lineWriter{fn: func(l string) { onLine(stream, l) }}
		w = io.MultiWriter(dst, lw)
	}
	io.Copy(w, src)
	if lw != nil {
		lw.Flush()
	}
}

// drain waits for the copiers to finish, at most killGrace before closing
// the pipes under them, and closes the pipes.
func drain(wg *sync.WaitGroup, outR, errR *os.File) {
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(killGrace):
		// A descendant outside the group still holds a pipe: stop reading.
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()
}

func orDefault(n int) int {
	if n <= 0 {
		return defaultCap
	}
	return n
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// itoa keeps the argument lists readable.
func itoa(n int) string { return strconv.Itoa(n) }
