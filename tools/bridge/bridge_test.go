package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func manager(t *testing.T, servers ...config.BridgeServer) *downstream.Manager {
	t.Helper()
	b := config.Bridge{Servers: servers, StartTimeout: 30 * time.Second, CallTimeout: time.Minute, IdleStop: time.Hour}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	g, _ := netguard.New([]string{"127.0.0.1"}) // loopback: the HTTP test servers
	m, err := downstream.New(downstream.Options{Config: b, DataDir: t.TempDir(), Guard: g, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func run(t *testing.T, tl tool.Tool, args map[string]any) (*tool.Result, tool.Level, error) {
	t.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		return nil, "", err
	}
	r, err := tl.Handle(context.Background(), c)
	return r, tl.LevelOf(c), err
}

// TestMCPBridgeLevels_ServerLevelAndTrustedAnnotations: a call runs at its
// server's level (default high); a read-only annotation lowers it only on
// a server whose annotations config trusts.
func TestMCPBridgeLevels_ServerLevelAndTrustedAnnotations(t *testing.T) {
	js := bridgetest.Script(t, "server-everything")
	m := manager(t,
		config.BridgeServer{Name: "plain", Command: "node", Args: []string{js, "stdio"}},
		config.BridgeServer{Name: "trusted", Command: "node", Args: []string{js, "stdio"}, TrustAnnotations: true, Level: "write"})
	tl := tooltest.Build(t, New, &tool.Deps{Bridge: Downstream(m)})
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, srv := range []string{"plain", "trusted"} {
		if _, _, err := run(t, tl, map[string]any{"action": "list_tools", "server": srv}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		server, tool string
		want         tool.Level
	}{
		{"plain", "get-sum", tool.High},                     // read-only annotation, not trusted
		{"trusted", "get-sum", tool.Read},                   // readOnlyHint trusted
		{"trusted", "toggle-simulated-logging", tool.Write}, // readOnlyHint false: the server's level
		{"nope", "get-sum", tool.High},                      // unknown server: the most careful
	}
	for _, c := range cases {
		call, err := tl.Prepare(map[string]any{"action": "call", "server": c.server, "tool": c.tool, "arguments": map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := tl.LevelOf(call); got != c.want {
			t.Errorf("%s/%s: level %s, want %s", c.server, c.tool, got, c.want)
		}
	}
	r, _, err := run(t, tl, map[string]any{"action": "call", "server": "plain", "tool": "get-sum", "arguments": map[string]any{"a": 1.5, "b": 2}})
	if err != nil || !strings.Contains(r.Data.(map[string]any)["text"].(string), "3.5") {
		t.Fatalf("call: %v %+v", err, r)
	}
}

// TestMCPBridgeListTools_Paged: pages cover every tool once, and
// next_offset is absent on the last page.
func TestMCPBridgeListTools_Paged(t *testing.T) {
	m := manager(t, config.BridgeServer{Name: "everything", Command: "node", Args: []string{bridgetest.Script(t, "server-everything"), "stdio"}})
	tl := tooltest.Build(t, New, &tool.Deps{Bridge: Downstream(m)})
	seen := map[string]bool{}
	off, total := 0, -1
	for page := 0; page < 20; page++ {
		r, _, err := run(t, tl, map[string]any{"action": "list_tools", "server": "everything", "offset": off, "limit": 4})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(r.Data)
		var d struct {
			Total, Offset int
			Next          *int `json:"next_offset"`
			Tools         []struct{ Name, Description string }
		}
		json.Unmarshal(raw, &d)
		total = d.Total
		for _, row := range d.Tools {
			if seen[row.Name] || strings.Contains(row.Description, "\n") {
				t.Fatalf("tool %s twice or multi-line", row.Name)
			}
			seen[row.Name] = true
		}
		if d.Next == nil {
			break
		}
		off = *d.Next
	}
	if len(seen) != total || total < 5 {
		t.Fatalf("saw %d of %d", len(seen), total)
	}
}

// TestMCPBridgeErrors_ClearToolErrors: no servers, an unknown server and a
// downstream isError answer are tool errors with a hint.
func TestMCPBridgeErrors_ClearToolErrors(t *testing.T) {
	_, _, err := run(t, tooltest.Build(t, New, &tool.Deps{}), map[string]any{"action": "list_servers"})
	if te, ok := tool.AsError(err); !ok || te.Code != tool.CodeUnavailable || !strings.Contains(te.Hint, "bridge.servers") {
		t.Fatalf("no servers: %v", err)
	}
	m := manager(t, config.BridgeServer{Name: "everything", Command: "node", Args: []string{bridgetest.Script(t, "server-everything"), "stdio"}})
	tl := tooltest.Build(t, New, &tool.Deps{Bridge: Downstream(m)})
	_, _, err = run(t, tl, map[string]any{"action": "list_tools", "server": "github"})
	if te, ok := tool.AsError(err); !ok || te.Field != "server" || !strings.Contains(te.Hint, "everything") {
		t.Fatalf("unknown server: %v", err)
	}
	_, err = Result("s", "t", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent("bad input: a")}})
	if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Message, "bad input: a") || te.Hint == "" {
		t.Fatalf("downstream error: %v", err)
	}
	_, _, err = run(t, tl, map[string]any{"action": "call", "server": "everything", "tool": "get-sum", "arguments": map[string]any{"a": "x"}})
	if _, ok := tool.AsError(err); !ok {
		t.Fatalf("a downstream validation failure is a tool error: %v", err)
	}
}

// TestMCPBridgeSSE_ThroughTheTool: mcp_bridge against server-everything
// over SSE: list_servers shows the transport's state, list_tools lists it,
// call passes arguments and returns the result intact with progress
// reported on the call, and a stopped server is a clear unavailable error
// and shows as failed with the error in list_servers.
func TestMCPBridgeSSE_ThroughTheTool(t *testing.T) {
	srv := bridgetest.ServeEverything(t, "sse")
	m := manager(t, config.BridgeServer{Name: "remote", URL: srv.URL("/sse"), Transport: "sse"})
	tl := tooltest.Build(t, New, &tool.Deps{Bridge: Downstream(m)})
	r, _, err := run(t, tl, map[string]any{"action": "list_tools", "server": "remote", "limit": 200})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(r.Data)
	if !strings.Contains(string(raw), `"name":"echo"`) || !strings.Contains(string(raw), `"name":"trigger-long-running-operation"`) {
		t.Fatalf("list_tools over SSE: %s", raw)
	}

	c, err := tl.Prepare(map[string]any{"action": "call", "server": "remote", "tool": "trigger-long-running-operation", "arguments": map[string]any{"duration": 1, "steps": 3}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var steps []float64
	c.Progress = func(done, total float64, _ string) { mu.Lock(); steps = append(steps, done); mu.Unlock() }
	r, err = tl.Handle(context.Background(), c)
	if err != nil || !strings.Contains(r.Data.(map[string]any)["text"].(string), "Steps: 3") {
		t.Fatalf("long-running over SSE: %v %+v", err, r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(steps) < 3 {
		t.Fatalf("progress over SSE: %v", steps)
	}

	msg := "多字节 ✓ \"q\" <b>&amp;</b>"
	r, _, err = run(t, tl, map[string]any{"action": "call", "server": "remote", "tool": "echo", "arguments": map[string]any{"message": msg}})
	if err != nil || r.Data.(map[string]any)["text"] != "Echo: "+msg {
		t.Fatalf("echo over SSE: %v %+v", err, r)
	}

	srv.Stop()
	_, _, stopped := run(t, tl, map[string]any{"action": "call", "server": "remote", "tool": "echo", "arguments": map[string]any{"message": "x"}})
	if te, ok := tool.AsError(stopped); !ok || te.Code != tool.CodeUnavailable || !strings.Contains(te.Message, "remote") || te.Hint == "" {
		t.Fatalf("a stopped SSE server: %v", stopped)
	}
	r, _, err = run(t, tl, map[string]any{"action": "list_servers"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = json.Marshal(r.Data)
	if !strings.Contains(string(raw), `"state":"failed"`) || !strings.Contains(string(raw), `"last_error":"`) {
		t.Fatalf("list_servers after the stop: %s", raw)
	}
	t.Logf("stopped: %v; list_servers: %s", stopped, raw)
}
