// Package tools holds the explicit registry: one ordered list of every tool
// clawbridge publishes. Tools do not register themselves; adding one means
// adding its constructor here.
package tools

import (
	"errors"
	"fmt"

	browsertool "clawbridge/tools/browser"
	"clawbridge/tools/browseruse"
	"clawbridge/tools/contract"
	"clawbridge/tools/convert"
	"clawbridge/tools/dataproc"
	"clawbridge/tools/dataviz"
	"clawbridge/tools/dbquery"
	"clawbridge/tools/docgen"
	"clawbridge/tools/file"
	"clawbridge/tools/finreport"
	"clawbridge/tools/mindmap"
	"clawbridge/tools/pdf"
	"clawbridge/tools/pptgen"
	"clawbridge/tools/resume"
	"clawbridge/tools/screen"
	"clawbridge/tools/shell"
	"clawbridge/tools/system"
	"clawbridge/tools/tool"
	"clawbridge/tools/webfetch"
)

// constructor builds one tool; an error means its embedded data is broken.
type constructor func(*tool.Deps) (tool.Tool, error)

// plain adapts a constructor that cannot fail.
func plain(f func(*tool.Deps) tool.Tool) constructor {
	return func(d *tool.Deps) (tool.Tool, error) { return f(d), nil }
}

// registry is the publication order: the catalog's.
var registry = []constructor{
	plain(browsertool.New),
	plain(browseruse.New),
	webfetch.New,
	plain(file.New),
	plain(shell.New),
	plain(screen.New),
	plain(system.New),
	plain(pdf.New),
	plain(convert.New),
	plain(pptgen.New),
	plain(docgen.New),
	contract.New,
	resume.New,
	plain(mindmap.New),
	plain(dataproc.New),
	plain(dataviz.New),
	plain(finreport.New),
	plain(dbquery.New),
}

// All builds every tool in registry order; when some fail, it still builds
// the others and reports every failure.
func All(d *tool.Deps) ([]tool.Tool, error) {
	out := make([]tool.Tool, 0, len(registry))
	var errs []error
	for i, c := range registry {
		t, err := c(d)
		if err != nil { // build the rest, so that every config section is read and checked
			errs = append(errs, fmt.Errorf("registry entry %d: %w", i, err))
			continue
		}
		out = append(out, t)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}
