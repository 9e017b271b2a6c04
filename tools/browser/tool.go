// Package browser is the `browser` tool. Its actions live in
// internal/browsertool, which browser_use and web_fetch drive as well.
package browser

import (
	"github.com/clawbridge/clawbridge/internal/browsertool"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// New builds the browser tool over the shared manager in d.Browser (nil:
// every call says that no browser is available).
func New(d *tool.Deps) (tool.Tool, error) {
	return browsertool.New(d, browsertool.Manager(d)), nil
}
