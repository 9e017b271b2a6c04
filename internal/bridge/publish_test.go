package bridge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/config"
)

// TestBridgePublish_CollisionsLeftOutAndFlagged: a published name that
// breaks MCP's name rule, that a native tool holds, or that two downstream
// tools would share is left out (never renamed) and shown in Status; the
// rest are published as <server>__<tool>, and bridge_only servers not at all.
func TestBridgePublish_CollisionsLeftOutAndFlagged(t *testing.T) {
	data := t.TempDir()
	schema := json.RawMessage(`{"type":"object"}`)
	write := func(server string, names ...string) {
		m := Manifest{Server: server}
		for _, n := range names {
			m.Tools = append(m.Tools, ToolDef{Name: n, Description: "tool " + n, InputSchema: schema})
		}
		if err := saveManifest(data, &m); err != nil {
			t.Fatal(err)
		}
	}
	write("gh", "create_issue", "bad name", strings.Repeat("x", 130), "taken", "dup", "dup", "denied")
	write("quiet", "list")
	m := newManager(t, data,
		config.BridgeServer{Name: "gh", Command: "false", Deny: []string{"denied"}},
		config.BridgeServer{Name: "quiet", Command: "false", Publish: "bridge_only"})
	m.ReserveNames(func(n string) bool { return n == "gh__taken" })
	pubs, left := m.Publishable()
	if len(pubs) != 1 || pubs[0].Name != "gh__create_issue" || pubs[0].Server != "gh" || pubs[0].Def.Name != "create_issue" {
		t.Fatalf("published %+v", pubs)
	}
	reasons := map[string]string{}
	for _, u := range left["gh"] {
		reasons[u.Tool] = u.Reason
	}
	for tool, want := range map[string]string{"bad name": "valid MCP tool name", strings.Repeat("x", 130): "valid MCP tool name", "taken": "native tool", "dup": "another downstream tool"} {
		if !strings.Contains(reasons[tool], want) {
			t.Errorf("%.20s: reason %q, want it to say %q", tool, reasons[tool], want)
		}
	}
	if _, ok := reasons["denied"]; ok {
		t.Error("a tool config denies is not a collision")
	}
	st := stateOf(m, "gh")
	if len(st.Unpublished) != len(left["gh"]) {
		t.Errorf("status shows %d unpublished, want %d", len(st.Unpublished), len(left["gh"]))
	}
	if err := m.NotPublished("gh__dup"); err == nil || !strings.Contains(err.Error(), "not published") {
		t.Errorf("NotPublished(gh__dup) = %v", err)
	}
	if err := m.NotPublished("quiet__list"); err == nil || !strings.Contains(err.Error(), "bridge_only") {
		t.Errorf("NotPublished(quiet__list) = %v", err)
	}
	if err := m.NotPublished("gh__denied"); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("NotPublished(gh__denied) = %v", err)
	}
	if err := m.NotPublished("nobody__x"); err != nil {
		t.Errorf("a name that is no server's: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, "bridge", "gh.manifest.json")); err != nil {
		t.Fatal(err)
	}
}
