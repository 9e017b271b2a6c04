package mindmap

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestConfig_SectionValueUsed: the configured tools.mind_map value is the one
// the tool enforces (tools/sections_test.go checks that bad values are refused).
func TestConfig_SectionValueUsed(t *testing.T) {
	tl, _ := tooltest.WithSection(t, New, "mind_map", "max_nodes: 3")
	// The limit is the configured one: a map of four nodes is too large.
	_, err := tooltest.Run(t, tl, map[string]any{"text": "# Root\n## A\n## B\n## C", "formats": []any{"md"}})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}
