package tools

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type closeCount struct{ n int }

func (c *closeCount) Close() error { c.n++; return nil }

// TestAll_ClosesWhatItBuiltWhenRefused: when the registry is refused (here
// for a bad section of another tool), the tools it had built are closed, so
// a refused start leaves nothing open; a registry that builds closes
// nothing.
func TestAll_ClosesWhatItBuiltWhenRefused(t *testing.T) {
	closer := &closeCount{}
	saved := registry
	t.Cleanup(func() { registry = saved })
	registry = append([]constructor{func(d *tool.Deps) (tool.Tool, error) {
		tl, err := saved[0](d) // the first tool, given a Closer
		tl.Closer = closer
		return tl, err
	}}, saved[1:]...)

	if _, err := All(tooltest.Deps(t)); err != nil || closer.n != 0 {
		t.Fatalf("a good registry: %v, closed %d times", err, closer.n)
	}
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "mind_map", "max_nodes: lots")
	if _, err := All(d); err == nil || closer.n != 1 {
		t.Fatalf("a refused registry: %v, closed %d times", err, closer.n)
	}
}
