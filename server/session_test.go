package server

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Session isolation, through real mcp-go clients over streamable HTTP (both
// protocol eras) and over stdio pipes.

// fixture is a server with tools that make isolation observable.
type fixture struct {
	s       *Server
	runs    atomic.Int32  // runs of the high tool
	release chan struct{} // unblocks the "block" tool
}

func newFixture(t *testing.T, policy string, cap int) *fixture {
	t.Helper()
	return newFixtureOn(t, policy, cap, nil)
}

// newFixtureOn is newFixture on st (nil: a SQLite store of its own), for
// several servers on one database.
func newFixtureOn(t *testing.T, policy string, cap int, st *store.Store) *fixture {
	t.Helper()
	d := tooltest.Deps(t)
	if st != nil {
		d.Store = st
	}
	d.Config.Confirm = policy
	d.Config.Limits.ConcurrentCalls = cap
	d.Config.Limits.ResultChars = 1000
	f := &fixture{release: make(chan struct{})}
	text := []tool.Param{{Name: "text", Type: tool.String, Description: "text", Required: true}}
	tools := []tool.Tool{
		{Name: "echo", Title: "Echo", Description: "Echoes its text; with text 'block' it waits.", Examples: []string{"echo"},
			Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Params: text,
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					switch c.Args.String("text") {
					case "block":
						select {
						case <-f.release:
						case <-ctx.Done():
						}
					case "long":
						return &tool.Result{Summary: strings.Repeat("secret line of session output\n", 100)}, nil
					}
					return &tool.Result{Summary: "echo: " + c.Args.String("text")}, nil
				}}}},
		{Name: "danger", Title: "Danger", Description: "A high action that counts its runs.", Examples: []string{"danger"},
			Actions: []tool.Action{{Level: tool.High, Timeout: tool.Fast, Params: append(text,
				tool.Param{Name: "password", Type: tool.String, Description: "a secret the preview must not show"}),
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					f.runs.Add(1)
					return &tool.Result{Summary: "ran " + c.Args.String("text")}, nil
				}}}},
		{Name: "flaky", Title: "Flaky", Description: "A network tool that always fails.", Examples: []string{"flaky"}, OpenWorld: true,
			Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Params: text,
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					return nil, tool.Errorf(tool.CodeFailed, "", "upstream down")
				}}}},
	}
	s := newServer(t, d, tools...)
	s.confirmer.poll = 20 * time.Millisecond
	f.s = s
	return f
}

func (f *fixture) http(t *testing.T) string {
	ts := httptest.NewServer(testHandler(t, f.s, "127.0.0.1:0"))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// httpWithToken is http behind token; it also returns the header of a
// client holding the token.
func (f *fixture) httpWithToken(t *testing.T, token string) (string, map[string]string) {
	f.s.cfg.HTTP.Token = token
	return f.http(t), bearerHeader(token)
}

// bearerHeader is the Authorization header of a client holding token.
func bearerHeader(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// dial connects a real client; opts may add an elicitation handler.
func dial(t *testing.T, url, version string, headers map[string]string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers)}
	if version != mcp.ProtocolVersion20260728 {
		//lint:ignore SA1019 the standalone GET stream is how pre-2026-07-28 clients get notifications
		topts = append(topts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	return start(t, c, version)
}

func start(t *testing.T, c *client.Client, version string) *client.Client {
	t.Helper()
	if err := c.Start(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := bridgetest.Initialize(ctxFor(t), c, version, "session-test"); err != nil {
		t.Fatalf("initialize %s: %v", version, err)
	}
	return c
}

func call(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return bridgetest.Call(ctxFor(t), t, c, name, args)
}

func read(c *client.Client, ctx context.Context, uri string) (string, error) {
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.ReadResource(ctx, req)
	if err != nil {
		return "", err
	}
	return res.Contents[0].(mcp.TextResourceContents).Text, nil
}

func resultURIIn(r *mcp.CallToolResult) string {
	txt := text(r)
	i := strings.Index(txt, resultsPrefix)
	if i < 0 {
		return ""
	}
	end := strings.IndexAny(txt[i:], "] \n")
	return txt[i : i+end]
}

// Two anonymous 2026-07-28 callers share nothing: not the routing, not the
// exposure text, not traces, loop guard, concurrency slots or tokens.
func TestSessionIsolation_AnonymousStateless(t *testing.T) {
	f := newFixture(t, "token", 1)
	url := f.http(t)
	a := dial(t, url, mcp.ProtocolVersion20260728, nil)
	b := dial(t, url, mcp.ProtocolVersion20260728, nil)
	ctx := ctxFor(t)

	if r := call(t, a, "find_tools", map[string]any{"request": "合并这三个PDF 机密项目"}); r.IsError {
		t.Fatal(text(r))
	}
	for _, c := range []*client.Client{b, a} { // a keeps nothing between its own requests either
		exp, err := read(c, ctx, "clawbridge://session/exposure")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(exp, "机密") || strings.Contains(exp, "routed") {
			t.Fatalf("an anonymous caller sees routing it did not do in this request: %s", exp)
		}
	}

	call(t, a, "echo", map[string]any{"text": "a-trace"})
	tr, err := read(b, ctx, "clawbridge://session/traces")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tr, "echo") {
		t.Fatalf("b reads a's traces: %s", tr)
	}

	// Loop guard: a's repeats do not count against b.
	same := map[string]any{"text": "same"}
	for i := 0; i < 4; i++ {
		call(t, a, "echo", same)
	}
	if r := call(t, b, "echo", same); r.IsError {
		t.Fatalf("a's repeats tripped b's loop guard: %s", text(r))
	}

	// Concurrency cap 1: a's call in flight does not hold b's slot.
	done := make(chan *mcp.CallToolResult, 1)
	go func() { done <- call(t, a, "echo", map[string]any{"text": "block"}) }()
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	if r := call(t, b, "echo", map[string]any{"text": "free"}); r.IsError || time.Since(began) > 3*time.Second {
		t.Fatalf("b waited for a's slot: %s", text(r))
	}
	close(f.release)
	if r := <-done; r.IsError {
		t.Fatal(text(r))
	}

	// Token policy: a token issued to a cannot be spent by b.
	args := map[string]any{"text": "rm -rf"}
	preview := call(t, a, "danger", args)
	tok, _ := preview.StructuredContent.(map[string]any)["confirm_token"].(string)
	if tok == "" {
		t.Fatalf("no token: %s", text(preview))
	}
	args["confirm_token"] = tok
	if r := call(t, b, "danger", args); !r.IsError || f.runs.Load() != 0 {
		t.Fatalf("b spent a's token: %s", text(r))
	}

	// A long result is not kept for a caller that cannot come back for it.
	long := call(t, a, "echo", map[string]any{"text": "long"})
	if resultURIIn(long) != "" || !strings.Contains(text(long), "stateless caller") {
		t.Fatalf("anonymous long result: %s", text(long)[900:])
	}
}

// A kept full result is readable by its session only; any other reader gets
// the same answer as for a result that never existed: -32002 for session-era
// clients.
func TestResultsResource_OtherSessionNotFound(t *testing.T) {
	f := newFixture(t, "token", 3)
	url := f.http(t)
	a := dial(t, url, mcp.ProtocolVersion20251125, nil)
	b := dial(t, url, mcp.ProtocolVersion20250618, nil)
	ctx := ctxFor(t)
	uri := resultURIIn(call(t, a, "echo", map[string]any{"text": "long"}))
	if uri == "" {
		t.Fatal("no kept result")
	}
	if full, err := read(a, ctx, uri); err != nil || !strings.Contains(full, "secret line") {
		t.Fatalf("owner cannot read its result: %v", err)
	}
	_, foreign := read(b, ctx, uri)
	_, absent := read(b, ctx, resultsPrefix+"0123456789abcdef")
	for _, err := range []error{foreign, absent} {
		if !errors.Is(err, mcp.ErrResourceNotFound) {
			t.Fatalf("want -32002 resource not found, got %v", err)
		}
	}
	if strings.Contains(foreign.Error(), "secret") {
		t.Fatalf("the refusal leaks content: %v", foreign)
	}
}

// A stateless principal's kept result is not readable by a session-era
// client holding the same token (a different session).
func TestResultsResource_PrincipalVersusSession(t *testing.T) {
	f := newFixture(t, "token", 3)
	url, auth := f.httpWithToken(t, "tok-1")
	p := dial(t, url, mcp.ProtocolVersion20260728, auth)
	l := dial(t, url, mcp.ProtocolVersion20251125, auth)
	ctx := ctxFor(t)
	uri := resultURIIn(call(t, p, "echo", map[string]any{"text": "long"}))
	if uri == "" {
		t.Fatal("a principal's long result should be kept")
	}
	if _, err := read(p, ctx, uri); err != nil {
		t.Fatalf("principal cannot read its own result: %v", err)
	}
	if _, err := read(l, ctx, uri); !errors.Is(err, mcp.ErrResourceNotFound) {
		t.Fatalf("another session read the principal's result: %v", err)
	}
}

// One session's failures open the breaker for that session only.
func TestBreaker_PerSession(t *testing.T) {
	f := newFixture(t, "token", 3)
	a := f.s.sessions.get("a", "", kindConnection)
	b := f.s.sessions.get("b", "", kindConnection)
	for i := 0; i < breakerFailures; i++ {
		f.s.run(context.Background(), a, "flaky", map[string]any{"text": string(rune('a' + i))}, nil)
	}
	if r := f.s.run(context.Background(), a, "flaky", map[string]any{"text": "x"}, nil); !strings.Contains(text(r), "paused") {
		t.Fatalf("a's breaker should be open: %s", text(r))
	}
	if r := f.s.run(context.Background(), b, "flaky", map[string]any{"text": "x"}, nil); strings.Contains(text(r), "paused") || !strings.Contains(text(r), "upstream down") {
		t.Fatalf("a's failures paused the tool for b: %s", text(r))
	}
}

// stdioPair serves s over in-memory stdio and returns a client on it.
func stdioPair(t *testing.T, s *Server) *client.Client {
	t.Helper()
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.ServeStdio(ctx, sin, sout); close(done) }()
	t.Cleanup(func() { cancel(); cout.Close(); sout.Close(); <-done })
	return start(t, client.NewClient(transport.NewIO(cin, cout, io.NopCloser(strings.NewReader("")))), mcp.ProtocolVersion20251125)
}

// Two stdio server processes on one data dir: a confirm token issued in one
// is refused in the other.
func TestSessionIsolation_StdioProcesses(t *testing.T) {
	f1 := newFixture(t, "token", 3)
	d2 := *f1.s.deps
	st, err := store.OpenSQLite(f1.s.cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d2.Store = st
	s2, err := New(Options{Config: f1.s.cfg, Deps: &d2, Store: storeOf(&d2), Tools: func() []tool.Tool {
		var ts []tool.Tool
		for _, t := range f1.s.order {
			ts = append(ts, *t)
		}
		return ts
	}(), Log: zerolog.Nop(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := stdioPair(t, f1.s), stdioPair(t, s2)
	if f1.s.stdioKey == s2.stdioKey || !strings.HasPrefix(f1.s.stdioKey, "stdio:") {
		t.Fatalf("stdio keys must differ per process: %q %q", f1.s.stdioKey, s2.stdioKey)
	}
	args := map[string]any{"text": "x"}
	tok, _ := call(t, c1, "danger", args).StructuredContent.(map[string]any)["confirm_token"].(string)
	if tok == "" {
		t.Fatal("no token")
	}
	args["confirm_token"] = tok
	if r := call(t, c2, "danger", args); !r.IsError || !strings.Contains(text(r), "confirm") {
		t.Fatalf("a token from another process was accepted: %s", text(r))
	}
	if r := call(t, c1, "danger", args); r.IsError || f1.runs.Load() != 1 {
		t.Fatalf("the issuing process must accept its token: %s", text(r))
	}
}
