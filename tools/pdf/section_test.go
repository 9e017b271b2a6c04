package pdf

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestConfig_SectionValueUsed: the configured tools.pdf_tool value is the one
// the tool enforces (tools/sections_test.go checks that bad values are refused).
func TestConfig_SectionValueUsed(t *testing.T) {
	tl, d := tooltest.WithSection(t, New, "pdf_tool", "max_pages: 2")
	// The limit is the configured one: the three-page fixture is too large.
	tooltest.WriteFile(t, d.Sandbox.Root()+"/c.pdf", fixture(t, "chinese.pdf"))
	_, err := tooltest.Run(t, tl, map[string]any{"action": "page_count", "path": "c.pdf"})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}
