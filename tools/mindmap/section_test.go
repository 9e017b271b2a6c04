package mindmap

import (
	"testing"

	"clawbridge/tools/tool"

	"clawbridge/tools/tooltest"
)

// TestConfig_SectionRefusesOutOfRange: a value out of range in
// tools.mind_map is refused at start (config's section problems, which stop
// the server and fail doctor), naming the key, instead of silently falling
// back to the default; a good value is accepted and used.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "mind_map", "max_nodes: -5")
	New(d)
	tooltest.SectionRefused(t, d, "mind_map", "tools.mind_map: max_nodes must be at least 1, got -5")

	d = tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "mind_map", "max_nodes: 3")
	tl := New(d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
	// The limit is the configured one: a map of four nodes is too large.
	_, err := tooltest.Run(t, tl, map[string]any{"text": "# Root\n## A\n## B\n## C", "formats": []any{"md"}})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}
