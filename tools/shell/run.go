package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
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
	Jailed          bool     `json:"jailed"` // ran in the read-only jail
}

func (r *runner) handle(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	cfg := r.d.Config.Shell
	argv, err := r.commandArgv(call)
	if err != nil {
		return nil, err
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

	var stdin *string
	if call.Args.Has("stdin") {
		v := call.Args.String("stdin")
		stdin = &v
	}
	readOnly := CallLevel(r.d.Config, r.d.Sandbox.Roots(), call.Args) == tool.Read
	if err := checkShown(call); err != nil {
		return nil, err
	}
	out, err := r.run(ctx, readOnly, prog, argv, cwd, env, stdin, timeout, limit)
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
		summary += fmt.Sprintf(" (output cut at %s per stream)", wording.Count(limit, "byte", "bytes"))
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}

// commandArgv is the program and its arguments: argv, or sh -c with the
// shell line when shell command lines are on.
func (r *runner) commandArgv(call *tool.Call) ([]string, error) {
	argv := call.Args.Strings("argv")
	line := call.Args.String("shell")

	switch {
	case call.Args.Has("argv") && call.Args.Has("shell"):
		return nil, tool.Invalid("shell", "give either 'argv' or 'shell', not both", "use argv for one program; shell only for a command line that needs sh")
	case call.Args.Has("shell"):
		if hint := shellOff(r.d); hint != "" { // Prepare refuses it already; config is read again here
			return nil, tool.Errorf(tool.CodeDenied, hint, "shell command lines (sh -c) are disabled on this server")
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
	return argv, nil
}

func (r *runner) resolveCwd(p string) (string, error) {
	abs, err := r.d.Sandbox.Resolve(p)
	if err != nil {
		return "", tool.PathError("cwd", p, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", tool.NotFoundf("cwd", "create it first or pick an existing directory", "cwd %q does not exist", p)
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
		return tool.NotFoundf("argv", "check the spelling, or install it on the server; `which NAME` shows what is available",
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

// run runs the program: a Read call in the jail, with the workspace roots
// read-only at their own paths and the data dir hidden; any other
// (confirmed) call directly on the host. Either way it runs in its own
// process group and everything it started is killed on timeout,
// cancellation, or when it exits.
func (r *runner) run(ctx context.Context, readOnly bool, prog string, argv []string, cwd string, env []string, stdin *string, timeout time.Duration, limit int) (*output, error) {
	spec := jail.Spec{
		Argv:      append([]string{prog}, argv[1:]...),
		Dir:       cwd,
		Env:       env,
		Timeout:   timeout,
		StdoutCap: limit,
		StderrCap: limit,
	}
	if stdin != nil {
		spec.Stdin = strings.NewReader(*stdin)
	}
	var res *jail.Result
	var err error
	if readOnly {
		spec.Binds = workspaceBinds(r.d.Sandbox.Roots())
		res, err = r.d.Run(ctx, spec)
	} else {
		res, err = r.d.RunUnconfined(ctx, spec)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if te, ok := tool.AsError(err); ok {
			return nil, te // gone since lookProgram found it
		}
		return nil, tool.Errorf(tool.CodeFailed, "check that the program is a valid executable for this machine", "run %s: %v", argv[0], err)
	}
	o := &output{
		Argv:            argv,
		ExitCode:        res.ExitCode,
		Signal:          res.Signal,
		TimedOut:        res.TimedOut,
		Stdout:          res.Stdout,
		Stderr:          res.Stderr,
		StdoutTruncated: res.StdoutTruncated,
		StderrTruncated: res.StderrTruncated,
		StdoutBytes:     res.StdoutBytes,
		StderrBytes:     res.StderrBytes,
		DurationMS:      res.Duration.Milliseconds(),
		Jailed:          readOnly,
	}
	o.Truncated = o.StdoutTruncated || o.StderrTruncated
	return o, nil
}

// workspaceBinds shows every workspace root in force read-only at its
// path, and at its real path when a symlink leads there, so the paths the
// model uses work inside the jail.
func workspaceBinds(roots []string) []jail.Bind {
	var binds []jail.Bind
	seen := map[string]bool{}
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue
		}
		for _, target := range []string{abs, real} {
			if !seen[target] {
				seen[target] = true
				binds = append(binds, jail.Bind{Source: real, Target: target})
			}
		}
	}
	return binds
}
