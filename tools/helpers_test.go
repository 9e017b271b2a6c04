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
