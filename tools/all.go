// Package tools holds the explicit registry: one ordered list of every tool
// clawbridge publishes. Tools do not register themselves; adding one means
// adding its constructor here.
package tools

import (
	"errors"
	"fmt"

	"clawbridge/browser"
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

// constructor builds one tool; an error means its embedded data is broken.
// The browser manager is passed beside Deps (the contract does not carry
// go-rod); only the browser tools take it.
type constructor func(*tool.Deps, *browser.Manager) (tool.Tool, error)

// plain adapts a constructor that cannot fail.
func plain(f func(*tool.Deps) tool.Tool) constructor {
	return func(d *tool.Deps, _ *browser.Manager) (tool.Tool, error) { return f(d), nil }
}

// checked adapts a constructor that checks its embedded data or config.
func checked(f func(*tool.Deps) (tool.Tool, error)) constructor {
	return func(d *tool.Deps, _ *browser.Manager) (tool.Tool, error) { return f(d) }
}

// withBrowser adapts a browser tool's constructor, which cannot fail.
func withBrowser(f func(*tool.Deps, *browser.Manager) tool.Tool) constructor {
	return func(d *tool.Deps, m *browser.Manager) (tool.Tool, error) { return f(d, m), nil }
}

// registry is the publication order: the catalog's.
var registry = []constructor{
	withBrowser(browsertool.New),
	withBrowser(browseruse.New),
	webfetch.New,
	checked(search.New),
	plain(file.New),
	plain(shell.New),
	plain(screen.New),
	plain(system.New),
	plain(bridgetool.New),
	plain(pdf.New),
	plain(convert.New),
	plain(pptgen.New),
	plain(docgen.New),
	checked(contract.New),
	checked(resume.New),
	plain(mindmap.New),
	plain(dataproc.New),
	plain(dataviz.New),
	plain(finreport.New),
	plain(dbquery.New),
	checked(literature.New),
	checked(weather.New),
	plain(knowledge.New),
	checked(email.New),
	checked(notify.New),
	plain(codeassist.New),
	checked(cron.New),
	checked(calendar.New),
	checked(diary.New),
	checked(finance.New),
	checked(ocr.New),
	checked(speech.New),
	checked(gifmaker.New),
	checked(imagegen.New),
	checked(aiwriter.New),
	checked(pyrunner.New),
	checked(education.New),
	checked(idphoto.New),
}

// All builds every tool in registry order; when some fail, it still builds
// the others and reports every failure. m is the shared Chromium manager of
// the browser tools; nil means none is configured (they then answer that no
// browser is available).
func All(d *tool.Deps, m *browser.Manager) ([]tool.Tool, error) {
	out := make([]tool.Tool, 0, len(registry))
	var errs []error
	for i, c := range registry {
		t, err := c(d, m)
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
