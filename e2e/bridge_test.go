package e2e

// mcp_bridge through a real MCP client against the built binary, with the
// real @modelcontextprotocol/server-everything as the downstream server:
// lazy start, manifest cached, arguments and results intact, progress
// forwarded, a killed downstream recovered on the next call, and a changed
// tool definition held until `clawbridge bridge approve`.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

// spoilPin overwrites the pin of a downstream tool in the data dir, as if
// its definition had changed since it was approved.
func spoilPin(t *testing.T, data, server, tool string) {
	t.Helper()
	pinsFile := filepath.Join(data, "bridge", server+".pins.json")
	var pins map[string]string
	raw, err := os.ReadFile(pinsFile)
	if err == nil {
		err = json.Unmarshal(raw, &pins)
	}
	if err != nil {
		t.Fatalf("pins of %s: %v", server, err)
	}
	pins[tool] = strings.Repeat("0", 64)
	raw, _ = json.Marshal(pins)
	if err := os.WriteFile(pinsFile, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestBridge_DownstreamThroughMCP(t *testing.T) {
	js := bridgetest.Script(t, "server-everything")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("limits:\n  loop_repeats: 1000\nexposure:\n  mode: full\nbridge:\n  servers:\n    - {name: everything, command: node, args: [%q, stdio], level: read, publish: bridge_only}\n", js)), 0o600)
	data := filepath.Join(dir, "data")
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_DATA_DIR="+data)
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)

	servers := func() map[string]any {
		t.Helper()
		r := callTool(t, c, "mcp_bridge", map[string]any{"action": "list_servers"})
		var out struct{ Servers []map[string]any }
		if r.IsError || json.Unmarshal([]byte(text(r)), &out) != nil || len(out.Servers) != 1 {
			t.Fatalf("list_servers: %s", text(r))
		}
		return out.Servers[0]
	}
	if s := servers(); s["state"] != "configured" {
		t.Fatalf("before any call the server must not run: %v", s)
	}
	call := func(tool string, args map[string]any) *mcp.CallToolResult {
		return callTool(t, c, "mcp_bridge", map[string]any{"action": "call", "server": "everything", "tool": tool, "arguments": args})
	}
	if r := call("get-sum", map[string]any{"a": 19, "b": 23}); r.IsError || !strings.Contains(text(r), "42") {
		t.Fatalf("get-sum: %s", text(r))
	}
	if r := call("echo", map[string]any{"message": "héllo 世界 \"quoted\""}); r.IsError || !strings.Contains(text(r), `héllo 世界 \"quoted\"`) {
		t.Fatalf("echo: %s", text(r))
	}
	s := servers()
	if s["state"] != "running" || s["tools"].(float64) < 5 {
		t.Fatalf("after a call: %v", s)
	}
	if _, err := os.Stat(filepath.Join(data, "bridge", "everything.manifest.json")); err != nil {
		t.Fatalf("manifest not cached: %v", err)
	}
	r := callTool(t, c, "mcp_bridge", map[string]any{"action": "list_tools", "server": "everything", "limit": 3})
	if r.IsError || !strings.Contains(text(r), `"next_offset":3`) || !strings.Contains(text(r), "get-sum") && !strings.Contains(text(r), "echo") {
		t.Fatalf("list_tools paged: %s", text(r))
	}

	// Progress from downstream reaches this client.
	var mu sync.Mutex
	progress := 0
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress++
			mu.Unlock()
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp_bridge"
	req.Params.Arguments = map[string]any{"action": "call", "server": "everything", "tool": "trigger-long-running-operation", "arguments": map[string]any{"duration": 1, "steps": 3}}
	req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	res, err := c.CallTool(ctxT(t), req)
	if err != nil || res.IsError {
		t.Fatalf("long-running: %v %v", err, res)
	}
	mu.Lock()
	if progress < 3 {
		t.Fatalf("progress notifications forwarded: %d", progress)
	}
	mu.Unlock()

	// A killed downstream is restarted by the next call.
	pid := int(servers()["pid"].(float64))
	kill := func(pid int) {
		t.Helper()
		syscall.Kill(pid, syscall.SIGKILL)
		for i := 0; i < 200 && servers()["state"] == "running"; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	kill(pid)
	if r := call("get-sum", map[string]any{"a": 1, "b": 2}); r.IsError || !strings.Contains(text(r), "3") {
		t.Fatalf("the call after the kill: %s", text(r))
	}
	if s := servers(); s["state"] != "running" || int(s["pid"].(float64)) == pid {
		t.Fatalf("after the restart: %v", s)
	}

	// A changed definition (its pin no longer matches) is held on the next
	// start, refused, and released by `clawbridge bridge approve`.
	spoilPin(t, data, "everything", "echo")
	kill(int(servers()["pid"].(float64)))
	r = call("echo", map[string]any{"message": "x"})
	if !r.IsError || !strings.Contains(text(r), "bridge approve everything") {
		t.Fatalf("a changed tool must be refused: %s", text(r))
	}
	code, out, stderr := runSplit(t, e.vars, "bridge", "status")
	if code != 0 || !strings.Contains(out, "CHANGED") || !strings.Contains(out, "echo") || !strings.Contains(out, "running") {
		t.Fatalf("bridge status (%d): %s %s", code, out, stderr)
	}
	if code, out, stderr := runSplit(t, e.vars, "bridge", "approve", "everything"); code != 0 || !strings.Contains(out, "released echo") {
		t.Fatalf("bridge approve (%d): %s %s", code, out, stderr)
	}
	if r := call("echo", map[string]any{"message": "back"}); r.IsError || !strings.Contains(text(r), "back") {
		t.Fatalf("after approval: %s", text(r))
	}
}
