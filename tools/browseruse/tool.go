// Package browseruse is the `browser_use` tool: several browser steps in one
// call (run), structured extraction of a page (extract) and form filling
// (fill_form), on the same per-session browser context as `browser`.
package browseruse

import (
	"context"
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/browsertool"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type runner struct {
	d  *tool.Deps
	m  *browser.Manager // nil when no browser is configured
	br *browsertool.Runner
}

// New builds the browser_use tool over the shared manager m (nil: every call
// says that no browser is available).
func New(d *tool.Deps) (tool.Tool, error) {
	m := browsertool.Manager(d)
	r := &runner{d: d, m: m, br: browsertool.NewRunner(d, m)}
	return tool.Tool{
		Name:        "browser_use",
		Title:       "Browser task runner",
		Description: "Do several browser steps in one call (run, in the browser tool's vocabulary; stops at the first failure), extract structured data from a page, or fill a form.",
		Actions: []tool.Action{
			{Name: "run", Handler: r.run, Description: "browser steps in order, stopping at the first failure", Level: tool.Write, Timeout: tool.Slow,
				Params: []tool.Param{
					{Name: "steps", Type: tool.Array, Required: true, Description: "Steps, each a browser action (not evaluate) and its fields, e.g. {\"action\":\"click\",\"ref\":\"e5\"}.",
						Items: &tool.Param{Name: "step", Type: tool.Object,
							Properties: []tool.Param{{Name: "action", Type: tool.String, Description: "A browser action.", Required: true}}}},
					{Name: "snapshot_limit", Type: tool.Integer, Description: "Characters of the final snapshot (0: none).", Min: tool.Ptr(0), Max: tool.Ptr(50000)},
				}},
			{Name: "extract", Handler: r.extract, Description: "structured content of a URL or the current page", Level: tool.Write, Timeout: tool.Normal,
				Params: []tool.Param{
					{Name: "url", Type: tool.String, Description: "URL to open first; empty: the current page."},
					{Name: "max_text", Type: tool.Integer, Default: 0, Description: "Characters of text to return too.", Min: tool.Ptr(0), Max: tool.Ptr(200000)},
					{Name: "max_links", Type: tool.Integer, Default: 200, Description: "Links to return.", Min: tool.Ptr(0), Max: tool.Ptr(2000)},
				}},
			{Name: "fill_form", Handler: r.fill, Description: "fill fields by label, name or id, optionally submit", Level: tool.Write, Timeout: tool.Normal,
				Params: []tool.Param{
					{Name: "fields", Type: tool.Object, Required: true, Description: "Field label, name or id to value; checkboxes take true/false, selects the option."},
					{Name: "submit", Type: tool.Boolean},
					{Name: "url", Type: tool.String, Description: "URL to open first; empty: the current page."},
				}},
		},
		OpenWorld: true,
		Programs:  tool.ProgramsOf("chromium"),
		Examples: []string{
			"log in to the site, open the reports page and download the latest report",
			"extract all tables and links from this web page",
			"fill the registration form with my name and email and submit it",
			"scrape the product list from this page",
			"提取这个网页上的表格数据",
			"帮我在网站上填写并提交这个表单",
		},
	}, nil
}

func (r *runner) session(key string) (*browser.Session, error) {
	if r.m == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "install Chromium (apt-get install chromium) and restart clawbridge", "no browser is configured on this server")
	}
	if _, err := r.m.BrowserPath(); err != nil {
		return nil, browsertool.Err(err)
	}
	return r.m.Session(key), nil
}

// StepOutcome is what one step did.
type StepOutcome struct {
	Index   int    `json:"index"`
	Action  string `json:"action"`
	OK      bool   `json:"ok"`
	Summary string `json:"summary,omitempty"`
	Error   string `json:"error,omitempty"`
	Data    any    `json:"data,omitempty"`
}

func (r *runner) run(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	var steps []map[string]any
	if err := c.Args.Decode("steps", &steps); err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		return nil, tool.Invalid("steps", "give at least one step", `e.g. [{"action":"navigate","url":"https://example.com"},{"action":"snapshot"}]`)
	}
	if len(steps) > 50 {
		return nil, tool.Invalid("steps", fmt.Sprintf("%d steps; at most 50 per call", len(steps)), "split the task into several calls")
	}
	// Validate every step before running any: a typo in step 5 should not
	// leave steps 1-4 half done.
	bt := browsertool.New(r.d, r.m)
	prepared := make([]*tool.Call, len(steps))
	for i, st := range steps {
		name, _ := st["action"].(string)
		if name == "evaluate" {
			return nil, tool.Invalid("steps", fmt.Sprintf("step %d: evaluate is not allowed inside run", i+1), "use the browser tool's evaluate action, which asks for confirmation")
		}
		call, err := bt.Prepare(st)
		if err != nil {
			if te, ok := tool.AsError(err); ok {
				return nil, &tool.Error{Code: te.Code, Field: "steps", Message: fmt.Sprintf("step %d: %s", i+1, te.Message), Hint: te.Hint}
			}
			return nil, err
		}
		prepared[i] = call
	}
	var outcomes []StepOutcome
	var images []tool.Image
	var files []tool.File
	failed := -1
	for i, call := range prepared {
		if ctx.Err() != nil {
			break
		}
		c.Progress(float64(i), float64(len(prepared)), "step "+call.Action)
		res, err := r.br.Do(ctx, c.Session, call.Action, call.Args)
		o := StepOutcome{Index: i + 1, Action: call.Action, OK: err == nil}
		if err != nil {
			o.Error = err.Error()
			outcomes = append(outcomes, o)
			failed = i
			break
		}
		o.Summary = res.Summary
		if call.Action == "snapshot" || call.Action == "tabs" || call.Action == "console" {
			o.Data = res.Data
		}
		images = append(images, res.Images...)
		files = append(files, res.Files...)
		outcomes = append(outcomes, o)
	}
	data := map[string]any{"steps": outcomes, "completed": len(outcomes) - boolInt(failed >= 0), "total": len(prepared)}
	if limit := c.Args.Int("snapshot_limit", 6000); limit > 0 {
		if s, err := r.session(c.Session); err == nil {
			if snap, err := s.Snapshot(ctx, browser.SnapshotOptions{Limit: max(limit, 500)}); err == nil {
				data["final"] = map[string]any{"url": snap.URL, "title": snap.Title, "snapshot": snap.Text,
					"truncated": snap.Truncated, "next_offset": snap.NextOffset}
			}
		}
	}
	sum := fmt.Sprintf("Ran %d of %d steps.", len(outcomes)-boolInt(failed >= 0), len(prepared))
	if failed >= 0 {
		sum = fmt.Sprintf("Step %d (%s) failed after %d succeeded: %s", failed+1, prepared[failed].Action, failed, outcomes[failed].Error)
		data["failed_step"] = failed + 1
	}
	return &tool.Result{Summary: sum, Data: data, Images: images, Files: files}, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (r *runner) extract(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	s, err := r.session(c.Session)
	if err != nil {
		return nil, err
	}
	ex, err := s.Extract(ctx, c.Args.String("url"), browser.ExtractOptions{MaxText: c.Args.Int("max_text", 0), MaxLinks: c.Args.Int("max_links", 200)})
	ev := s.TakeEvents()
	if err != nil {
		return nil, browsertool.Err(err)
	}
	sum := fmt.Sprintf("Extracted %q: %s, %s, %s, %s.", ex.Title, wording.Count(len(ex.Headings), "heading", "headings"), wording.Count(len(ex.Links), "link", "links"), wording.Count(len(ex.Tables), "table", "tables"), wording.Count(len(ex.Forms), "form", "forms"))
	if ev.Notice != "" {
		sum = ev.Notice + " " + sum
	}
	return &tool.Result{Summary: sum, Data: ex}, nil
}

func (r *runner) fill(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	s, err := r.session(c.Session)
	if err != nil {
		return nil, err
	}
	raw := c.Args.Object("fields")
	if len(raw) == 0 {
		return nil, tool.Invalid("fields", "give at least one field", `e.g. {"Email": "me@example.org"}`)
	}
	fields := map[string]string{}
	for k, v := range raw {
		switch x := v.(type) {
		case string:
			fields[k] = x
		case bool:
			fields[k] = fmt.Sprint(x)
		case float64:
			fields[k] = strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%f", x), "0"), ".")
		default:
			return nil, tool.Invalid("fields", fmt.Sprintf("field %q: value must be a string, number or boolean", k), "")
		}
	}
	if u := c.Args.String("url"); u != "" {
		if _, err := s.Navigate(ctx, u); err != nil {
			return nil, browsertool.Err(err)
		}
	}
	results, submitted, page, err := s.FillForm(ctx, fields, c.Args.Bool("submit", false))
	s.TakeEvents()
	if err != nil {
		return nil, browsertool.Err(err)
	}
	var bad []string
	for _, fr := range results {
		if !fr.OK {
			bad = append(bad, fmt.Sprintf("%s (%s)", fr.Field, fr.Error))
		}
	}
	data := map[string]any{"fields": results, "url": page.URL, "title": page.Title}
	if submitted != "" {
		data["submitted"] = submitted
	}
	if len(bad) > 0 {
		return nil, tool.NotFoundf("fields", "use the labels or names listed by browser_use extract; the form was not submitted",
			"could not fill %d of %s: %s", len(bad), wording.Count(len(results), "field", "fields"), strings.Join(bad, "; "))
	}
	sum := fmt.Sprintf("Filled %s.", wording.Count(len(results), "field", "fields"))
	if submitted == "ok" {
		sum += fmt.Sprintf(" Submitted; now at %q.", page.Title)
	}
	return &tool.Result{Summary: sum, Data: data}, nil
}
