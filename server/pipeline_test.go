package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// testServer builds a server over the given tools with real deps.
func testServer(t *testing.T, tools ...tool.Tool) *Server {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Confirm = "token"
	s := newServer(t, d, tools...)
	return s
}

func echoTool(h tool.Handler) tool.Tool {
	return tool.Tool{
		Name: "echo", Title: "Echo", Description: "Echoes its text back; for pipeline tests.",
		Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Handler: h, Params: []tool.Param{
			{Name: "text", Type: tool.String, Description: "text", Required: true},
		}}},
		Examples: []string{"echo"},
	}
}

func TestLoopGuard(t *testing.T) {
	calls := 0
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		calls++
		return &tool.Result{Summary: c.Args.String("text")}, nil
	}))
	sess := s.sessions.get("loop", "", kindConnection)
	args := map[string]any{"text": "same"}
	for i := 0; i < 3; i++ {
		if r := s.run(context.Background(), sess, "echo", args, nil); r.IsError {
			t.Fatalf("call %d refused", i+1)
		}
	}
	r := s.run(context.Background(), sess, "echo", args, nil)
	if !r.IsError || !strings.Contains(text(r), "loop guard") {
		t.Fatalf("4th identical call: %v", text(r))
	}
	if calls != 3 {
		t.Fatalf("handler ran %d times", calls)
	}
	if r := s.run(context.Background(), sess, "echo", map[string]any{"text": "other"}, nil); r.IsError {
		t.Fatal("a different call after a refusal must run")
	}
}

// TestConcurrencyCap_RunsNAndQueuesTheNext proves the cap is N, not merely at
// most N: N calls of one session run at once, the N+1th waits (it neither
// runs nor is refused) and starts as soon as one of the N finishes.
func TestConcurrencyCap_RunsNAndQueuesTheNext(t *testing.T) {
	const n = 4 // not the default (3), so the configured value is what counts
	started := make(chan string, 2*n)
	release := make(chan struct{})
	d := tooltest.Deps(t)
	d.Config.Limits.ConcurrentCalls = n
	s := newServer(t, d, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		started <- c.Args.String("text")
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &tool.Result{Summary: "done"}, nil
	}))
	sess := s.sessions.get("cap", "", kindConnection)
	results := make(chan *mcp.CallToolResult, n+1)
	launch := func(i int) {
		go func() {
			results <- s.run(context.Background(), sess, "echo", map[string]any{"text": fmt.Sprint("call", i)}, nil)
		}()
	}
	waitStart := func(what string) string {
		t.Helper()
		select {
		case name := <-started:
			return name
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not start", what)
			return ""
		}
	}
	for i := range n {
		launch(i)
	}
	for i := range n {
		waitStart(fmt.Sprintf("call %d of %d (under the cap)", i+1, n))
	}
	launch(n)
	select {
	case name := <-started:
		t.Fatalf("%s started while %d calls were in flight (cap %d)", name, n, n)
	case r := <-results:
		t.Fatalf("call %d returned while it should wait for a slot: %s", n+1, text(r))
	case <-time.After(300 * time.Millisecond):
	}
	release <- struct{}{} // one of the n finishes...
	if r := <-results; r.IsError {
		t.Fatalf("released call: %s", text(r))
	}
	if name := waitStart("the waiting call"); name != fmt.Sprint("call", n) {
		t.Fatalf("%s started, want the waiting call%d", name, n)
	}
	for range n {
		release <- struct{}{}
	}
	for range n {
		if r := <-results; r.IsError {
			t.Fatalf("call under the cap failed: %s", text(r))
		}
	}
	if len(sess.sem) != 0 {
		t.Fatalf("%d slots still held after every call returned", len(sess.sem))
	}
}

func TestPanic_BecomesInternalError(t *testing.T) {
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		panic("boom")
	}))
	sess := s.sessions.get("panic", "", kindConnection)
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "panic"}, nil)
	if !r.IsError || !strings.Contains(text(r), "internal error") || strings.Contains(text(r), "boom") {
		t.Fatalf("a panic must become an isError result without the panic value: %s", text(r))
	}
	if len(sess.sem) != 0 {
		t.Fatal("a panicking call kept its slot")
	}
}

func TestValidationErrorsArePrecise(t *testing.T) {
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return &tool.Result{}, nil }))
	sess := s.sessions.get("v", "", kindConnection)
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "missing required field 'text'"},
		{map[string]any{"text": 3.0}, "field 'text' must be a string, got a number"},
		{map[string]any{"text": "x", "txet": 1.0}, "unknown field txet for echo (did you mean text?)"},
	}
	for _, c := range cases {
		r := s.run(context.Background(), sess, "echo", c.args, nil)
		if !r.IsError || !strings.Contains(text(r), c.want) {
			t.Errorf("%v: got %q, want %q", c.args, text(r), c.want)
		}
	}
}

// TestClientAddedFields_NeverFailACall: Gemini CLI adds wait_for_previous
// to every tool's schema and forwards it; the call runs without it, and
// the result says it was ignored.
func TestClientAddedFields_NeverFailACall(t *testing.T) {
	var got map[string]any
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		got = c.Args
		return &tool.Result{Summary: "echoed"}, nil
	}))
	sess := s.sessions.get("g", "", kindConnection)
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "x", "wait_for_previous": true}, nil)
	if r.IsError || !strings.Contains(text(r), "ignored wait_for_previous: not a parameter of echo") {
		t.Fatalf("got %q", text(r))
	}
	if _, ok := got["wait_for_previous"]; ok || got["text"] != "x" {
		t.Fatalf("the handler saw %v", got)
	}
}

// text is a tool result's text content, as a client shows it.
var text = bridgetest.Text

// storeOf is the database of tooltest's Deps, which the server keeps its
// own rows in.
func storeOf(d *tool.Deps) *store.Store { return d.Store.(*store.Store) }

// newServer is the server over d's config and store with tools, its log
// quiet; an error fails tb.
func newServer(tb testing.TB, d *tool.Deps, tools ...tool.Tool) *Server {
	tb.Helper()
	s, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Tools: tools, Log: zerolog.Nop(), Version: "test"})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// allTools is every native tool over d.
func allTools(tb testing.TB, d *tool.Deps) []tool.Tool {
	tb.Helper()
	reg, err := tools.All(d)
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}
