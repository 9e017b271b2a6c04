package dataproc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

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
		b := tooltest.ReadFile(t, filepath.Join(fixtureDir, e.Name()))
		tooltest.WriteFile(t, filepath.Join(root, "data", e.Name()), b)
	}
	tl := tooltest.Build(t, New, d)
	return &env{t: t, d: d, tl: tl, root: root}
}

// call runs the tool and fails the test on error.
func (e *env) call(args map[string]any) map[string]any {
	e.t.Helper()
	return tooltest.JSONMap(e.t, tooltest.OK(e.t, e.tl, args).Data)
}

// fail runs the tool and expects a tool error.
func (e *env) fail(args map[string]any) *tool.Error {
	e.t.Helper()
	return tooltest.Refused(e.t, e.tl, args)
}

func rows(m map[string]any, key string) [][]any {
	var out [][]any
	for _, r := range m[key].([]any) {
		out = append(out, r.([]any))
	}
	return out
}

func callOf(action string, args map[string]any) *tool.Call { return tool.NewCall(action, args) }
