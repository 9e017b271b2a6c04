package browseruse

import (
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/browser/browsertest"
	"github.com/clawbridge/clawbridge/fixtures/site"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// mgr is the package's shared browser (browsertest.Main).
var mgr *browser.Manager

func TestMain(m *testing.M) { browsertest.Main(m, &mgr) }

func newTool(t *testing.T) tool.Tool {
	t.Helper()
	browsertest.Need(t, mgr)
	d := tooltest.Deps(t, "127.0.0.1")
	d.Browser = mgr
	tl := tooltest.Build(t, New, d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestRun(t *testing.T) {
	tl := newTool(t)
	srv := site.Start(t)
	defer mgr.CloseSession("")
	res, err := tooltest.Run(t, tl, map[string]any{"action": "run", "steps": []any{
		map[string]any{"action": "navigate", "url": srv.At("/form.html")},
		map[string]any{"action": "type", "selector": "#name", "text": "Alan Turing"},
		map[string]any{"action": "select", "selector": "#country", "values": []any{"France"}},
		map[string]any{"action": "click", "selector": "button[type=submit]"},
		map[string]any{"action": "wait_for", "text": "Thank you"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	data := res.Data.(map[string]any)
	steps := data["steps"].([]StepOutcome)
	if len(steps) != 5 || !steps[4].OK || data["failed_step"] != nil {
		t.Fatalf("steps: %+v", steps)
	}
	final := data["final"].(map[string]any)
	if !strings.Contains(final["snapshot"].(string), "name=Alan Turing") {
		t.Fatalf("final snapshot: %v", final)
	}
	// Stops at the first failure.
	res, err = tooltest.Run(t, tl, map[string]any{"action": "run", "snapshot_limit": 0, "steps": []any{
		map[string]any{"action": "navigate", "url": srv.At("/table.html")},
		map[string]any{"action": "click", "selector": "#does-not-exist"},
		map[string]any{"action": "navigate", "url": srv.At("/form.html")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	data = res.Data.(map[string]any)
	steps = data["steps"].([]StepOutcome)
	if len(steps) != 2 || steps[1].OK || data["failed_step"] != 2 || !strings.Contains(steps[1].Error, "no element matches") {
		t.Fatalf("failure: %+v", data)
	}
	// Invalid steps are refused before anything runs.
	_, err = tooltest.Run(t, tl, map[string]any{"action": "run", "steps": []any{
		map[string]any{"action": "navigate", "url": srv.At("/form.html")},
		map[string]any{"action": "teleport"},
	}})
	if e, ok := tool.AsError(err); !ok || !strings.Contains(e.Message, "step 2") {
		t.Fatalf("invalid step: %v", err)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "run", "steps": []any{map[string]any{"action": "evaluate", "script": "1"}}})
	if e, ok := tool.AsError(err); !ok || !strings.Contains(e.Message, "evaluate") {
		t.Fatalf("evaluate step: %v", err)
	}
}

func TestExtractAndFill(t *testing.T) {
	tl := newTool(t)
	srv := site.Start(t)
	defer mgr.CloseSession("")
	res := tooltest.OK(t, tl, map[string]any{"action": "extract", "url": srv.At("/table.html")})
	ex := res.Data.(*browser.Extracted)
	if ex.Title != "Prices" || len(ex.Tables) != 1 || ex.Tables[0].Rows[0][0] != "Apple" || ex.Tables[0].Caption != "Fruit prices" {
		t.Fatalf("extract: %+v", ex)
	}
	res, err := tooltest.Run(t, tl, map[string]any{"action": "fill_form", "url": srv.At("/form.html"), "submit": true,
		"fields": map[string]any{"Full name": "王小明", "Email": "wang@example.cn", "country": "cn", "Subscribe to news": true, "Comment": "你好"}})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(map[string]any)
	if d["title"] != "Thank you" || d["submitted"] != "ok" {
		t.Fatalf("fill: %v", d)
	}
	res, err = tooltest.Run(t, tl, map[string]any{"action": "extract", "max_text": 500})
	if err != nil {
		t.Fatal(err)
	}
	if txt := res.Data.(*browser.Extracted).Text; !strings.Contains(txt, "name=王小明") || !strings.Contains(txt, "subscribe=yes") || !strings.Contains(txt, "comment=你好") {
		t.Fatalf("submitted: %q", txt)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "fill_form", "url": srv.At("/form.html"), "fields": map[string]any{"Shoe size": "42"}})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeNotFound {
		t.Fatalf("unknown field: %v", err)
	}
}
