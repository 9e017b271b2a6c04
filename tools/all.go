// Package tools holds the explicit registry: one ordered list of every tool
// clawbridge publishes. Tools do not register themselves; adding one means
// adding its constructor here.
package tools

import (
	"errors"
	"fmt"

	"github.com/clawbridge/clawbridge/tools/aiwriter"
	bridgetool "github.com/clawbridge/clawbridge/tools/bridge"
	browsertool "github.com/clawbridge/clawbridge/tools/browser"
	"github.com/clawbridge/clawbridge/tools/browseruse"
	"github.com/clawbridge/clawbridge/tools/calendar"
	"github.com/clawbridge/clawbridge/tools/codeassist"
	"github.com/clawbridge/clawbridge/tools/contract"
	"github.com/clawbridge/clawbridge/tools/convert"
	"github.com/clawbridge/clawbridge/tools/cron"
	"github.com/clawbridge/clawbridge/tools/dataproc"
	"github.com/clawbridge/clawbridge/tools/dataviz"
	"github.com/clawbridge/clawbridge/tools/dbquery"
	"github.com/clawbridge/clawbridge/tools/diary"
	"github.com/clawbridge/clawbridge/tools/docgen"
	"github.com/clawbridge/clawbridge/tools/education"
	"github.com/clawbridge/clawbridge/tools/email"
	"github.com/clawbridge/clawbridge/tools/file"
	"github.com/clawbridge/clawbridge/tools/finance"
	"github.com/clawbridge/clawbridge/tools/finreport"
	"github.com/clawbridge/clawbridge/tools/gifmaker"
	"github.com/clawbridge/clawbridge/tools/idphoto"
	"github.com/clawbridge/clawbridge/tools/imagegen"
	"github.com/clawbridge/clawbridge/tools/knowledge"
	"github.com/clawbridge/clawbridge/tools/literature"
	"github.com/clawbridge/clawbridge/tools/mindmap"
	"github.com/clawbridge/clawbridge/tools/notify"
	"github.com/clawbridge/clawbridge/tools/ocr"
	"github.com/clawbridge/clawbridge/tools/pdf"
	"github.com/clawbridge/clawbridge/tools/pptgen"
	"github.com/clawbridge/clawbridge/tools/pyrunner"
	"github.com/clawbridge/clawbridge/tools/resume"
	"github.com/clawbridge/clawbridge/tools/screen"
	"github.com/clawbridge/clawbridge/tools/search"
	"github.com/clawbridge/clawbridge/tools/shell"
	"github.com/clawbridge/clawbridge/tools/speech"
	"github.com/clawbridge/clawbridge/tools/system"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/weather"
	"github.com/clawbridge/clawbridge/tools/webfetch"
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

// All builds every tool in registry order (lifecycle steps 1 to 3, see
// tools/tool/lifecycle.go); when some fail, it still builds the others, so
// that every config section is read, and reports every failure. A problem
// in any tool's config section refuses the whole registry, whatever the
// tool's own code did with it: the section problems are then the error.
// On an error the tools already built are closed.
func All(d *tool.Deps) ([]tool.Tool, error) {
	out := make([]tool.Tool, 0, len(registry))
	var errs []error
	for i, c := range registry {
		t, err := c(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("registry entry %d: %w", i, err))
			continue
		}
		out = append(out, t)
	}
	if d.Config != nil {
		if problems := d.Config.SectionError(); problems != nil {
			errs = []error{problems} // they include the constructors' own section errors
		}
	}
	if len(errs) > 0 {
		for _, t := range out {
			tool.CloseTool(t)
		}
		return nil, errors.Join(errs...)
	}
	return out, nil
}
