package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// dataDirMarker is in every file of the data dir of TestDataDir_*; it must
// never come back from a tool.
const dataDirMarker = "DATADIRMARKER7731"

// depsWithDataDirInside is tooltest.Deps with the server's data dir inside
// the workspace (an operator's choice the server allows), filled with
// files every walking tool would take up: a draft, code, notes, a table.
func depsWithDataDirInside(t *testing.T) *tool.Deps {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "workspace")
	d := tooltest.DepsAt(t, ws, filepath.Join(ws, "project", "clawbridge-data"))
	files := map[string]string{
		"outputs/secret.eml": "From: a@example.com\r\nTo: b@example.com\r\nSubject: " + dataDirMarker + "\r\n\r\n" + dataDirMarker + "\r\n",
		"secret.eml":         "From: a@example.com\r\nTo: b@example.com\r\nSubject: " + dataDirMarker + "\r\n\r\n" + dataDirMarker + "\r\n",
		"secret.go":          "package secret\n\n// " + dataDirMarker + "\nfunc " + dataDirMarker + "() {}\n",
		"secret.py":          "def " + dataDirMarker + "():\n    pass\n",
		"secret.md":          "# " + dataDirMarker + "\n\n" + dataDirMarker + " notes\n",
		"secret.txt":         dataDirMarker + "\n",
		"secret.csv":         "name,value\n" + dataDirMarker + ",1\n",
	}
	for name, body := range files {
		p := filepath.Join(d.Config.DataDir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		tooltest.WriteFile(t, p, []byte(body))
	}
	// Something ordinary beside it, so the walks have work to do.
	os.WriteFile(filepath.Join(ws, "project", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "notes.md"), []byte("# Notes\n\nplain\n"), 0o644)
	return d
}

// TestDataDir_NoReadWalksIntoIt: every read action of every tool that takes
// a path, given the workspace root (or the folder holding the data dir),
// answers without a byte of the data dir: one rule for every walk.
func TestDataDir_NoReadWalksIntoIt(t *testing.T) {
	d := depsWithDataDirInside(t)
	all := allTools(t, d)
	calls := 0
	for _, tl := range all {
		for _, a := range tl.Actions {
			if a.Level != tool.Read {
				continue
			}
			for _, p := range a.Params {
				if !pathParams[p.Name] {
					continue
				}
				for _, dir := range []string{".", "project"} {
					args := baseArgs(tl, a)
					setParam(args, p, dir)
					res, err := tooltest.Run(t, tl, args)
					calls++
					out, _ := json.Marshal(res)
					if err != nil {
						out = append(out, err.Error()...)
					}
					if strings.Contains(string(out), dataDirMarker) {
						t.Errorf("%s/%s %s=%q returned the data dir's content: %.300s", tl.Name, a.Name, p.Name, dir, out)
					}
				}
			}
		}
	}
	if calls < 20 {
		t.Fatalf("only %d calls made: the sweep is not reaching the tools", calls)
	}
}

// TestDataDir_CopyAndMoveLeaveItAlone: a copy of the folder that holds the
// data dir leaves it out, and a move or delete of that folder is refused
// (it would take the store with it).
func TestDataDir_CopyAndMoveLeaveItAlone(t *testing.T) {
	d := depsWithDataDirInside(t)
	all := allTools(t, d)
	var ft tool.Tool
	for _, tl := range all {
		if tl.Name == "file" {
			ft = tl
		}
	}
	if _, err := tooltest.Run(t, ft, map[string]any{"action": "copy", "path": "project", "output": "backup"}); err != nil {
		t.Fatal(err)
	}
	ws := d.Sandbox.Root()
	if _, err := os.Stat(filepath.Join(ws, "backup", "main.go")); err != nil {
		t.Fatalf("the copy lacks the ordinary file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "backup", "clawbridge-data")); !os.IsNotExist(err) {
		t.Fatalf("the copy holds the data dir: %v", err)
	}
	for _, args := range []map[string]any{
		{"action": "move", "path": "project", "output": "moved"},
		{"action": "delete", "path": "project"},
	} {
		_, err := tooltest.Run(t, ft, args)
		te, ok := tool.AsError(err)
		if !ok || te.Code != tool.CodeDenied {
			t.Errorf("%v: %v, want permission_denied", args, err)
		}
	}
	if _, err := os.Stat(filepath.Join(d.Config.DataDir, "secret.go")); err != nil {
		t.Fatalf("the data dir was changed: %v", err)
	}
}
