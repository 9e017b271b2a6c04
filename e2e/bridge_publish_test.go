package e2e

// publish: tools through a real MCP client against the built binary over
// stdio: downstream tools listed as <server>__<tool> from the cached
// manifests before any server starts, routed, called directly (confirmation
// at the server's level), and a changed definition held out of tools/list
// and refused until `clawbridge bridge approve`, run as its own process.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

func TestBridge_PublishedToolsThroughMCP(t *testing.T) {
	everything, memory := bridgetest.Script(t, "server-everything"), bridgetest.Script(t, "server-memory")
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(filepath.Join(data, "bridge"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"everything", "memory"} {
		b, err := os.ReadFile(filepath.Join("..", "fixtures", "bridge", "manifests", name+".manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(data, "bridge", name+".manifest.json"), b, 0o600)
	}
	cfg := filepath.Join(dir, "c.yaml")
	// The loop guard would refuse the status polls below.
	os.WriteFile(cfg, []byte(fmt.Sprintf(`confirm: token
limits:
  loop_repeats: 1000
exposure:
  mode: tiered
bridge:
  servers:
    - {name: everything, command: node, args: [%q, stdio], level: read}
    - {name: memory, command: node, args: [%q], env: {MEMORY_FILE_PATH: %q}, keywords: [remember, 记住]}
`, everything, memory, filepath.Join(dir, "memory.jsonl"))), 0o600)
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_DATA_DIR="+data)
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)

	listed := func() map[string]bool {
		t.Helper()
		res, err := c.ListTools(ctxT(t), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, tl := range res.Tools {
			out[tl.Name] = true
		}
		return out
	}
	states := func() map[string]map[string]any {
		t.Helper()
		r := callTool(t, c, "mcp_bridge", map[string]any{"action": "list_servers"})
		var out struct{ Servers []map[string]any }
		if r.IsError || json.Unmarshal([]byte(text(r)), &out) != nil {
			t.Fatalf("list_servers: %s", text(r))
		}
		m := map[string]map[string]any{}
		for _, s := range out.Servers {
			m[s["name"].(string)] = s
		}
		return m
	}
	// Tiered: the first list is search's; the downstream tools are
	// published (callable by name, found by find_tools) and listed once a
	// request routes to them or the session calls them.
	l := listed()
	for _, n := range []string{"everything__get-sum", "everything__echo", "memory__create_entities"} {
		if l[n] {
			t.Errorf("tools/list holds %s before any request routed to it", n)
		}
	}
	if !l["call_tool"] || !l["find_tools"] {
		t.Errorf("the first list is not search's: %v", l)
	}
	for name, s := range states() {
		if s["state"] != "manifest known" {
			t.Errorf("%s is %v before any call", name, s["state"])
		}
	}

	r := callTool(t, c, "find_tools", map[string]any{"request": "记住：张三是产品经理"})
	if r.IsError || !strings.Contains(text(r), "memory__create_entities [recommended]") || strings.Contains(text(r), "everything__") {
		t.Fatalf("find_tools: %s", text(r))
	}
	if !listed()["memory__create_entities"] {
		t.Error("memory__create_entities not listed after find_tools routed to it")
	}

	args := map[string]any{"entities": []any{map[string]any{"name": "张三", "entityType": "person", "observations": []any{"产品经理"}}}}
	preview := callTool(t, c, "memory__create_entities", args)
	tok, _ := preview.StructuredContent.(map[string]any)["confirm_token"].(string)
	if tok == "" {
		t.Fatalf("memory is high by default: want a confirmation preview, got %s", text(preview))
	}
	args["confirm_token"] = tok
	if r := callTool(t, c, "memory__create_entities", args); r.IsError || !strings.Contains(text(r), "产品经理") {
		t.Fatalf("confirmed create_entities: %s", text(r))
	}
	if r := callTool(t, c, "everything__get-sum", map[string]any{"a": 19, "b": 23}); r.IsError || !strings.Contains(text(r), "42") {
		t.Fatalf("get-sum: %s", text(r))
	}
	if r := callTool(t, c, "everything__echo", map[string]any{"message": "x"}); r.IsError {
		t.Fatalf("echo: %s", text(r))
	}
	if l := listed(); !l["everything__get-sum"] || !l["everything__echo"] {
		t.Error("downstream tools called by name are not listed after")
	}

	// Rug pull: echo's pin no longer matches; on the next start it is held,
	// leaves tools/list and is refused; approval from another process
	// releases it.
	spoilPin(t, data, "everything", "echo")
	pid := int(states()["everything"]["pid"].(float64))
	syscall.Kill(pid, syscall.SIGKILL)
	for i := 0; i < 200 && states()["everything"]["state"] == "running"; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if r := callTool(t, c, "everything__get-sum", map[string]any{"a": 1, "b": 2}); r.IsError {
		t.Fatalf("after the kill: %s", text(r))
	}
	for i := 0; i < 200 && listed()["everything__echo"]; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if listed()["everything__echo"] {
		t.Fatal("a changed definition must leave tools/list")
	}
	if r := callTool(t, c, "everything__echo", map[string]any{"message": "x"}); !r.IsError || !strings.Contains(text(r), "bridge approve everything") {
		t.Fatalf("a held tool must be refused: %s", text(r))
	}
	if code, out, stderr := runSplit(t, e.vars, "bridge", "approve", "everything"); code != 0 || !strings.Contains(out, "released echo") {
		t.Fatalf("bridge approve (%d): %s %s", code, out, stderr)
	}
	if r := callTool(t, c, "everything__echo", map[string]any{"message": "back"}); r.IsError || !strings.Contains(text(r), "back") {
		t.Fatalf("after approval: %s", text(r))
	}
	if !listed()["everything__echo"] {
		t.Error("an approved tool returns to tools/list")
	}
}
