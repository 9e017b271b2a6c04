package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

// testServer builds a server over the given tools with real deps.
func testServer(t *testing.T, tools ...tool.Tool) *Server {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Confirm = "token"
	s, err := New(Options{Config: d.Config, Deps: d, Tools: tools, Log: zerolog.Nop(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
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

func TestConcurrencyCapAndPanics(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	inFlight, peak := 0, 0
	s := testServer(t, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		if c.Args.String("text") == "panic" {
			panic("boom")
		}
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		return &tool.Result{}, nil
	}))
	sess := s.sessions.get("cap", "", kindConnection)
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s.run(context.Background(), sess, "echo", map[string]any{"text": string(rune('a' + i))}, nil)
		}(i)
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	wg.Wait()
	if peak > 3 {
		t.Fatalf("%d calls in flight, cap is 3", peak)
	}
	r := s.run(context.Background(), sess, "echo", map[string]any{"text": "panic"}, nil)
	if !r.IsError || !strings.Contains(text(r), "internal error") {
		t.Fatalf("a panic must become an isError result: %s", text(r))
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
		{map[string]any{"text": "x", "extra": 1.0}, "unknown field(s) extra"},
	}
	for _, c := range cases {
		r := s.run(context.Background(), sess, "echo", c.args, nil)
		if !r.IsError || !strings.Contains(text(r), c.want) {
			t.Errorf("%v: got %q, want %q", c.args, text(r), c.want)
		}
	}
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
