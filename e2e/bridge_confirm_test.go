package e2e

// Confirmation of mcp_bridge calls through a real MCP client against the
// built binary, with the real @modelcontextprotocol/server-memory as the
// downstream server at level high (the default) under the default policy
// (elicit, falling back to `clawbridge approve` for a client that cannot be
// asked): nothing reaches the downstream server before the call is
// confirmed — its graph file is byte for byte unchanged and the server is
// not even started — a confirmed call runs exactly once, and a declined,
// rejected or expired one never runs. A read-only tool of a server whose
// annotations config trusts runs without being asked.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

// seedGraph is the memory server's file before any call: one entity.
const seedGraph = `{"type":"entity","name":"Seed","entityType":"thing","observations":["was here first"]}` + "\n"

// confirmEnv writes a config with two memory servers: "memory" at the
// default level and "notes" with trust_annotations, each on its own graph
// file seeded with seedGraph. It returns the env and the two files.
func confirmEnv(t *testing.T, approveTimeout string) (*env, string, string) {
	t.Helper()
	js := bridgetest.Script(t, "server-memory")
	dir := t.TempDir()
	graph, notes := filepath.Join(dir, "memory.jsonl"), filepath.Join(dir, "notes.jsonl")
	for _, f := range []string{graph, notes} {
		if err := os.WriteFile(f, []byte(seedGraph), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "c.yaml")
	yaml := fmt.Sprintf(`limits:
  loop_repeats: 1000
exposure:
  mode: full
approve_timeout: %s
bridge:
  servers:
    - {name: memory, command: node, args: [%q], env: {MEMORY_FILE_PATH: %q}, publish: bridge_only}
    - {name: notes, command: node, args: [%q], env: {MEMORY_FILE_PATH: %q}, trust_annotations: true, publish: bridge_only}
`, approveTimeout, js, graph, js, notes)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_DATA_DIR="+filepath.Join(dir, "data")), graph, notes
}

func createEntity(name string) map[string]any {
	return map[string]any{"action": "call", "server": "memory", "tool": "create_entities", "arguments": map[string]any{
		"entities": []any{map[string]any{"name": name, "entityType": "person", "observations": []any{"confirmed " + name}}}}}
}

// graphIs fails unless the graph file holds exactly want.
func graphIs(t *testing.T, file, want, when string) {
	t.Helper()
	got, err := os.ReadFile(file)
	if err != nil || string(got) != want {
		t.Fatalf("%s: the graph file changed: %v %q", when, err, got)
	}
}

// entityLines counts the graph file's lines naming entity name.
func entityLines(t *testing.T, file, name string) int {
	t.Helper()
	raw, _ := os.ReadFile(file)
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		var e struct{ Type, Name string }
		if json.Unmarshal([]byte(line), &e) == nil && e.Type == "entity" && e.Name == name {
			n++
		}
	}
	return n
}

// bridgeState is one server's state in mcp_bridge list_servers.
func bridgeState(t *testing.T, c *client.Client, name string) string {
	t.Helper()
	r := callTool(t, c, "mcp_bridge", map[string]any{"action": "list_servers"})
	var out struct {
		Servers []struct{ Name, State string }
	}
	if r.IsError || json.Unmarshal([]byte(text(r)), &out) != nil {
		t.Fatalf("list_servers: %s", text(r))
	}
	for _, s := range out.Servers {
		if s.Name == name {
			return s.State
		}
	}
	t.Fatalf("list_servers has no %s: %s", name, text(r))
	return ""
}

// countingElicit answers elicitations with accept or decline, counts them,
// and checks, while the person is being asked, that the graph file is
// still untouched.
type countingElicit struct {
	accept atomic.Bool
	asked  atomic.Int32
	graph  string
	before atomic.Pointer[string] // the graph file's content the call must not have changed yet
	early  atomic.Value           // a problem seen while asking
}

func (h *countingElicit) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.asked.Add(1)
	if !strings.Contains(req.Params.Message, "mcp_bridge.call") || !strings.Contains(req.Params.Message, "create_entities") {
		h.early.Store("the question does not name the call: " + req.Params.Message)
	}
	if want := h.before.Load(); want != nil {
		if got, _ := os.ReadFile(h.graph); string(got) != *want {
			h.early.Store(fmt.Sprintf("the graph changed before the user answered: %q", got))
		}
	}
	if !h.accept.Load() {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// TestBridgeConfirm_ElicitDefaultPolicy: a client that can be asked is
// asked; declined, the downstream server is not even started and its file
// is unchanged; accepted, the call runs once. A read-only tool of the
// trusted server runs without a question; its writing tool is still asked.
func TestBridgeConfirm_ElicitDefaultPolicy(t *testing.T) {
	e, graph, notes := confirmEnv(t, "30s")
	base := httpServer(t, e)
	h := &countingElicit{graph: graph}
	//lint:ignore SA1019 elicitation requests reach a pre-2026-07-28 client on its standalone GET stream
	hc, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(hc.GetTransport(), client.WithElicitationHandler(h))
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, "2025-11-25")
	seed := seedGraph
	h.before.Store(&seed)

	r := callTool(t, c, "mcp_bridge", createEntity("Declined"))
	if !r.IsError || !strings.Contains(text(r), "did not confirm") || h.asked.Load() != 1 {
		t.Fatalf("declined: asked %d, %s", h.asked.Load(), text(r))
	}
	if p := h.early.Load(); p != nil {
		t.Fatal(p)
	}
	graphIs(t, graph, seedGraph, "after a declined call")
	if st := bridgeState(t, c, "memory"); st != "configured" {
		t.Fatalf("a declined call started the downstream server: %s", st)
	}

	h.accept.Store(true)
	r = callTool(t, c, "mcp_bridge", createEntity("Accepted"))
	if r.IsError || h.asked.Load() != 2 {
		t.Fatalf("accepted: asked %d, %s", h.asked.Load(), text(r))
	}
	if p := h.early.Load(); p != nil {
		t.Fatal(p)
	}
	if n := entityLines(t, graph, "Accepted"); n != 1 || entityLines(t, graph, "Declined") != 0 || entityLines(t, graph, "Seed") != 1 {
		t.Fatalf("after the accepted call: Accepted %d times; file %q", n, mustRead(graph))
	}

	// The trusted server: list_tools (a read) learns its annotations; then
	// read_graph, marked readOnlyHint, runs unasked.
	if r := callTool(t, c, "mcp_bridge", map[string]any{"action": "list_tools", "server": "notes"}); r.IsError {
		t.Fatalf("list_tools notes: %s", text(r))
	}
	r = callTool(t, c, "mcp_bridge", map[string]any{"action": "call", "server": "notes", "tool": "read_graph", "arguments": map[string]any{}})
	if r.IsError || !strings.Contains(text(r), "was here first") || h.asked.Load() != 2 {
		t.Fatalf("trusted read_graph: asked %d, %s", h.asked.Load(), text(r))
	}
	// Its writing tool is still asked: declined, nothing is written.
	h.accept.Store(false)
	h.graph = notes
	args := createEntity("NotesWrite")
	args["server"] = "notes"
	r = callTool(t, c, "mcp_bridge", args)
	if !r.IsError || h.asked.Load() != 3 {
		t.Fatalf("trusted server's create_entities: asked %d, %s", h.asked.Load(), text(r))
	}
	graphIs(t, notes, seedGraph, "after a declined write on the trusted server")
}

func mustRead(file string) string {
	b, _ := os.ReadFile(file)
	return string(b)
}

// pendingCall waits until `clawbridge approve` lists a waiting mcp_bridge
// call whose preview contains marker, and returns its id.
func pendingCall(t *testing.T, e *env, marker string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		_, out, _ := runSplit(t, e.vars, "approve")
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "mcp_bridge.call") && strings.Contains(line, marker) {
				return strings.Fields(line)[0]
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no pending mcp_bridge call for %s", marker)
	return ""
}

// TestBridgeConfirm_ApprovalFallback: a stdio client that cannot be asked
// (and shows no progress) is answered at once with the pending id and the
// command; nothing runs downstream until a person decides with the real
// `clawbridge approve`: rejected, the call made again is told so and never
// runs; approved, the call made again runs once.
func TestBridgeConfirm_ApprovalFallback(t *testing.T) {
	e, graph, _ := confirmEnv(t, "60s")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)

	decide := func(name string, approve bool) *mcp.CallToolResult {
		t.Helper()
		start := time.Now()
		r := callTool(t, c, "mcp_bridge", createEntity(name))
		m, _ := r.StructuredContent.(map[string]any)
		id, _ := m["pending_id"].(string)
		if r.IsError || id == "" || !strings.Contains(text(r), "clawbridge approve "+id) || time.Since(start) > 20*time.Second {
			t.Fatalf("%s: want an answer at once naming the command: %s", name, text(r))
		}
		if listed := pendingCall(t, e, name); listed != id {
			t.Fatalf("%s: `clawbridge approve` lists %s, the answer named %s", name, listed, id)
		}
		graphIs(t, graph, seedGraph, "while the call waits for a decision")
		args := []string{"approve", id}
		if !approve {
			args = []string{"approve", "--reject", id}
		}
		if code, out, stderr := runSplit(t, e.vars, args...); code != 0 {
			t.Fatalf("%v (%d): %s %s", args, code, out, stderr)
		}
		return callTool(t, c, "mcp_bridge", createEntity(name))
	}

	r := decide("Rejected", false)
	if !r.IsError || !strings.Contains(text(r), "rejected") {
		t.Fatalf("rejected: %s", text(r))
	}
	graphIs(t, graph, seedGraph, "after a rejected call")
	if st := bridgeState(t, c, "memory"); st != "configured" {
		t.Fatalf("a rejected call started the downstream server: %s", st)
	}
	r = decide("Approved", true)
	if r.IsError || entityLines(t, graph, "Approved") != 1 || entityLines(t, graph, "Rejected") != 0 {
		t.Fatalf("approved: %s; file %q", text(r), mustRead(graph))
	}
	if _, out, _ := runSplit(t, e.vars, "approve"); !strings.Contains(out, "no calls are waiting") {
		t.Fatalf("calls still waiting after the decisions: %s", out)
	}
}

// TestBridgeConfirm_UndecidedNeverRuns: a call nobody decides never runs,
// however often it is made again: each try is answered with the same
// pending id, and nothing reaches the downstream server.
func TestBridgeConfirm_UndecidedNeverRuns(t *testing.T) {
	e, graph, _ := confirmEnv(t, "2s")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)
	var ids []string
	for range 2 {
		r := callTool(t, c, "mcp_bridge", createEntity("Undecided"))
		m, _ := r.StructuredContent.(map[string]any)
		id, _ := m["pending_id"].(string)
		if r.IsError || id == "" {
			t.Fatalf("undecided: %s", text(r))
		}
		ids = append(ids, id)
	}
	if ids[0] != ids[1] {
		t.Fatalf("the same call made again got a new question: %v", ids)
	}
	time.Sleep(300 * time.Millisecond)
	graphIs(t, graph, seedGraph, "after undecided calls")
	if st := bridgeState(t, c, "memory"); st != "configured" {
		t.Fatalf("an undecided call started the downstream server: %s", st)
	}
}
