package tools_test

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// allTools builds every tool on d; a constructor that refuses fails the test.
func allTools(t *testing.T, d *tool.Deps) []tool.Tool {
	t.Helper()
	all, err := tools.All(d)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// toolsByName is allTools by name.
func toolsByName(t *testing.T, d *tool.Deps) map[string]tool.Tool {
	t.Helper()
	byName := map[string]tool.Tool{}
	for _, tl := range allTools(t, d) {
		byName[tl.Name] = tl
	}
	return byName
}

// eachParam runs check as the subtest "tool/action/param" for every
// parameter of every action that want accepts, and counts them.
func eachParam(t *testing.T, all []tool.Tool, want func(tool.Param) bool, check func(t *testing.T, name string, tl tool.Tool, a tool.Action, p tool.Param)) int {
	n := 0
	for _, tl := range all {
		for _, a := range tl.Actions {
			for _, p := range a.Params {
				if want(p) {
					name := tl.Name + "/" + a.Name + "/" + p.Name
					t.Run(name, func(t *testing.T) { check(t, name, tl, a, p) })
					n++
				}
			}
		}
	}
	return n
}

// setParam gives parameter p the value v, in a list when p takes an array.
func setParam(args map[string]any, p tool.Param, v any) {
	if p.Type == tool.Array {
		args[p.Name] = []any{v}
		return
	}
	args[p.Name] = v
}
