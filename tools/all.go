// Package tools holds the explicit registry: one ordered list of every tool
// clawbridge publishes. Tools do not register themselves; adding one means
// adding its constructor here.
package tools

import (
	"errors"
	"fmt"

	"clawbridge/tools/aiwriter"
	bridgetool "clawbridge/tools/bridge"
	browsertool "clawbridge/tools/browser"
	"clawbridge/tools/browseruse"
	"clawbridge/tools/calendar"
	"clawbridge/tools/codeassist"
	"clawbridge/tools/contract"
	"clawbridge/tools/convert"
	"clawbridge/tools/cron"
	"clawbridge/tools/dataproc"
	"clawbridge/tools/dataviz"
	"clawbridge/tools/dbquery"
	"clawbridge/tools/diary"
	"clawbridge/tools/docgen"
	"clawbridge/tools/education"
	"clawbridge/tools/email"
	"clawbridge/tools/file"
	"clawbridge/tools/finance"
	"clawbridge/tools/finreport"
	"clawbridge/tools/gifmaker"
	"clawbridge/tools/idphoto"
	"clawbridge/tools/imagegen"
	"clawbridge/tools/knowledge"
	"clawbridge/tools/literature"
	"clawbridge/tools/mindmap"
	"clawbridge/tools/notify"
	"clawbridge/tools/ocr"
	"clawbridge/tools/pdf"
	"clawbridge/tools/pptgen"
	"clawbridge/tools/pyrunner"
	"clawbridge/tools/resume"
	"clawbridge/tools/screen"
	"clawbridge/tools/search"
	"clawbridge/tools/shell"
	"clawbridge/tools/speech"
	"clawbridge/tools/system"
	"clawbridge/tools/tool"
	"clawbridge/tools/weather"
	"clawbridge/tools/webfetch"
)

// constructor builds one tool from the shared services; an error means its
// embedded data or its config section is broken.
type constructor func(*tool.Deps) (tool.Tool, error)

// registry is the publication order: the catalog's.
var registry = []constructor{
	browsertool.New,
	browseruse.New,
	webfetch.New,
	search.New,
	file.New,
	shell.New,
	screen.New,
	system.New,
	bridgetool.New,
	pdf.New,
	convert.New,
	pptgen.New,
	docgen.New,
	contract.New,
	resume.New,
	mindmap.New,
	dataproc.New,
	dataviz.New,
	finreport.New,
	dbquery.New,
	literature.New,
	weather.New,
	knowledge.New,
	email.New,
	notify.New,
	codeassist.New,
	cron.New,
	calendar.New,
	diary.New,
	finance.New,
	ocr.New,
	speech.New,
	gifmaker.New,
	imagegen.New,
	aiwriter.New,
	pyrunner.New,
	education.New,
	idphoto.New,
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
