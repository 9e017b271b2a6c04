package e2e

// Progressive exposure as a client sees it, over every transport.

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// listChanged counts notifications/tools/list_changed on a client.
func listChanged(c *client.Client) chan struct{} {
	ch := make(chan struct{}, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			ch <- struct{}{}
		}
	})
	return ch
}

func waitChanged(t *testing.T, ch chan struct{}, why string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(15 * time.Second):
		t.Fatalf("no notifications/tools/list_changed after %s", why)
	}
}

func listTools(t *testing.T, c *client.Client) map[string]mcp.Tool {
	t.Helper()
	return bridgetest.Tools(ctxT(t), t, c)
}

func exposureState(t *testing.T, c *client.Client) map[string]any {
	t.Helper()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = "clawbridge://session/exposure"
	res, err := c.ReadResource(ctxT(t), req)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	json.Unmarshal([]byte(res.Contents[0].(mcp.TextResourceContents).Text), &st)
	return st
}

// journey: search's list (core, find_tools, call_tool) → find_tools →
// list_changed → the routed tools listed, pdf_tool tagged → an unlisted
// tool runs and is listed → two failures widen the view.
func journey(t *testing.T, c *client.Client) {
	changed := listChanged(c)
	first := listTools(t, c)
	_, find := first["find_tools"]
	_, call := first["call_tool"]
	_, listedPDF := first["pdf_tool"]
	if !find || !call || listedPDF || len(first) > 8 {
		t.Fatalf("the first list should be search's (core, find_tools, call_tool), got %d tools", len(first))
	}
	r := callTool(t, c, "find_tools", map[string]any{"request": "合并这三个PDF"})
	if r.IsError || !strings.Contains(text(r), "pdf_tool") {
		t.Fatalf("find_tools: %s", text(r))
	}
	waitChanged(t, changed, "find_tools")
	view := listTools(t, c)
	pdf, ok := view["pdf_tool"]
	if !ok || !strings.HasPrefix(pdf.Description, "[recommended]") {
		t.Fatalf("pdf_tool missing or not tagged [recommended]: %q", pdf.Description)
	}
	for _, core := range []string{"file", "shell", "find_tools"} {
		if _, ok := view[core]; !ok {
			t.Errorf("core tool %s missing from the recommended view", core)
		}
	}
	if len(view) <= len(first) || len(view) > 15 {
		t.Fatalf("recommended view has %d tools (first list %d)", len(view), len(first))
	}
	if exposureState(t, c)["tier"] != "recommended" {
		t.Fatalf("tier %v", exposureState(t, c)["tier"])
	}
	if _, listed := view["system"]; listed {
		t.Fatal("system should not be in a PDF view")
	}
	// Guide, not restrict: an unlisted tool runs and is pinned.
	r = callTool(t, c, "system", map[string]any{"action": "info"})
	if r.IsError {
		t.Fatalf("unlisted tool refused: %s", text(r))
	}
	waitChanged(t, changed, "calling an unlisted tool")
	if _, ok := listTools(t, c)["system"]; !ok {
		t.Fatal("called tool was not pinned into the view")
	}
	// Two failures in a row widen the view.
	for i := 0; i < 2; i++ {
		if r := callTool(t, c, "file", map[string]any{"action": "read", "path": "does-not-exist.txt"}); !r.IsError {
			t.Fatal("expected a failure")
		}
	}
	waitChanged(t, changed, "two failed calls")
	st := exposureState(t, c)
	if st["tier"] != "extended" {
		t.Fatalf("after two failures tier = %v", st["tier"])
	}
	if hist, _ := st["history"].([]any); len(hist) < 3 {
		t.Fatalf("history should record each transition with a reason: %v", st["history"])
	}
}

func TestExposureStdio(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	journey(t, stdioClient(t, e, "2025-11-25"))
}

func TestExposureStreamableHTTP(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	base := httpServer(t, e)
	a := httpClient(t, base, "2025-06-18")
	journey(t, a)
	// A second session keeps its own list: the first one (search's),
	// not the first session's grown one.
	b := listTools(t, httpClient(t, base, "2025-06-18"))
	if _, pdf := b["pdf_tool"]; pdf || len(b) >= len(listTools(t, a)) {
		t.Fatalf("second session's list (%d tools) should be its own first list, smaller than the first session's", len(b))
	}
}

func TestExposureSSE(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	base := httpServer(t, e)
	c := started(t)(client.NewSSEMCPClient(base + "/sse"))
	initialize(t, c, "2025-06-18")
	journey(t, c)
}

// search mode: only core and meta tools are listed; call_tool runs any tool.
func TestExposureSearchMode(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=search")
	c := stdioClient(t, e, "2025-06-18")
	names := listTools(t, c)
	for n := range names {
		if n != "find_tools" && n != "call_tool" && n != "file" && n != "shell" && n != "search" && n != "web_fetch" {
			t.Errorf("search mode lists %s", n)
		}
	}
	if _, ok := names["call_tool"]; !ok {
		t.Fatal("call_tool not listed in search mode")
	}
	r := callTool(t, c, "call_tool", map[string]any{"name": "system", "arguments": map[string]any{"action": "info"}})
	if r.IsError || r.StructuredContent == nil {
		t.Fatalf("call_tool system: %s", text(r))
	}
	// Clients that serialize the inner arguments send a JSON string.
	r = callTool(t, c, "call_tool", map[string]any{"name": "system", "arguments": `{"action": "info"}`})
	if r.IsError || r.StructuredContent == nil {
		t.Fatalf("call_tool system with arguments as a JSON string: %s", text(r))
	}
	r = callTool(t, c, "call_tool", map[string]any{"name": "system", "arguments": `{"action": "info"`})
	if !r.IsError || !strings.Contains(text(r), "arguments") {
		t.Fatalf("call_tool with broken JSON arguments: %s", text(r))
	}
	r = callTool(t, c, "find_tools", map[string]any{"request": "merge these PDFs", "include_schemas": "true"})
	if r.IsError || !strings.Contains(text(r), "input_schema") {
		t.Fatalf("find_tools with schemas: %s", text(r))
	}
}

// Auto mode picks per client: Claude Desktop (never re-reads the list) gets
// search; an unknown client gets tiered, whose first list is search's.
func TestExposureAutoMode(t *testing.T) {
	e := newEnv(t)
	tr := newStdioTransport(e)
	c := client.NewClient(tr)
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: "claude-ai", Version: "0.9"}
	if _, err := c.Initialize(ctxT(t), req); err != nil {
		t.Fatal(err)
	}
	if _, ok := listTools(t, c)["call_tool"]; !ok {
		t.Fatal("Claude Desktop should get the search view")
	}
	other := stdioClient(t, newEnv(t), "2025-06-18")
	if _, ok := listTools(t, other)["call_tool"]; !ok || exposureState(t, other)["mode"] != "tiered" {
		t.Fatalf("an unknown client should get tiered, starting with search's list: mode %v", exposureState(t, other)["mode"])
	}
}

// Stateless 2026-07-28 requests without a principal get a list that never
// changes, even with tiered configured (the spec: tools/list must not vary
// as a side effect of other requests): search's core + find_tools +
// call_tool; find_tools still routes, and call_tool reaches any tool.
func TestExposureStateless(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	base := httpServer(t, e)
	c := httpClient(t, base, "2026-07-28")
	if c.ProtocolVersion() != "2026-07-28" {
		t.Fatalf("negotiated %s", c.ProtocolVersion())
	}
	names := listTools(t, c)
	if _, ok := names["find_tools"]; !ok {
		t.Fatalf("stateless list has no find_tools: %v", names)
	}
	if _, ok := names["call_tool"]; !ok {
		t.Fatalf("stateless list has no call_tool: %v", names)
	}
	r := callTool(t, c, "find_tools", map[string]any{"request": "做一个介绍新产品的PPT"})
	if r.IsError || !strings.Contains(text(r), "ppt_generator") {
		t.Fatalf("find_tools: %s", text(r))
	}
	after := listTools(t, c)
	if len(after) != len(names) {
		t.Fatal("an anonymous stateless caller's list changed with its request")
	}
	if r := callTool(t, c, "call_tool", map[string]any{"name": "system", "arguments": map[string]any{"action": "info"}}); r.IsError {
		t.Fatalf("call_tool: %s", text(r))
	}
}

func httpClient(t *testing.T, base, version string) *client.Client {
	t.Helper()
	// Continuous listening (the GET stream) is how session-era clients
	// receive notifications sent outside a request, as list_changed may be;
	// it rules out the stateless era, which has no such stream.
	var opts []transport.StreamableHTTPCOption
	if version != "2026-07-28" {
		//lint:ignore SA1019 the standalone GET stream is how pre-2026-07-28 clients get list_changed
		opts = append(opts, transport.WithContinuousListening())
	}
	c, err := client.NewStreamableHttpClient(base+"/mcp", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	initialize(t, c, version)
	return c
}

// A stateless caller that authenticates gets a list that is a function of
// its token alone: the same before and after it routed.
func TestExposureStatelessPrincipal(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	base := httpServer(t, e, "--token", "principal-token")
	c := started(t)(client.NewStreamableHttpClient(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer principal-token"})))
	initialize(t, c, "2026-07-28")
	if c.ProtocolVersion() != "2026-07-28" {
		t.Fatalf("negotiated %s", c.ProtocolVersion())
	}
	before := listTools(t, c)
	if r := callTool(t, c, "find_tools", map[string]any{"request": "合并这三个PDF"}); r.IsError || !strings.Contains(text(r), "pdf_tool") {
		t.Fatal(text(r))
	}
	after := listTools(t, c)
	if len(after) != len(before) {
		t.Fatalf("principal's list changed with its request: %d then %d tools", len(before), len(after))
	}
	for name, tl := range before {
		if after[name].Description != tl.Description {
			t.Fatalf("%s's description changed: %q then %q", name, tl.Description, after[name].Description)
		}
	}
}

// callEvidence: a tiered session that never calls find_tools starts with
// search's list and makes three calls in one intent family (system), by
// name; it gets exactly one notifications/tools/list_changed and a list
// holding the called tool's view; then a call outside that view still
// runs and is listed.
func callEvidence(t *testing.T, c *client.Client) {
	changed := listChanged(c)
	first := listTools(t, c)
	if _, ok := first["call_tool"]; !ok {
		t.Fatalf("the first list is not search's: %d tools", len(first))
	}
	if _, ok := first["system"]; ok {
		t.Fatalf("system in the first list")
	}
	for _, args := range []map[string]any{
		{"action": "info"},
		{"action": "processes", "limit": 5},
		{"action": "info"},
	} {
		if r := callTool(t, c, "system", args); r.IsError {
			t.Fatalf("system %v: %s", args, text(r))
		}
	}
	waitChanged(t, changed, "three calls in the system family")
	select {
	case <-changed:
		t.Fatal("more than one list_changed for one narrowing")
	case <-time.After(time.Second):
	}
	view := listTools(t, c)
	if _, ok := view["system"]; !ok {
		t.Fatal("called tool missing from the narrowed view")
	}
	if _, ok := view["data_processor"]; ok {
		t.Fatal("data_processor should not be in a system view")
	}
	st := exposureState(t, c)
	pinned, _ := st["pinned"].([]any)
	hist, _ := st["history"].([]any)
	if st["tier"] == "full" || st["narrowed_to"] != "system" || len(pinned) == 0 || pinned[0] != "system" || len(hist) != 1 {
		t.Fatalf("state after narrowing: tier %v narrowed_to %v pinned %v history %v", st["tier"], st["narrowed_to"], pinned, hist)
	}
	// Guide, not restrict: a tool outside the view runs and is pinned.
	if r := callTool(t, c, "file", map[string]any{"action": "write", "path": "t.csv", "text": "a,b\n1,2\n"}); r.IsError {
		t.Fatal(text(r))
	}
	if r := callTool(t, c, "data_processor", map[string]any{"action": "read", "path": "t.csv"}); r.IsError {
		t.Fatalf("a call outside the view was refused: %s", text(r))
	}
	waitChanged(t, changed, "a call outside the view")
	view = listTools(t, c)
	for _, name := range []string{"data_processor", "system"} {
		if _, ok := view[name]; !ok {
			t.Errorf("%s not pinned in the view after the call outside it", name)
		}
	}
}

func TestExposureCallEvidence_StreamableHTTP(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	callEvidence(t, httpClient(t, httpServer(t, e), "2025-06-18"))
}

func TestExposureCallEvidence_Stdio(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=tiered")
	callEvidence(t, stdioClient(t, e, "2025-11-25"))
}
