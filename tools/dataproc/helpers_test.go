package dataproc

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

// needProgram skips (or, in CI, fails) when an external program is missing.
func needProgram(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
			t.Fatalf("%s is required (CLAWBRIDGE_REQUIRE_PROGRAMS=1) but not installed", name)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

// env is a tool over a tooltest workspace with the data fixtures copied in.
type env struct {
	t    testing.TB
	d    *tool.Deps
	tl   tool.Tool
	root string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	d := tooltest.Deps(t)
	root := d.Sandbox.Root()
	if err := os.MkdirAll(filepath.Join(root, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fixtureDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "data", e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tl := New(d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, d: d, tl: tl, root: root}
}

// call runs the tool and fails the test on error.
func (e *env) call(args map[string]any) map[string]any {
	e.t.Helper()
	res, err := tooltest.Run(e.t, e.tl, args)
	if err != nil {
		e.t.Fatalf("%v: %v", args["action"], err)
	}
	return roundTrip(e.t, res.Data)
}

// fail runs the tool and expects a tool error.
func (e *env) fail(args map[string]any) *tool.Error {
	e.t.Helper()
	_, err := tooltest.Run(e.t, e.tl, args)
	if err == nil {
		e.t.Fatalf("%v: expected an error", args)
	}
	te, ok := tool.AsError(err)
	if !ok {
		e.t.Fatalf("%v: not a tool error: %v", args, err)
	}
	return te
}

// roundTrip turns result data into plain JSON values, as the model sees it.
func roundTrip(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// libreCSV converts files with LibreOffice headless and returns, per input
// base name and sheet, the CSV records (all sheets).
func libreCSV(t testing.TB, files ...string) map[string][][]string {
	t.Helper()
	soffice := needProgram(t, "soffice")
	out := t.TempDir()
	// A fresh profile that recalculates every formula on load, so formula
	// results are LibreOffice's own, not the cached values in the file.
	user := filepath.Join(out, "profile", "user")
	os.MkdirAll(user, 0o755)
	os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(recalcXCU), 0o644)
	args := []string{"-env:UserInstallation=file://" + filepath.Join(out, "profile"), "--headless",
		"--convert-to", `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1`, "--outdir", out}
	cmd := exec.Command(soffice, append(args, files...)...)
	cmd.Env = append(os.Environ(), "HOME="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	res := map[string][][]string{}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".csv") {
			continue
		}
		f, err := os.Open(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		f.Close()
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		res[strings.TrimSuffix(e.Name(), ".csv")] = recs
	}
	return res
}

func rows(m map[string]any, key string) [][]any {
	var out [][]any
	for _, r := range m[key].([]any) {
		out = append(out, r.([]any))
	}
	return out
}

func callOf(action string, args map[string]any) *tool.Call { return tool.NewCall(action, args) }

const recalcXCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`
