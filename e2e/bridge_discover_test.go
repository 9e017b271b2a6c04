package e2e

// A configured server whose manifest was never read: serve reads it in the
// background, so its tools reach tools/list (with a list_changed) without
// anyone calling it; `clawbridge bridge refresh` does the same on demand.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

func TestBridge_NeverReadServerIsPublishedWithoutACall(t *testing.T) {
	memory, everything := bridgetest.Script(t, "server-memory"), bridgetest.Script(t, "server-everything")
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cfg := filepath.Join(dir, "c.yaml")
	// Mode full lists every published tool, so a discovered one reaches
	// tools/list with no request routed to it (tiered lists it once
	// find_tools routes to it: TestBridge_PublishedToolsThroughMCP).
	os.WriteFile(cfg, []byte(fmt.Sprintf(`exposure:
  mode: full
bridge:
  servers:
    - {name: memory, command: node, args: [%q], env: {MEMORY_FILE_PATH: %q}, level: read}
    - {name: everything, command: node, args: [%q, stdio], publish: bridge_only}
`, memory, filepath.Join(dir, "memory.jsonl"), everything)), 0o600)
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_DATA_DIR="+data)
	c := client.NewClient(newStdioTransport(e))
	changed := listChanged(c)
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, mcp.ProtocolVersion20250618)

	first := listTools(t, c)
	if _, ok := first["memory__create_entities"]; !ok {
		waitChanged(t, changed, "the memory server's manifest was read")
		deadline := time.Now().Add(15 * time.Second)
		for _, ok := listTools(t, c)["memory__create_entities"]; !ok; _, ok = listTools(t, c)["memory__create_entities"] {
			if time.Now().After(deadline) {
				t.Fatal("memory__create_entities never reached tools/list")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "bridge", "memory.manifest.json")); err != nil {
		t.Errorf("the manifest is cached: %v", err)
	}
	// Read, then stopped: a call starts it for real.
	deadline := time.Now().Add(10 * time.Second)
	for bridgeState(t, c, "memory") != "manifest known" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if st := bridgeState(t, c, "memory"); st != "manifest known" {
		t.Errorf("memory after discovery is %q, want manifest known (read and stopped)", st)
	}
	// bridge_only is listed by mcp_bridge when asked, never started before.
	if st := bridgeState(t, c, "everything"); st != "configured" {
		t.Errorf("a bridge_only server is %q before any call, want configured", st)
	}
	for name := range listTools(t, c) {
		if strings.HasPrefix(name, "everything__") {
			t.Errorf("bridge_only server published %s", name)
		}
	}
	if r := callTool(t, c, "memory__read_graph", map[string]any{}); r.IsError {
		t.Fatalf("a discovered tool is callable: %s", text(r))
	}
}

func TestBridgeCLI_RefreshReadsManifestsAndReportsFailures(t *testing.T) {
	fsServer := bridgetest.Script(t, "server-filesystem")
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o700)
	data := filepath.Join(dir, "data")
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`bridge:
  servers:
    - {name: files, command: node, args: [%q, %q]}
    - {name: broken, command: %q}
`, fsServer, root, filepath.Join(dir, "no-such-program"))), 0o600)
	vars := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_DATA_DIR="+data).vars

	code, out, stderr := runSplit(t, vars, "bridge", "refresh", "files")
	if code != 0 || !strings.Contains(out, "files: ") || !strings.Contains(out, "tools in its manifest") {
		t.Fatalf("bridge refresh files (%d): %s %s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(data, "bridge", "files.manifest.json")); err != nil {
		t.Fatalf("refresh caches the manifest: %v", err)
	}
	if code, out, _ := runSplit(t, vars, "bridge", "status"); code != 0 || !strings.Contains(out, "manifest known") {
		t.Errorf("status after refresh: %s", out)
	}

	code, out, stderr = runSplit(t, vars, "bridge", "refresh")
	if code != 1 || !strings.Contains(out, "files: ") || !strings.Contains(out, "broken: ") || !strings.Contains(stderr, "could not read broken") {
		t.Fatalf("a server that cannot start fails the refresh with its name (%d): %s %s", code, out, stderr)
	}
	if code, _, stderr := runSplit(t, vars, "bridge", "refresh", "nope"); code == 0 || !strings.Contains(stderr, "unknown server") {
		t.Errorf("an unknown server is refused (%d): %s", code, stderr)
	}
}
