package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

// Protocol details checked through real mcp-go clients.

func initialize(t *testing.T, url, version string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	if err := c.Start(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	res, err := bridgetest.Initialize(ctxFor(t), c, version, "protocol-test")
	if err != nil {
		t.Fatal(err)
	}
	return c, res
}

func TestProtocol_Capabilities(t *testing.T) {
	f := newFixture(t, "token", 3)
	_, res := initialize(t, f.http(t), mcp.ProtocolVersion20251125)
	caps := res.Capabilities
	if caps.Logging == nil {
		t.Error("the server must declare logging: it sends notifications/message")
	}
	if caps.Elicitation != nil {
		t.Error("elicitation is a client capability; the server must not declare it")
	}
	if caps.Tools == nil || !caps.Tools.ListChanged {
		t.Error("tools.listChanged must be declared: views change per session")
	}
}

func TestPrompt_MissingRequiredArgumentIsInvalidParams(t *testing.T) {
	f := newFixture(t, "token", 3)
	url := f.http(t)
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		c, _ := initialize(t, url, version)
		for _, args := range []map[string]string{nil, {"request": "  "}, {"other": "x"}} {
			req := mcp.GetPromptRequest{}
			req.Params.Name = "task"
			req.Params.Arguments = args
			_, err := c.GetPrompt(ctxFor(t), req)
			if !errors.Is(err, mcp.ErrInvalidParams) || !strings.Contains(err.Error(), `missing required argument "request"`) {
				t.Fatalf("%s %v: want -32602 naming the argument, got %v", version, args, err)
			}
		}
		req := mcp.GetPromptRequest{}
		req.Params.Name = "task"
		req.Params.Arguments = map[string]string{"request": "merge two PDFs"}
		if res, err := c.GetPrompt(ctxFor(t), req); err != nil || len(res.Messages) == 0 {
			t.Fatalf("%s: the prompt with its argument must answer: %v", version, err)
		}
	}
}

func TestLogging_LongCallSendsMessage(t *testing.T) {
	defer func(d time.Duration) { longCallNotice = d }(longCallNotice)
	longCallNotice = 100 * time.Millisecond
	f := newFixture(t, "token", 3)
	c, _ := initialize(t, f.http(t), mcp.ProtocolVersion20251125)
	got := make(chan string, 4)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/message" {
			got <- fmt.Sprint(n.Params.AdditionalFields["data"])
		}
	})
	lv := mcp.SetLevelRequest{}
	lv.Params.Level = mcp.LoggingLevelInfo
	//lint:ignore SA1019 the server declares logging for the protocol versions before 2026-07-28; this tests it
	if err := c.SetLevel(ctxFor(t), lv); err != nil {
		t.Fatal(err)
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = map[string]any{"text": "block"}
		r, _ := c.CallTool(ctxFor(t), req)
		done <- r
	}()
	select {
	case msg := <-got:
		if !strings.Contains(msg, "echo is still running") {
			t.Fatalf("message: %q", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/message for a long call")
	}
	close(f.release)
	if r := <-done; r == nil || r.IsError {
		t.Fatalf("the long call must still succeed: %+v", r)
	}
}

// A tokened 2026-07-28 client that opened subscriptions/listen for
// tools/list_changed is not told anything when its own requests route (its
// list never changes with them), and is told when the server's tools
// change (a downstream server's list: the bridge calls viewChanged on every
// session); a stream of another principal is not.
func TestListChanged_StatelessSubscriber(t *testing.T) {
	f := newFixture(t, "token", 3)
	url, auth := f.httpWithToken(t, "tok-1")
	listener := dial(t, url, mcp.ProtocolVersion20260728, auth)
	changed := make(chan struct{}, 8)
	listener.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			changed <- struct{}{}
		}
	})
	stop, err := listener.ListenAsync(ctxFor(t), mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) { t.Errorf("listen: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	principal := f.s.sessions.get(principalOf("tok-1"), "", kindPrincipal)
	deadline := time.Now().Add(10 * time.Second)
	for f.s.listenerCount(principal.key) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the listen stream was never recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Another request of the same principal routes: its list stays.
	caller := dial(t, url, mcp.ProtocolVersion20260728, auth)
	if r := call(t, caller, exposure.FindTools, map[string]any{"request": "merge these three PDF files into one"}); r.IsError {
		t.Fatalf("find_tools: %s", text(r))
	}
	select {
	case <-changed:
		t.Fatal("a request's routing sent list_changed to a 2026-07-28 principal")
	case <-time.After(300 * time.Millisecond):
	}
	// The server's tools change: the stream hears it.
	f.s.viewChanged(principal)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no notifications/tools/list_changed on the principal's listen stream (direct send reached %d)", f.s.notifyListChanged(principal.key))
	}
	// Another principal's view change is not sent to this stream.
	other := f.s.sessions.get(principalOf("tok-2"), "", kindPrincipal)
	if n := f.s.notifyListChanged(other.key); n != 0 {
		t.Fatalf("sent to %d streams of a principal that has none", n)
	}
	select {
	case <-changed:
		t.Fatal("a notification reached a stream it was not for")
	case <-time.After(200 * time.Millisecond):
	}
	stop()
	for f.s.listenerCount(principal.key) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("a closed listen stream is still recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func principalOf(token string) string {
	return withPrincipal(context.Background(), token).Value(principalKey{}).(string)
}

// The README names the protocol versions accepted; this pins them, on
// streamable HTTP and on stdio, through real clients: each is answered in
// its own version and a request after the handshake works.
func TestProtocolVersions_Accepted(t *testing.T) {
	accepted := []string{mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618,
		mcp.ProtocolVersion20250326, mcp.ProtocolVersion20241105}
	f := newFixture(t, "token", 3)
	url := f.http(t)
	for _, v := range accepted {
		c, res := initialize(t, url, v)
		if res.ProtocolVersion != v {
			t.Errorf("http %s: answered in %s", v, res.ProtocolVersion)
		}
		if _, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{}); err != nil {
			t.Errorf("http %s: tools/list: %v", v, err)
		}
	}
	for _, v := range accepted {
		s := testServer(t)
		cin, sout := io.Pipe()
		sin, cout := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.ServeStdio(ctx, sin, sout); close(done) }()
		c := client.NewClient(transport.NewIO(cin, cout, io.NopCloser(strings.NewReader(""))))
		if err := c.Start(ctxFor(t)); err != nil {
			t.Fatal(err)
		}
		res, err := bridgetest.Initialize(ctxFor(t), c, v, "versions")
		switch {
		case err != nil:
			t.Errorf("stdio %s: %v", v, err)
		case res.ProtocolVersion != v:
			t.Errorf("stdio %s: answered in %s", v, res.ProtocolVersion)
		default:
			if _, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{}); err != nil {
				t.Errorf("stdio %s: tools/list: %v", v, err)
			}
		}
		c.Close()
		cancel()
		cout.Close()
		sout.Close()
		<-done
	}
}
