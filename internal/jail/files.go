package jail

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Where a program run on files sees them (RunOnFiles).
const (
	FilesIn  = "/tmp/in/" // each input at FilesIn + its base name, read-only
	FilesOut = "/tmp/out" // the output directory, writable
)

// FilesRun is one run of a media program (ffmpeg, ffprobe, espeak-ng …) on
// files: the inputs bound read-only, an output directory writable, the data
// directory hidden.
type FilesRun struct {
	Argv      []string // the program's path and arguments, naming FilesIn/FilesOut paths
	Inputs    []string // host paths, bound at FilesIn + base name
	OutDir    string   // host directory bound at FilesOut; empty: none
	Protected []string // host paths hidden from the program (the data dir)
	Timeout   time.Duration
	StdoutCap int
	// What to tell the model when the run is too slow or fails, e.g.
	// "use a shorter clip", "check that the file is a video ffmpeg reads".
	SlowHint, FailHint string
}

// RunOnFiles runs r and returns its stdout. Every failure is a tool error
// naming the program: it cannot run (unavailable), it took too long
// (timeout), it exited non-zero or on a signal (failed, with the last line
// of a long stderr). A cancelled ctx returns ctx.Err().
func RunOnFiles(ctx context.Context, r FilesRun) (string, error) {
	prog := filepath.Base(r.Argv[0])
	var binds []Bind
	for _, in := range r.Inputs {
		binds = append(binds, Bind{Source: in, Target: FilesIn + filepath.Base(in)})
	}
	if r.OutDir != "" {
		binds = append(binds, Bind{Source: r.OutDir, Target: FilesOut, Writable: true})
	}
	res, err := Run(ctx, Spec{Argv: r.Argv, Env: []string{"LANG=C.UTF-8"}, Binds: binds, Protected: r.Protected,
		Timeout: r.Timeout, StdoutCap: r.StdoutCap, StderrCap: 8 << 10})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", toolerr.Errorf(toolerr.CodeUnavailable, "see clawbridge doctor", "%s cannot run: %v", prog, err)
	}
	if res.TimedOut {
		return "", toolerr.Errorf(toolerr.CodeTimeout, r.SlowHint, "%s took longer than %s", prog, r.Timeout)
	}
	if res.ExitCode != 0 || res.Signal != "" {
		msg := strings.TrimSpace(res.Stderr)
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg) > 400 {
			msg = msg[i+1:]
		}
		return "", toolerr.Errorf(toolerr.CodeFailed, r.FailHint, "%s failed (exit %d %s): %s", prog, res.ExitCode, res.Signal, msg)
	}
	return res.Stdout, nil
}
