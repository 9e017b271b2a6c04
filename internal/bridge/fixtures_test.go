package bridge

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBridgeFixtures_ManifestsAndLabels: the committed manifests of real
// servers load in the Manifest format, together with the native tools reach
// 100+ tools, and every label of the blind routing set names one of them.
func TestBridgeFixtures_ManifestsAndLabels(t *testing.T) {
	const root = "../.."
	files, _ := filepath.Glob(filepath.Join(root, "fixtures/bridge/manifests/*.manifest.json"))
	if len(files) < 7 {
		t.Fatalf("%d manifests", len(files))
	}
	sources, err := os.ReadFile(filepath.Join(root, "fixtures/bridge/manifests/SOURCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m Manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if filepath.Base(f) != m.Server+".manifest.json" || len(m.Tools) == 0 || !strings.Contains(string(sources), "| "+m.Server+" |") {
			t.Fatalf("%s: server %q, %d tools, in SOURCES.md: %v", f, m.Server, len(m.Tools), strings.Contains(string(sources), m.Server))
		}
		for _, td := range m.Tools {
			if !json.Valid(td.InputSchema) {
				t.Fatalf("%s/%s: schema is not JSON", m.Server, td.Name)
			}
			known[m.Server+"__"+td.Name] = true
		}
	}
	natives, _ := filepath.Glob(filepath.Join(root, "fixtures/toolsnaps/*.json"))
	for _, f := range natives {
		known[strings.TrimSuffix(filepath.Base(f), ".json")] = true
	}
	if len(known) < 100+len(natives) {
		t.Fatalf("%d downstream tools, want 100+", len(known)-len(natives))
	}

	f, err := os.Open(filepath.Join(root, "exposure/testdata/bridge_routing.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids, downstream := map[string]bool{}, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			ID    string   `json:"id"`
			Q     string   `json:"q"`
			Tools []string `json:"tools"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if ids[r.ID] || r.Q == "" || len(r.Tools) < 1 || len(r.Tools) > 3 {
			t.Fatalf("%s: duplicate id, empty request or %d tools", r.ID, len(r.Tools))
		}
		ids[r.ID] = true
		aimed := false
		for _, tl := range r.Tools {
			if !known[tl] {
				t.Errorf("%s: %s is neither a downstream tool in the manifests nor a native tool", r.ID, tl)
			}
			aimed = aimed || strings.Contains(tl, "__")
		}
		if aimed {
			downstream++
		}
	}
	if downstream < 70 || downstream != len(ids) {
		t.Fatalf("%d of %d requests aimed at downstream tools", downstream, len(ids))
	}
}
