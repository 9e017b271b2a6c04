package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawbridge/internal/config"
	"clawbridge/tools/tool"
)

func TestTablesFileOverride(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	// A client table entry: this deployment knows its own client re-reads lists.
	os.WriteFile(good, []byte(`{"clients":[{"match":"acme-agent","list_changed":true}]}`), 0o600)
	r, err := newRouter(config.Exposure{TablesFile: good}, []*tool.Tool{{Name: "file"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Tables().ModeForClient("ACME Agent", "auto"); got != "tiered" {
		t.Errorf("override not applied: %s", got)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"intent_tools":{"research":["no_such_tool"]}}`), 0o600)
	if _, err := newRouter(config.Exposure{TablesFile: bad}, nil); err == nil || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("a table naming an unknown tool must be refused at start: %v", err)
	}
	if _, err := newRouter(config.Exposure{TablesFile: filepath.Join(dir, "missing.json")}, nil); err == nil {
		t.Error("a missing tables file must be an error")
	}
}
