package mindmap

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestConfig_SectionValueUsed: the configured tools.mind_map value is the one
// the tool enforces (tools/sections_test.go checks that bad values are refused).
func TestConfig_SectionValueUsed(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "mind_map", "max_nodes: 3")
	tl := tooltest.Build(t, New, d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
	// The limit is the configured one: a map of four nodes is too large.
	_, err := tooltest.Run(t, tl, map[string]any{"text": "# Root\n## A\n## B\n## C", "formats": []any{"md"}})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}
