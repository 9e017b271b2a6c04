package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
)

func TestPipeline_StagesInDocumentedOrder(t *testing.T) {
	s := testServer(t)
	var names []string
	for _, st := range s.pipeline() {
		names = append(names, st.name)
	}
	want := []string{"recovery", "trace and audit", "exposure accounting", "loop guard", "argument validation",
		"confirmation", "concurrency cap", "timeout by class", "retry transient reads", "circuit breaker"}
	if !slices.Equal(names, want) {
		t.Fatalf("pipeline order:\n got %q\nwant %q", names, want)
	}
}

// slowTool sleeps without looking at its ctx.
func slowTool(sleep time.Duration, finished chan<- struct{}) tool.Tool {
	tl := echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		time.Sleep(sleep)
		close(finished)
		return &tool.Result{Summary: "late"}, nil
	})
	return tl
}

func TestTimeout_HoldsWhenHandlerIgnoresContext(t *testing.T) {
	finished := make(chan struct{})
	s := testServer(t, slowTool(1500*time.Millisecond, finished))
	s.cfg.Limits.FastTimeout = 200 * time.Millisecond
	sess := s.sessions.get("slow", "", kindConnection)
	start := time.Now()
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "x"}, nil)
	took := time.Since(start)
	if !r.IsError || !strings.Contains(text(r), "timeout: echo timed out after 200ms") {
		t.Fatalf("want a timeout error, got %q", text(r))
	}
	if took > time.Second {
		t.Fatalf("the call returned after %s; the deadline is 200ms", took)
	}
	// The abandoned handler keeps its slot until it really ends.
	if n := len(sess.sem); n != 1 {
		t.Fatalf("slots in use after the timeout: %d, want 1 (the handler still runs)", n)
	}
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("handler never finished")
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(sess.sem) != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(sess.sem); n != 0 {
		t.Fatalf("slot not given back after the late handler ended: %d in use", n)
	}
}

func TestTimeout_HandlerThatHonoursContext(t *testing.T) {
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	s.cfg.Limits.FastTimeout = 100 * time.Millisecond
	sess := s.sessions.get("honour", "", kindConnection)
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "x"}, nil)
	if !r.IsError || !strings.Contains(text(r), "timed out after 100ms") {
		t.Fatalf("want a timeout error, got %q", text(r))
	}
	// The deadline and the handler's own return race; the slot is given
	// back when the handler has really ended, which here is at once.
	for deadline := time.Now().Add(2 * time.Second); len(sess.sem) != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("slot still held: %d", len(sess.sem))
		}
	}
}

func TestTimeout_PanicInHandlerIsInternalError(t *testing.T) {
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) { panic("boom") }))
	sess := s.sessions.get("p", "", kindConnection)
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "x"}, nil)
	if !r.IsError || !strings.Contains(text(r), "internal error in echo") {
		t.Fatalf("got %q", text(r))
	}
	rows := s.traces(context.Background(), sess.key).Calls
	if len(rows) != 1 || rows[0].Status != "panic" {
		t.Fatalf("trace of a panicking call: %+v", rows)
	}
}

// flaky fails the first call with err, then succeeds.
func flakyRead(err error, calls *int, idempotent bool) tool.Tool {
	tl := echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		*calls++
		if *calls == 1 {
			return nil, err
		}
		return &tool.Result{Summary: "second try"}, nil
	})
	tl.Actions[0].Idempotent = idempotent
	return tl
}

type markedTransient struct{ error }

func (markedTransient) Transient() bool { return true }

type httpStatusError struct{ code int }

func (e httpStatusError) Error() string   { return fmt.Sprintf("HTTP %d", e.code) }
func (e httpStatusError) StatusCode() int { return e.code }

func TestRetry_TransientErrorsRetriedOnce(t *testing.T) {
	cases := map[string]error{
		"connection reset": &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)},
		"refused":          fmt.Errorf("dial: %w", syscall.ECONNREFUSED),
		"net timeout":      &net.DNSError{Err: "i/o timeout", IsTimeout: true},
		"5xx":              fmt.Errorf("fetch: %w", httpStatusError{503}),
		"marked":           markedTransient{errors.New("upstream busy")},
	}
	for name, err := range cases {
		t.Run(name, func(t *testing.T) {
			calls := 0
			s := testServer(t, flakyRead(err, &calls, true))
			r := s.run(context.Background(), s.sessions.get("retry-"+name, "", kindConnection), "echo", map[string]any{"text": "x"}, nil)
			if r.IsError || calls != 2 || !strings.Contains(text(r), "second try") {
				t.Fatalf("calls=%d result=%q: a transient error must be retried once", calls, text(r))
			}
		})
	}
}

func TestRetry_BugsAndToolErrorsNotRetried(t *testing.T) {
	cases := map[string]error{
		"plain go error": errors.New("assignment to entry in nil map"),
		"tool error":     tool.Errorf(tool.CodeUnavailable, "", "service down"),
		"4xx":            httpStatusError{404},
		"cancelled":      context.Canceled,
	}
	for name, err := range cases {
		t.Run(name, func(t *testing.T) {
			calls := 0
			s := testServer(t, flakyRead(err, &calls, true))
			r := s.run(context.Background(), s.sessions.get("noretry-"+name, "", kindConnection), "echo", map[string]any{"text": "x"}, nil)
			if !r.IsError || calls != 1 {
				t.Fatalf("calls=%d result=%q: must not be retried", calls, text(r))
			}
		})
	}
	t.Run("optional output saved", func(t *testing.T) {
		// An action that writes only when asked is retried as the read it
		// is without output, and never once it has written a file.
		for _, tc := range []struct {
			args  map[string]any
			calls int
		}{{map[string]any{"text": "x"}, 2}, {map[string]any{"text": "x", "output": "a.txt"}, 1}} {
			calls := 0
			tl := flakyRead(syscall.ECONNRESET, &calls, true)
			tl.Actions[0].Level, tl.Actions[0].OptionalOutput = tool.Write, true
			tl.Actions[0].Params = append(tl.Actions[0].Params, tool.OutputParam(""), tool.Overwrite)
			s := testServer(t, tl)
			s.run(context.Background(), s.sessions.get(fmt.Sprint("optional-", tc.args), "", kindConnection), "echo", tc.args, nil)
			if calls != tc.calls {
				t.Errorf("%v: %d calls, want %d", tc.args, calls, tc.calls)
			}
		}
	})
	t.Run("not idempotent", func(t *testing.T) {
		calls := 0
		s := testServer(t, flakyRead(syscall.ECONNRESET, &calls, false))
		r := s.run(context.Background(), s.sessions.get("noretry-write", "", kindConnection), "echo", map[string]any{"text": "x"}, nil)
		if !r.IsError || calls != 1 {
			t.Fatalf("calls=%d: a call that is not idempotent is never retried", calls)
		}
	})
}

// stageAlone runs one stage with a fake rest of the pipeline.
func stageAlone(st stage, c *callState, rest next) (*tool.Result, error) {
	return st.run(context.Background(), c, rest)
}

func TestStage_CircuitBreakerAlone(t *testing.T) {
	s := testServer(t)
	tl := echoTool(nil)
	tl.OpenWorld = true
	c := &callState{name: "echo", tool: &tl, sess: s.sessions.get("brk", "", kindConnection), status: "ok"}
	ran := 0
	failing := func(ctx context.Context, c *callState) (*tool.Result, error) {
		ran++
		return nil, errors.New("connection refused")
	}
	for i := 0; i < breakerFailures; i++ {
		stageAlone(stage{"circuit breaker", s.breakerStage}, c, failing)
	}
	_, err := stageAlone(stage{"circuit breaker", s.breakerStage}, c, failing)
	if !isToolError(err, tool.CodeUnavailable) || ran != breakerFailures || c.status != "refused" {
		t.Fatalf("after %d failures: err=%v ran=%d status=%s", breakerFailures, err, ran, c.status)
	}
	// Bad input is not the dependency's fault.
	c2 := &callState{name: "echo", tool: &tl, sess: s.sessions.get("brk2", "", kindConnection)}
	bad := func(ctx context.Context, c *callState) (*tool.Result, error) {
		return nil, tool.Invalid("text", "bad", "")
	}
	for i := 0; i < breakerFailures+2; i++ {
		if _, err := s.breakerStage(context.Background(), c2, bad); isToolError(err, tool.CodeUnavailable) {
			t.Fatal("invalid arguments opened the breaker")
		}
	}
}

func TestStage_ConcurrencyCapAlone(t *testing.T) {
	s := testServer(t)
	sess := s.sessions.get("capalone", "", kindConnection)
	if cap(sess.sem) < 2 {
		t.Fatalf("test needs a cap above 1, have %d", cap(sess.sem))
	}
	for i := 0; i < cap(sess.sem); i++ {
		sess.sem <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ran := false
	_, err := s.concurrencyStage(ctx, &callState{sess: sess}, func(context.Context, *callState) (*tool.Result, error) { ran = true; return nil, nil })
	if ran || !isToolError(err, tool.CodeTimeout) {
		t.Fatalf("a full session must not run the call: ran=%v err=%v", ran, err)
	}
	<-sess.sem
	if _, err := s.concurrencyStage(context.Background(), &callState{sess: sess}, func(context.Context, *callState) (*tool.Result, error) { ran = true; return nil, nil }); err != nil || !ran {
		t.Fatalf("a free slot must run the call: %v", err)
	}
	if len(sess.sem) != cap(sess.sem)-1 {
		t.Fatalf("slot not given back: %d in use", len(sess.sem))
	}
}

func TestStage_LoopGuardAlone(t *testing.T) {
	s := testServer(t)
	c := &callState{name: "echo", args: map[string]any{"text": "same"}, sess: s.sessions.get("lg", "", kindConnection)}
	ok := func(context.Context, *callState) (*tool.Result, error) { return &tool.Result{}, nil }
	for i := 0; i < s.cfg.Limits.LoopRepeats; i++ {
		if _, err := s.loopGuardStage(context.Background(), c, ok); err != nil {
			t.Fatalf("call %d refused: %v", i+1, err)
		}
	}
	if _, err := s.loopGuardStage(context.Background(), c, ok); !isToolError(err, tool.CodeDenied) {
		t.Fatalf("repeat beyond the limit: %v", err)
	}
}

func TestStage_ValidationAlone(t *testing.T) {
	s := testServer(t)
	tl := echoTool(nil)
	c := &callState{name: "echo", tool: &tl, args: map[string]any{"text": 1.0}, sess: s.sessions.get("val", "", kindConnection)}
	ran := false
	_, err := s.validationStage(context.Background(), c, func(context.Context, *callState) (*tool.Result, error) { ran = true; return nil, nil })
	if ran || !isToolError(err, tool.CodeInvalid) {
		t.Fatalf("invalid arguments must stop the call: ran=%v err=%v", ran, err)
	}
}

func TestTransient_Classification(t *testing.T) {
	for err, want := range map[error]bool{
		nil:                              false,
		errors.New("index out of range"): false,
		syscall.ECONNRESET:               true,
		fmt.Errorf("x: %w", syscall.ECONNREFUSED): true,
		context.Canceled:                         false,
		httpStatusError{500}:                     true,
		httpStatusError{429}:                     false,
		tool.Errorf(tool.CodeFailed, "", "boom"): false,
	} {
		if got := transient(err); got != want {
			t.Errorf("transient(%v) = %v, want %v", err, got, want)
		}
	}
}
