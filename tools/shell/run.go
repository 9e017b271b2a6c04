package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"clawbridge/internal/jail"
	"clawbridge/internal/sandbox"
	"clawbridge/tools/tool"
)

type runner struct {
	d *tool.Deps
}

// output is the JSON result of one run.
type output struct {
	Argv            []string `json:"argv"`
	Cwd             string   `json:"cwd"`
	ExitCode        int      `json:"exit_code"` // -1 when killed by a signal
	Signal          string   `json:"signal,omitempty"`
	TimedOut        bool     `json:"timed_out"`
	Stdout          string   `json:"stdout"`
	Stderr          string   `json:"stderr"`
	Truncated       bool     `json:"truncated"` // stdout or stderr was cut
	StdoutTruncated bool     `json:"stdout_truncated"`
	StderrTruncated bool     `json:"stderr_truncated"`
	StdoutBytes     int64    `json:"stdout_bytes"` // total produced, before the cap
	StderrBytes     int64    `json:"stderr_bytes"`
	DurationMS      int64    `json:"duration_ms"`
}

// killGrace bounds how long we wait for the output pipes to close once the
// process group has been killed: a descendant that left the group (setsid)
// may still hold them.
const killGrace = 2 * time.Second

func (r *runner) handle(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	cfg := r.d.Config.Shell
	argv := call.Args.Strings("argv")
	line := call.Args.String("shell")

	switch {
	case call.Args.Has("argv") && call.Args.Has("shell"):
		return nil, tool.Invalid("shell", "give either 'argv' or 'shell', not both", "use argv for one program; shell only for a command line that needs sh")
	case call.Args.Has("shell"):
		if !cfg.AllowShell {
			return nil, tool.Errorf(tool.CodeDenied,
				"pass the command as an argv list instead, or ask the administrator to enable shell command lines: set `shell: {allow_shell: true}` in the clawbridge config file (or CLAWBRIDGE_ALLOW_SHELL=1) and restart the server",
				"shell command lines (sh -c) are disabled on this server")
		}
		if strings.TrimSpace(line) == "" {
			return nil, tool.Invalid("shell", "field 'shell' is empty", "give the command line to run with sh -c")
		}
		argv = []string{"sh", "-c", line}
	case len(argv) == 0:
		return nil, tool.Invalid("argv", "missing required field 'argv'", "give the program and its arguments as a list, e.g. [\"ls\", \"-la\"]")
	}
	if argv[0] == "" {
		return nil, tool.Invalid("argv", "argv[0] (the program) is empty", "e.g. [\"ls\", \"-la\"]")
	}
	for i, a := range argv {
		if strings.ContainsRune(a, 0) {
			return nil, tool.Invalid("argv", fmt.Sprintf("argv[%d] contains a NUL byte", i), "")
		}
	}

	cwd, err := r.resolveCwd(call.Args.String("cwd"))
	if err != nil {
		return nil, err
	}

	env := ScrubbedEnv(cfg.PassEnv, os.Getenv)
	prog, err := lookProgram(argv[0], cwd, envValue(env, "PATH"))
	if err != nil {
		return nil, err
	}

	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	if s := call.Args.Int("timeout_seconds", 0); s > 0 && time.Duration(s)*time.Second < timeout {
		timeout = time.Duration(s) * time.Second
	}
	limit := cfg.MaxOutputBytes
	if limit <= 0 {
		limit = 64 << 10
	}

	out, err := run(ctx, prog, argv, cwd, env, call.Args.String("stdin"), call.Args.Has("stdin"), timeout, limit)
	if err != nil {
		return nil, err
	}
	out.Cwd = r.d.Sandbox.Rel(cwd)
	if out.Cwd == "" {
		out.Cwd = "."
	}

	var summary string
	switch {
	case out.TimedOut:
		summary = fmt.Sprintf("%s was killed after the %s timeout", argv[0], timeout)
	case out.Signal != "":
		summary = fmt.Sprintf("%s was killed by %s", argv[0], out.Signal)
	default:
		summary = fmt.Sprintf("%s exited with code %d", argv[0], out.ExitCode)
	}
	if out.Truncated {
		summary += fmt.Sprintf(" (output cut at %d bytes per stream)", limit)
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}

func (r *runner) resolveCwd(p string) (string, error) {
	abs, err := r.d.Sandbox.Resolve(p)
	if err != nil {
		if errors.Is(err, sandbox.ErrOutside) {
			return "", tool.Invalid("cwd", fmt.Sprintf("cwd %q is outside the workspace", p), "use a directory inside the workspace, relative to its root")
		}
		return "", tool.Invalid("cwd", fmt.Sprintf("cwd %q: %v", p, err), "")
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", tool.Errorf(tool.CodeNotFound, "create it first or pick an existing directory", "cwd %q does not exist", p)
	}
	if !fi.IsDir() {
		return "", tool.Invalid("cwd", fmt.Sprintf("cwd %q is not a directory", p), "")
	}
	return abs, nil
}

// lookProgram finds the executable for name: a name with a slash is taken
// relative to cwd; a bare name is searched on the scrubbed PATH (the one the
// child gets), never in the current directory.
func lookProgram(name, cwd, path string) (string, error) {
	notFound := func(detail string) error {
		return tool.Errorf(tool.CodeNotFound, "check the spelling, or install it on the server; `which NAME` shows what is available",
			"program %q not found%s", name, detail)
	}
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if err := executable(p); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", notFound("")
			}
			return "", tool.Errorf(tool.CodeDenied, "make it executable (chmod +x) or run it through its interpreter, e.g. [\"python3\", \"script.py\"]", "cannot run %q: %v", name, err)
		}
		return p, nil
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", notFound(" on PATH")
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}

// run starts the program in its own process group and waits for it. On
// timeout or cancellation the whole group is killed, so children started by
// the program die with it. Descendants still alive when the program exits are
// killed too: a call leaves nothing running behind it.
func run(ctx context.Context, prog string, argv []string, cwd string, env []string, stdin string, hasStdin bool, timeout time.Duration, limit int) (*output, error) {
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Our own pipes (rather than exec's copying goroutines) let us wait for
	// the process itself, kill the group, and then drain the pipes with a
	// bounded wait.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("shell: pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("shell: pipe: %w", err)
	}

	cmd := &exec.Cmd{
		Path:        prog,
		Args:        argv,
		Dir:         cwd,
		Env:         env,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
		// Bounds the stdin copier if a descendant keeps stdin open unread.
		WaitDelay: killGrace,
	}
	if hasStdin {
		cmd.Stdin = strings.NewReader(stdin)
	}

	stdout, stderr := jail.NewCapped(limit), jail.NewCapped(limit)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, tool.Errorf(tool.CodeFailed, "check that the program is a valid executable for this machine", "start %s: %v", argv[0], err)
	}
	// The child has its copies; closing ours lets the readers see EOF.
	outW.Close()
	errW.Close()

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); io.Copy(stdout, outR) }()
	go func() { defer wg.Done(); io.Copy(stderr, errR) }()

	pgid := cmd.Process.Pid
	done := make(chan struct{})
	go func() {
		select {
		case <-runCtx.Done():
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		case <-done:
		}
	}()

	waitErr := cmd.Wait()
	close(done)
	// Leftover members of the group (background children) go too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	elapsed := time.Since(start)

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

	if ctx.Err() != nil {
		// The caller (client cancel or the pipeline's deadline) gave up.
		return nil, ctx.Err()
	}

	o := &output{
		Argv:            argv,
		ExitCode:        cmd.ProcessState.ExitCode(),
		Stdout:          stdout.String(),
		Stderr:          stderr.String(),
		StdoutTruncated: stdout.Total() > int64(limit),
		StderrTruncated: stderr.Total() > int64(limit),
		StdoutBytes:     stdout.Total(),
		StderrBytes:     stderr.Total(),
		DurationMS:      elapsed.Milliseconds(),
		TimedOut:        errors.Is(runCtx.Err(), context.DeadlineExceeded),
	}
	o.Truncated = o.StdoutTruncated || o.StderrTruncated
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		o.Signal = ws.Signal().String()
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return nil, fmt.Errorf("shell: wait %s: %w", argv[0], waitErr)
	}
	return o, nil
}
