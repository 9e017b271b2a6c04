package pyrunner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"clawbridge/internal/jail"
	"clawbridge/tools/tool"
)

// runOutput is the JSON result of one run.
type runOutput struct {
	Language        string   `json:"language"`
	Sandboxed       bool     `json:"sandboxed"`
	ExitCode        int      `json:"exit_code"` // -1 when killed by a signal
	Signal          string   `json:"signal,omitempty"`
	TimedOut        bool     `json:"timed_out"`
	LimitsHit       []string `json:"limits_hit,omitempty"` // timeout, cpu, memory, processes, file_size, work_dir, output
	Stdout          string   `json:"stdout"`
	Stderr          string   `json:"stderr"`
	StdoutTruncated bool     `json:"stdout_truncated"`
	StderrTruncated bool     `json:"stderr_truncated"`
	StdoutBytes     int64    `json:"stdout_bytes"` // produced, before the cap
	StderrBytes     int64    `json:"stderr_bytes"`
	DurationMS      int64    `json:"duration_ms"`
	OutputDir       string   `json:"output_dir,omitempty"`
	Files           []string `json:"files,omitempty"` // produced files, workspace-relative
	FilesLeftOut    int      `json:"files_left_out,omitempty"`
}

// workTarget is the work dir inside the jail.
const workTarget = "/work"

func (r *runner) run(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	// A confirmed run executes the script its preview read and showed,
	// never a second read of a file that may have changed since.
	s, ok := c.Previewed.(*program)
	if !ok {
		var err error
		if s, err = r.loadScript(c); err != nil {
			return nil, err
		}
	}
	lang := s.lang
	prog := interpreter(lang)
	if prog == "" {
		return nil, tool.Missing(lang.program, lang.pkg)
	}
	sandboxed, err := r.sandboxed()
	if err != nil {
		return nil, err
	}

	w, err := newWorkDir()
	if err != nil {
		return nil, err
	}
	defer w.remove()
	script := s.name
	if err := w.add(script, bytes.NewReader(s.code)); err != nil {
		return nil, fmt.Errorf("python_runner: write the script: %w", err)
	}
	if err := r.copyIn(w, c.Args.Strings("files"), script, int64(r.cfg.MaxInputMB)<<20); err != nil {
		return nil, err
	}
	if err := s.checkInputs(w.dir); err != nil {
		return nil, err
	}

	timeout := r.cfg.Timeout
	if s := c.Args.Int("timeout_seconds", 0); s > 0 && time.Duration(s)*time.Second < timeout {
		timeout = time.Duration(s) * time.Second
	}
	spec := jail.Spec{
		Env:       []string{"PATH=" + jailPath, "LANG=C.UTF-8"},
		Limits:    jail.Limits{CPUSeconds: r.cfg.CPUSeconds, MemoryMB: r.cfg.MemoryMB, Processes: r.cfg.Processes, FileSizeMB: r.cfg.FileSizeMB},
		Timeout:   timeout,
		StdoutCap: r.cfg.MaxOutputBytes,
		StderrCap: r.cfg.MaxOutputBytes,
		OnLine:    progressLines(c.Progress),
	}
	if c.Args.Has("stdin") {
		spec.Stdin = strings.NewReader(c.Args.String("stdin"))
	}
	args := c.Args.Strings("args")
	res, quota, err := r.execute(ctx, spec, w, prog, lang, script, args, sandboxed)
	if err != nil {
		return nil, err
	}

	out := &runOutput{
		Language: lang.name, Sandboxed: sandboxed,
		ExitCode: res.ExitCode, Signal: res.Signal, TimedOut: res.TimedOut && !quota,
		Stdout: res.Stdout, Stderr: res.Stderr,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		StdoutBytes: res.StdoutBytes, StderrBytes: res.StderrBytes,
		DurationMS: res.Duration.Milliseconds(),
	}
	out.LimitsHit = limitsHit(res, quota)

	names, err := w.produced()
	if quota {
		// What a runaway run left is not a result: nothing is copied out.
		out.FilesLeftOut, names = len(names), nil
	}
	if err != nil {
		return nil, fmt.Errorf("python_runner: list produced files: %w", err)
	}
	if len(names) > r.cfg.MaxFiles {
		out.FilesLeftOut = len(names) - r.cfg.MaxFiles
		names = names[:r.cfg.MaxFiles]
	}
	files, outDir, err := r.copyOut(w, c, names)
	if err != nil {
		return nil, err
	}
	out.OutputDir = r.d.Sandbox.Rel(outDir)
	for _, f := range files {
		out.Files = append(out.Files, r.d.Sandbox.Rel(f.Path))
	}
	return &tool.Result{Summary: r.summary(out, lang, timeout), Data: out, Files: files}, nil
}

// sandboxed says whether runs go into the jail; without one it refuses
// unless config allows running on the host.
func (r *runner) sandboxed() (bool, error) {
	err := r.jailCheck()
	if err == nil {
		return true, nil
	}
	if r.cfg.AllowUnsandboxed {
		r.d.Log.Warn().Err(err).Msg("python_runner: the jail is unavailable; running code unsandboxed as tools.python_runner.allow_unsandboxed says")
		return false, nil
	}
	return false, tool.Errorf(tool.CodeUnavailable,
		"fix the sandbox on the server (clawbridge doctor says how), or, only on a machine where running code unconfined is acceptable, set tools.python_runner.allow_unsandboxed: true",
		"python_runner refuses to run code: the sandbox cannot be created on this machine (%v)", err)
}

// execute runs the script in the jail (or on the host when allowed), with a
// watcher that stops the run when the work dir outgrows its quota.
func (r *runner) execute(ctx context.Context, spec jail.Spec, w *workDir, prog string, lang language, script string, args []string, sandboxed bool) (*jail.Result, bool, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var over atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.watchQuota(runCtx, w, int64(r.cfg.WorkMB)<<20, func() { over.Store(true); cancel() })
	}()
	defer wg.Wait()
	defer cancel() // stop the watcher before waiting for it

	var res *jail.Result
	var err error
	if sandboxed {
		spec.Argv = append(append(append([]string{prog}, lang.flags...), workTarget+"/"+script), args...)
		spec.Dir = workTarget
		spec.Binds = []jail.Bind{{Source: w.dir, Target: workTarget, Writable: true}}
		if r.d.Config != nil {
			spec.Protected = []string{r.d.Config.DataDir}
		}
		res, err = jail.Run(runCtx, spec)
	} else {
		spec.Argv = append(append(append(r.hostLimits(), prog), lang.flags...), filepath.Join(w.dir, script))
		spec.Argv = append(spec.Argv, args...)
		spec.Dir = w.dir
		spec.Env = append(spec.Env, "HOME="+w.dir, "TMPDIR="+w.dir)
		res, err = jail.RunUnconfined(runCtx, spec)
	}
	switch {
	case over.Load():
		return &jail.Result{ExitCode: -1, Signal: "killed"}, true, nil
	case err != nil && ctx.Err() != nil:
		return nil, false, ctx.Err()
	case err != nil:
		return nil, false, tool.Errorf(tool.CodeFailed, "clawbridge doctor checks the sandbox and the interpreters", "python_runner: %v", err)
	}
	return res, false, nil
}

// hostLimits wraps an unsandboxed run in prlimit, where installed, so it
// keeps the CPU, memory and file size limits.
func (r *runner) hostLimits() []string {
	const prlimit = "/usr/bin/prlimit"
	if _, err := os.Stat(prlimit); err != nil {
		return nil
	}
	return []string{prlimit,
		fmt.Sprintf("--cpu=%d:%d", r.cfg.CPUSeconds, r.cfg.CPUSeconds+1),
		fmt.Sprintf("--as=%d", int64(r.cfg.MemoryMB)<<20),
		fmt.Sprintf("--fsize=%d", int64(r.cfg.FileSizeMB)<<20),
		"--core=0", "--"}
}

// quotaTick is how often the work dir's size is measured.
const quotaTick = 200 * time.Millisecond

func (r *runner) watchQuota(ctx context.Context, w *workDir, max int64, stop func()) {
	t := time.NewTicker(quotaTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if w.size() > max {
				stop()
				return
			}
		}
	}
}

// limitsHit names the limits that ended or cut the run, from how it ended
// and the interpreters' own messages.
func limitsHit(res *jail.Result, quota bool) []string {
	var hit []string
	add := func(cond bool, name string) {
		if cond {
			hit = append(hit, name)
		}
	}
	se := res.Stderr
	add(quota, "work_dir")
	add(res.TimedOut && !quota, "timeout")
	add(!res.TimedOut && (res.Signal == "CPU time limit exceeded" || res.Signal == "killed" && !quota), "cpu")
	add(strings.Contains(se, "MemoryError") || strings.Contains(se, "heap out of memory") || strings.Contains(se, "Cannot allocate memory"), "memory")
	add(strings.Contains(se, "Resource temporarily unavailable") || strings.Contains(se, "BlockingIOError"), "processes")
	add(res.Signal == "file size limit exceeded" || strings.Contains(se, "File too large"), "file_size")
	add(res.StdoutTruncated || res.StderrTruncated, "output")
	return hit
}

func (r *runner) summary(o *runOutput, lang language, timeout time.Duration) string {
	var s string
	switch {
	case hasLimit(o.LimitsHit, "work_dir"):
		s = fmt.Sprintf("%s was stopped: its work directory outgrew %d MB", lang.name, r.cfg.WorkMB)
	case o.TimedOut:
		s = fmt.Sprintf("%s was killed after the %s time limit, with every process it started", lang.name, timeout)
	case hasLimit(o.LimitsHit, "cpu"):
		s = fmt.Sprintf("%s was killed at its CPU limit of %d s", lang.name, r.cfg.CPUSeconds)
	case o.Signal != "":
		s = fmt.Sprintf("%s was killed by %s", lang.name, o.Signal)
	default:
		s = fmt.Sprintf("%s exited with code %d", lang.name, o.ExitCode)
	}
	if hasLimit(o.LimitsHit, "memory") {
		s += fmt.Sprintf("; it ran out of memory (limit %d MB)", r.cfg.MemoryMB)
	}
	if hasLimit(o.LimitsHit, "processes") {
		s += fmt.Sprintf("; it hit the limit of %d processes", r.cfg.Processes)
	}
	if hasLimit(o.LimitsHit, "file_size") {
		s += fmt.Sprintf("; a file reached the %d MB file size limit", r.cfg.FileSizeMB)
	}
	if hasLimit(o.LimitsHit, "output") {
		s += fmt.Sprintf("; output cut at %d bytes per stream (stdout was %d bytes, stderr %d)", r.cfg.MaxOutputBytes, o.StdoutBytes, o.StderrBytes)
	}
	if len(o.Files) > 0 {
		s += fmt.Sprintf("; %d file(s) copied to %s", len(o.Files), o.OutputDir)
	}
	if o.FilesLeftOut > 0 && hasLimit(o.LimitsHit, "work_dir") {
		s += fmt.Sprintf("; its %d file(s) were not copied out", o.FilesLeftOut)
	} else if o.FilesLeftOut > 0 {
		s += fmt.Sprintf("; %d more produced file(s) left out (limit %d)", o.FilesLeftOut, r.cfg.MaxFiles)
	}
	if !o.Sandboxed {
		s += " (ran unsandboxed on the host, as the config allows)"
	}
	return s
}

func hasLimit(hit []string, name string) bool {
	for _, h := range hit {
		if h == name {
			return true
		}
	}
	return false
}

// progressLines turns stdout lines into progress reports, at most a few a
// second so a chatty script does not flood the client.
func progressLines(report func(done, total float64, msg string)) func(stream, line string) {
	var mu sync.Mutex
	var n int
	var last time.Time
	return func(stream, line string) {
		if stream != "stdout" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		n++
		if n > 10 && time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		if r := []rune(line); len(r) > 200 {
			line = string(r[:200]) + "…"
		}
		report(float64(n), 0, line)
	}
}
