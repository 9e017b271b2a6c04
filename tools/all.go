// Package tools holds the explicit registry: one ordered list of every tool
// clawbridge publishes. Tools do not register themselves; adding one means
// adding its constructor here.
package tools

import (
	"clawbridge/tools/file"
	"clawbridge/tools/shell"
	"clawbridge/tools/system"
	"clawbridge/tools/tool"
)

// All returns the registry in publication order.
func All(d *tool.Deps) []tool.Tool {
	return []tool.Tool{
		file.New(d),
		shell.New(d),
		system.New(d),
	}
}
