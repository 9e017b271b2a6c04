package tooltest

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// WithSection builds a tool with newTool on fresh deps (Deps, allowing
// allowHosts) whose tools.<name> section is body ("" for none), as a
// config file would give it; the test fails when the tool or the section
// is refused.
func WithSection(t testing.TB, newTool func(*tool.Deps) (tool.Tool, error), name, body string, allowHosts ...string) (tool.Tool, *tool.Deps) {
	t.Helper()
	d := Deps(t, allowHosts...)
	if body != "" {
		ConfigSection(t, d, name, body)
	}
	tl := Build(t, newTool, d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
	return tl, d
}
