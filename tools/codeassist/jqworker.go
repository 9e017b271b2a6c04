package codeassist

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/platform"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// A jq program is untrusted code: gojq has no bound on its stack, memory
// or time, and a deep enough program overflows the goroutine stack, a fatal
// error no recover() catches. So every query runs in a worker process: the
// running binary itself, started in the jail with jqWorkerEnv set, which
// init below turns into the worker before anything else runs. That works
// for the server binary and for test binaries alike.
const jqWorkerEnv = "CLAWBRIDGE_JQ_WORKER"

// Limits of the worker. The heap limit is watched by the worker (a clear
// answer); the address space limit is the hard bound behind it.
const (
	jqMaxStack   = 32 << 20
	jqMaxHeap    = 256 << 20
	jqMemoryMB   = 2048 // address space: the Go runtime alone reserves about 900 MB
	jqCPUSeconds = 10
	jqTimeout    = time.Minute      // wall clock; the CPU limit is the one a busy query meets
	jqWorkerPath = "/tmp/jq-worker" // the binary inside the jail
)

func init() {
	if os.Getenv(jqWorkerEnv) == "1" {
		os.Exit(jqWorker())
	}
}

// jqRequest is what the server sends the worker on stdin.
type jqRequest struct {
	Query string `json:"query"`
	Text  string `json:"text"`
}

// jqAnswer is what the worker writes on stdout: results, or the tool
// error the query ran into, or the limit it exceeded.
type jqAnswer struct {
	Results   []json.RawMessage `json:"results"`
	Truncated string            `json:"truncated,omitempty"`
	Error     *tool.Error       `json:"error,omitempty"`
	Limit     string            `json:"limit,omitempty"`
}

var answerOnce sync.Once

// answer writes the worker's one answer.
func answer(a jqAnswer) {
	answerOnce.Do(func() {
		w := bufio.NewWriter(os.Stdout)
		_ = json.NewEncoder(w).Encode(a)
		_ = w.Flush()
	})
}

// jqWorker runs one query read from stdin and returns the exit code.
func jqWorker() int {
	os.Clearenv()
	debug.SetMaxStack(jqMaxStack)
	go watchHeap()
	var req jqRequest
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		answer(jqAnswer{Error: tool.Errorf(tool.CodeFailed, "", "jq worker: bad request: %v", err)})
		return 1
	}
	results, truncated, err := evalJQ(context.Background(), req.Query, req.Text)
	if err != nil {
		te, ok := err.(*tool.Error)
		if !ok {
			te = tool.Errorf(tool.CodeFailed, "", "jq: %v", err)
		}
		answer(jqAnswer{Error: te})
		return 0
	}
	answer(jqAnswer{Results: results, Truncated: truncated})
	return 0
}

// watchHeap ends the worker with a "memory" answer once its heap passes
// jqMaxHeap.
func watchHeap() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for range time.Tick(5 * time.Millisecond) {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > jqMaxHeap {
			answer(jqAnswer{Limit: "memory"})
			os.Exit(3)
		}
	}
}

// runJQ runs a jq program over one JSON value in a worker process in the
// jail and answers its results, or a tool error saying which limit the
// program exceeded. The server is never at risk.
func (a *assistant) runJQ(ctx context.Context, program, text string) (*tool.Result, error) {
	if len(program) > maxJQQuery {
		return nil, tool.Invalid("query", fmt.Sprintf("query is %d bytes, above the limit of %d", len(program), maxJQQuery), "")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("coding_assistant: jq worker: %w", err)
	}
	req, err := json.Marshal(jqRequest{Query: program, Text: text})
	if err != nil {
		return nil, fmt.Errorf("coding_assistant: jq worker: %w", err)
	}
	memoryMB := jqMemoryMB
	if raceBuild {
		memoryMB = -1 // the race detector maps terabytes of shadow memory
	}
	res, err := a.d.Run(ctx, jail.Spec{
		Argv:      []string{jqWorkerPath},
		Env:       []string{jqWorkerEnv + "=1", "GOMAXPROCS=1", "GOTRACEBACK=none"},
		Binds:     []jail.Bind{{Source: exe, Target: jqWorkerPath}},
		Stdin:     strings.NewReader(string(req)),
		Limits:    jail.Limits{CPUSeconds: jqCPUSeconds, MemoryMB: memoryMB, FileSizeMB: 1, Processes: -1},
		Timeout:   jqTimeout,
		StdoutCap: 2*maxJQOut + 64<<10,
		StderrCap: 8 << 10,
	})
	switch {
	case ctx.Err() != nil || err == nil && res.TimedOut:
		return nil, tool.Errorf(tool.CodeTimeout, "simplify the query; it did not finish in time", "jq query stopped: it did not finish in time")
	case err != nil:
		return nil, tool.Errorf(tool.CodeUnavailable, "see clawbridge doctor", "the jq worker cannot run in the jail: %v", err)
	}
	var ans jqAnswer
	if json.Unmarshal([]byte(res.Stdout), &ans) != nil {
		ans = jqAnswer{Limit: workerLimit(res)}
	}
	switch {
	case ans.Limit != "":
		return nil, &tool.Error{Code: tool.CodeTooLarge, Field: "query", Message: "the jq program exceeded the " + ans.Limit + " limit",
			Hint: fmt.Sprintf("jq runs with at most %d MB of memory, %d MB of stack and %d s of CPU; simplify the query", jqMaxHeap>>20, jqMaxStack>>20, jqCPUSeconds)}
	case ans.Error != nil:
		return nil, ans.Error
	}
	data := map[string]any{"valid": true, "results": ans.Results, "count": len(ans.Results)}
	if ans.Results == nil {
		data["results"] = []json.RawMessage{}
	}
	if ans.Truncated != "" {
		data["truncated"] = ans.Truncated
	}
	return &tool.Result{Summary: fmt.Sprintf("jq returned %s", wording.Count(len(ans.Results), "result", "results")), Data: data}, nil
}

// workerLimit names the limit a worker that gave no answer ran into: the
// CPU time (killed by SIGXCPU or SIGKILL), or what the Go runtime's own
// lines say: "fatal error: stack overflow", "fatal error: out of memory",
// or a thread it could not start for want of address space.
func workerLimit(res *jail.Result) string {
	for _, line := range strings.Split(res.Stderr, "\n") {
		switch {
		case line == "fatal error: stack overflow":
			return "stack (nesting depth)"
		case strings.HasPrefix(line, "fatal error: ") && strings.Contains(line, "out of memory"),
			strings.HasPrefix(line, "runtime/cgo: pthread_create failed"), line == "fatal error: newosproc":
			return "memory"
		}
	}
	switch res.Signal {
	case platform.CPUTimeSignal, syscall.SIGKILL.String():
		return "CPU time"
	}
	return fmt.Sprintf("worker's (it ended with exit %d %s and no answer)", res.ExitCode, res.Signal)
}
