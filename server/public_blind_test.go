package server

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
)

// blindSet is the public benchmark kept aside for one blind score at the
// end (issue 31); see its README.md. This test only checks that it loads:
// it never routes it.
const blindSet = "../fixtures/bridge/public/blind"

// TestBlindSetLoads: every manifest of the blind set is read by the bridge's
// own loader and published whole, and every need of every task names one of
// the published tools.
func TestBlindSetLoads(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(blindSet, "manifests", "*.manifest.json"))
	if len(files) == 0 {
		t.Fatalf("no manifests in %s", blindSet)
	}
	data := t.TempDir()
	cache := filepath.Join(data, "bridge")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	var servers []config.BridgeServer
	tools := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var man downstream.Manifest
		if err := json.Unmarshal(b, &man); err != nil || man.Server+".manifest.json" != filepath.Base(f) || len(man.Tools) == 0 {
			t.Fatalf("%s: server %q, %d tools, %v", f, man.Server, len(man.Tools), err)
		}
		tools += len(man.Tools)
		if err := os.WriteFile(filepath.Join(cache, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
		// Never started: only the cached manifest is read.
		servers = append(servers, config.BridgeServer{Name: man.Server, Command: "false"})
	}
	cfg := config.Bridge{Servers: servers, StartTimeout: time.Second, CallTimeout: time.Second, IdleStop: time.Hour}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	g, _ := netguard.New(nil)
	m, err := downstream.New(downstream.Options{Config: cfg, DataDir: data, Guard: g, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	pub, left := m.Publishable()
	for server, l := range left {
		t.Errorf("%s: %d tools not published: %+v", server, len(l), l)
	}
	if len(pub) != tools {
		t.Fatalf("%d of %d tools published", len(pub), tools)
	}
	published := map[string]bool{}
	for _, p := range pub {
		published[p.Name] = true
	}

	f, err := os.Open(filepath.Join(blindSet, "tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	needs := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var task struct {
			ID    string     `json:"id"`
			Q     string     `json:"q"`
			Needs [][]string `json:"needs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &task); err != nil {
			t.Fatal(err)
		}
		if task.ID == "" || ids[task.ID] || task.Q == "" || len(task.Needs) == 0 {
			t.Fatalf("task %q: duplicate, no request or no needs", task.ID)
		}
		ids[task.ID] = true
		for _, alts := range task.Needs {
			if len(alts) == 0 {
				t.Fatalf("%s: an empty need", task.ID)
			}
			for _, name := range alts {
				if !published[name] {
					t.Errorf("%s: need %s is no published tool", task.ID, name)
				}
			}
			needs++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ids) < 50 || len(ids) > 150 {
		t.Fatalf("%d tasks, want 50-150", len(ids))
	}
	t.Logf("%d servers, %d tools, %d tasks, %d needs", len(files), tools, len(ids), needs)
}
