package pyrunner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
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
	// lost says why the jail's work dir could not be collected, for the
	// summary.
	lost string
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
		return nil, tool.MissingProgram(lang.program)
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
	// The inputs live in the work dir too, so they count against work_mb.
	maxInput := int64(min(r.cfg.MaxInputMB, r.cfg.WorkMB)) << 20
	script := s.name
	if err := w.add(script, bytes.NewReader(s.code)); err != nil {
		return nil, fmt.Errorf("python_runner: write the script: %w", err)
	}
	if err := r.copyIn(w, c.Args.Strings("files"), script, maxInput); err != nil {
		return nil, err
	}
	if err := s.checkInputs(w.in); err != nil {
		return nil, err
	}

	spec := r.jailSpec(c)
	args := c.Args.Strings("args")
	var res *jail.Result
	var quota bool
	var lost error // why the work dir could not be collected
	if sandboxed {
		res, quota, lost, err = r.runJailed(ctx, spec, w, prog, lang, script, args)
	} else {
		res, quota, err = r.runOnHost(ctx, spec, w, prog, lang, script, args)
	}
	if err != nil {
		return nil, err
	}

	out := newRunOutput(res, lang, sandboxed, quota)

	dir, names, err := r.keptFiles(w, sandboxed, out, quota, lost)
	if err != nil {
		return nil, err
	}
	files, outDir, err := r.copyOut(dir, c, names)
	if err != nil {
		return nil, err
	}
	out.OutputDir = r.d.Sandbox.Rel(outDir)
	for _, f := range files {
		out.Files = append(out.Files, r.d.Sandbox.Rel(f.Path))
	}
	return &tool.Result{Summary: r.summary(out, lang, spec.Timeout), Data: out, Files: files}, nil
}

// keptFiles lists the files the run produced that will be copied out (none
// after a runaway run, at most max_files), noting in out how many are
// left out, and the directory they are in.
func (r *runner) keptFiles(w *workDir, sandboxed bool, out *runOutput, quota bool, lost error) (string, []string, error) {
	dir := w.out
	if !sandboxed {
		dir = w.in
	}
	names, err := w.produced(dir)
	if err != nil {
		return "", nil, fmt.Errorf("python_runner: list produced files: %w", err)
	}
	if quota || lost != nil {
		// What a runaway run left is not a result: nothing is copied out.
		out.FilesLeftOut, names = len(names), nil
	}
	if lost != nil {
		out.lost = lost.Error()
	}
	if len(names) > r.cfg.MaxFiles {
		out.FilesLeftOut = len(names) - r.cfg.MaxFiles
		names = names[:r.cfg.MaxFiles]
	}
	return dir, names, nil
}

// jailSpec is how the script runs: a clean environment, the configured
// limits, the call's shorter timeout if any, capped output and its stdin.
func (r *runner) jailSpec(c *tool.Call) jail.Spec {
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
	return spec
}

// newRunOutput reports the run's result and the limits it hit.
func newRunOutput(res *jail.Result, lang language, sandboxed, quota bool) *runOutput {
	out := &runOutput{
		Language: lang.name, Sandboxed: sandboxed,
		ExitCode: res.ExitCode, Signal: res.Signal, TimedOut: res.TimedOut,
		Stdout: res.Stdout, Stderr: res.Stderr,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		StdoutBytes: res.StdoutBytes, StderrBytes: res.StderrBytes,
		DurationMS: res.Duration.Milliseconds(),
	}
	out.LimitsHit = limitsHit(res, quota)
	return out
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

// runJailed runs the script in the jail with /work a tmpfs of work_mb (see
// collectScript), then extracts the work dir into w.out. quota says it
// held more than work_mb; lost, why it could not be collected (a run
// killed at its time limit never streams it).
func (r *runner) runJailed(ctx context.Context, spec jail.Spec, w *workDir, prog string, lang language, script string, args []string) (res *jail.Result, quota bool, lost, err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, false, nil, fmt.Errorf("python_runner: pipe: %w", err)
	}
	defer pr.Close()
	collected := make(chan error, 1)
	go func() {
		err := collect(pr, w.out, int64(r.cfg.WorkMB)<<20)
		pr.Close() // a stream cut short stops the tar in the jail
		collected <- err
	}()
	spec.Argv = append(append(append([]string{"/bin/sh", "-c", collectScript, "sh", prog}, lang.flags...), workTarget+"/"+script), args...)
	spec.Dir = workTarget
	spec.Binds = []jail.Bind{{Source: w.in, Target: inTarget}}
	// A MB of room above the quota lets collect see a run that outgrew it.
	spec.Tmpfs = []jail.Tmpfs{{Target: workTarget, SizeMB: r.cfg.WorkMB + 1}}
	spec.ExtraFiles = []*os.File{pw}
	res, err = r.d.Run(ctx, spec)
	if err != nil {
		pr.Close()
		<-collected
		if ctx.Err() != nil {
			return nil, false, nil, ctx.Err()
		}
		return nil, false, nil, tool.Errorf(tool.CodeFailed, "clawbridge doctor checks the sandbox and the interpreters", "python_runner: %v", err)
	}
	// Every process of the jail is gone, so the stream is complete, or cut
	// short (at the time limit), and collect ends at once; should anything
	// still hold the pipe, it may not hold the call.
	var cerr error
	select {
	case cerr = <-collected:
	case <-time.After(collectGrace):
		pr.Close()
		cerr = <-collected
	}
	switch err := cerr; {
	case errors.Is(err, errOverQuota):
		return res, true, nil, nil
	case res.TimedOut:
		return res, false, errors.New("the run was killed before its work directory was collected"), nil
	case err != nil:
		return res, false, fmt.Errorf("its work directory could not be read back (%v)", err), nil
	}
	return res, false, nil, nil
}

// collectGrace bounds the wait for the rest of the work dir's stream once
// the jail has ended.
const collectGrace = 5 * time.Second

// runOnHost runs the script directly on the host in w.in (where the config
// allows it), with a watcher that stops the run when the work dir outgrows
// its quota, and a last look after the run.
func (r *runner) runOnHost(ctx context.Context, spec jail.Spec, w *workDir, prog string, lang language, script string, args []string) (*jail.Result, bool, error) {
	max := int64(r.cfg.WorkMB) << 20
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var over atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.watchQuota(runCtx, w.in, max, func() { over.Store(true); cancel() })
	}()
	spec.Argv = append(append(append(r.hostLimits(), prog), lang.flags...), filepath.Join(w.in, script))
	spec.Argv = append(spec.Argv, args...)
	spec.Dir = w.in
	spec.Env = append(spec.Env, "HOME="+w.in, "TMPDIR="+w.in)
	res, err := r.d.RunUnconfined(runCtx, spec)
	cancel() // stop the watcher before waiting for it
	wg.Wait()
	switch {
	case over.Load():
		return &jail.Result{ExitCode: -1, Signal: "killed"}, true, nil
	case err != nil && ctx.Err() != nil:
		return nil, false, ctx.Err()
	case err != nil:
		return nil, false, tool.Errorf(tool.CodeFailed, "clawbridge doctor checks the interpreters", "python_runner: %v", err)
	}
	// What was written after the watcher's last look counts too.
	return res, size(w.in) > max, nil
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

// quotaTick is how often the work dir of a run on the host is measured.
const quotaTick = 200 * time.Millisecond

func (r *runner) watchQuota(ctx context.Context, dir string, max int64, stop func()) {
	t := time.NewTicker(quotaTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if size(dir) > max {
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
	add(!res.TimedOut && (res.Signal == "CPU time limit exceeded" || res.Signal == "killed" && !quota && !res.OutOfMemory), "cpu")
	add(res.OutOfMemory || strings.Contains(se, "MemoryError") || strings.Contains(se, "heap out of memory") || strings.Contains(se, "Cannot allocate memory"), "memory")
	add(strings.Contains(se, "Resource temporarily unavailable") || strings.Contains(se, "BlockingIOError"), "processes")
	add(res.Signal == "file size limit exceeded" || strings.Contains(se, "File too large"), "file_size")
	add(res.StdoutTruncated || res.StderrTruncated, "output")
	return hit
}

func (r *runner) summary(o *runOutput, lang language, timeout time.Duration) string {
	var s string
	switch {
	case hasLimit(o.LimitsHit, "work_dir") && o.Signal == "killed":
		s = fmt.Sprintf("%s was stopped: its work directory outgrew %d MB", lang.name, r.cfg.WorkMB)
	case hasLimit(o.LimitsHit, "work_dir"):
		s = fmt.Sprintf("%s's work directory outgrew %d MB, and writes past it failed (exit code %d)", lang.name, r.cfg.WorkMB, o.ExitCode)
	case o.TimedOut:
		s = fmt.Sprintf("%s was killed after the %s time limit, with every process it started", lang.name, timeout)
	case hasLimit(o.LimitsHit, "cpu"):
		s = fmt.Sprintf("%s was killed at its CPU limit of %d s", lang.name, r.cfg.CPUSeconds)
	case hasLimit(o.LimitsHit, "memory") && o.Signal == "killed":
		s = fmt.Sprintf("%s was killed: the run reached its memory limit of %d MB", lang.name, r.cfg.MemoryMB)
	case o.Signal != "":
		s = fmt.Sprintf("%s was killed by %s", lang.name, o.Signal)
	default:
		s = fmt.Sprintf("%s exited with code %d", lang.name, o.ExitCode)
	}
	if hasLimit(o.LimitsHit, "memory") && o.Signal != "killed" {
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
	if o.lost != "" {
		s += "; nothing was copied out: " + o.lost
	} else if o.FilesLeftOut > 0 && hasLimit(o.LimitsHit, "work_dir") {
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
