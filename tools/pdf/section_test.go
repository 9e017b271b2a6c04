package pdf

import (
	"testing"

	"clawbridge/tools/tool"

	"clawbridge/tools/tooltest"
)

// TestConfig_SectionRefusesOutOfRange: a value out of range in
// tools.pdf_tool is refused at start (config's section problems, which stop
// the server and fail doctor), naming the key, instead of silently falling
// back to the default; a good value is accepted and used.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "pdf_tool", "max_pages: 0")
	New(d)
	tooltest.SectionRefused(t, d, "pdf_tool", "max_pages must be at least 1, got 0")

	d = tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "pdf_tool", "max_pages: 2")
	tl := New(d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
	// The limit is the configured one: the three-page fixture is too large.
	tooltest.WriteFile(t, d.Sandbox.Root()+"/c.pdf", fixture(t, "chinese.pdf"))
	_, err := tooltest.Run(t, tl, map[string]any{"action": "page_count", "path": "c.pdf"})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}
