package browsertool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Runner executes browser actions for a session. browser_use runs its steps
// through the same Runner, so both tools speak one vocabulary.
type Runner struct {
	d *tool.Deps
	m *browser.Manager // nil when no browser is configured
}

// NewRunner returns a runner over the browser manager m (nil: none).
func NewRunner(d *tool.Deps, m *browser.Manager) *Runner { return &Runner{d: d, m: m} }

// ActionNames lists the browser vocabulary (for browser_use's validation).
func ActionNames() []string {
	var out []string
	for _, a := range actions() {
		out = append(out, a.Name)
	}
	return out
}

// Err turns a browser library error into a tool error; other errors pass.
func Err(err error) error {
	if err == nil {
		return nil
	}
	if te, ok := tool.AsError(err); ok {
		return te
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return tool.Errorf(tool.CodeTimeout, "raise the timeout or wait for something more specific", "browser: %v", err)
	}
	if errors.Is(err, browser.ErrClosed) {
		return tool.Errorf(tool.CodeUnavailable, "the server is shutting down", "the browser is closed")
	}
	return tool.Errorf(tool.CodeFailed, "take a snapshot to see the page's state", "browser: %v", err)
}

func (r *Runner) session(key string) (*browser.Session, error) {
	if r.m == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "install Chromium (apt-get install chromium) and restart clawbridge",
			"no browser is configured on this server")
	}
	if _, err := r.m.BrowserPath(); err != nil {
		return nil, Err(err)
	}
	return r.m.Session(key), nil
}

func target(a tool.Args) browser.Target {
	return browser.Target{Ref: a.String("ref"), Selector: a.String("selector")}
}

func needTarget(a tool.Args) (browser.Target, error) {
	tg := target(a)
	if tg.Ref == "" && tg.Selector == "" {
		return tg, tool.Invalid("ref", "this action needs an element: give ref (from a snapshot) or selector", "take a snapshot to get refs")
	}
	return tg, nil
}

// Do runs one browser action for the session key (browser_use's steps).
func (r *Runner) Do(ctx context.Context, key, action string, a tool.Args) (*tool.Result, error) {
	v, ok := verbs[action]
	if !ok {
		return nil, tool.Invalid("action", fmt.Sprintf("unknown browser action %q", action), "one of: "+strings.Join(ActionNames(), ", "))
	}
	return r.run(ctx, key, v, a)
}

// handler is the tool handler of one action: its verb in the call's
// session.
func (r *Runner) handler(v verb) tool.Handler {
	return func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return r.run(ctx, c.Session, v, c.Args) }
}

// run does v in the session key and reports what the page did meanwhile
// (dialogs, downloads, new tabs, blocked requests).
func (r *Runner) run(ctx context.Context, key string, v verb, a tool.Args) (*tool.Result, error) {
	s, err := r.session(key)
	if err != nil {
		return nil, err
	}
	res, err := v(r, ctx, s, a)
	ev := s.TakeEvents()
	if err != nil {
		te := Err(err)
		if t, ok := te.(*tool.Error); ok && ev.Notice != "" {
			t.Message += " — " + ev.Notice
		}
		return nil, te
	}
	attachEvents(res, ev)
	return res, nil
}

func attachEvents(res *tool.Result, ev browser.Events) {
	m, ok := res.Data.(map[string]any)
	if !ok {
		return
	}
	if ev.Notice != "" {
		m["notice"] = ev.Notice
		res.Summary = ev.Notice + " " + res.Summary
	}
	if len(ev.Dialogs) > 0 {
		m["dialogs"] = ev.Dialogs
	}
	if len(ev.Downloads) > 0 {
		m["downloads"] = ev.Downloads
	}
	if len(ev.Blocked) > 0 {
		m["blocked_requests"] = ev.Blocked
	}
	if len(ev.NewTabs) > 0 {
		m["new_tabs"] = ev.NewTabs
		res.Summary += fmt.Sprintf(" The page opened %d new tab(s); %s is now current.", len(ev.NewTabs), ev.NewTabs[len(ev.NewTabs)-1])
	}
}

func pageData(res *browser.Result) map[string]any {
	m := map[string]any{"tab": res.Tab, "url": res.URL, "title": res.Title}
	if res.Message != "" {
		m["message"] = res.Message
	}
	return m
}

func pageResult(verb string, res *browser.Result) *tool.Result {
	return &tool.Result{
		Summary: fmt.Sprintf("%s; now at %q (%s).", verb, res.Title, res.URL),
		Data:    pageData(res),
	}
}

// verb is one browser action's work in a session.
type verb func(r *Runner, ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error)

// verbs holds the work of every action in actions(), by name: the browser
// tool's handlers and browser_use's steps both run through it.
var verbs = map[string]verb{
	"navigate":   (*Runner).navigate,
	"back":       history("back", "Went back"),
	"forward":    history("forward", "Went forward"),
	"reload":     history("reload", "Reloaded"),
	"snapshot":   (*Runner).snapshot,
	"click":      (*Runner).click,
	"type":       (*Runner).typeText,
	"press":      (*Runner).press,
	"select":     (*Runner).selectOptions,
	"hover":      (*Runner).hover,
	"scroll":     (*Runner).scroll,
	"wait_for":   (*Runner).waitFor,
	"screenshot": (*Runner).screenshot,
	"pdf":        (*Runner).pdf,
	"tabs":       (*Runner).tabs,
	"console":    (*Runner).console,
	"evaluate":   (*Runner).evaluate,
}

func (r *Runner) navigate(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	res, err := s.Navigate(ctx, a.String("url"))
	if err != nil {
		return nil, err
	}
	out := pageResult("Opened the page", res)
	out.Data.(map[string]any)["hint"] = "take a snapshot to see the page and get element refs"
	return out, nil
}

// history is back, forward or reload.
func history(action, done string) verb {
	return func(_ *Runner, ctx context.Context, s *browser.Session, _ tool.Args) (*tool.Result, error) {
		res, err := s.History(ctx, action)
		if err != nil {
			return nil, err
		}
		return pageResult(done, res), nil
	}
}

func (r *Runner) snapshot(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	snap, err := s.Snapshot(ctx, browser.SnapshotOptions{Offset: a.Int("offset", 0), Limit: a.Int("limit", 0), Diff: a.Bool("diff", false)})
	if err != nil {
		return nil, err
	}
	sum := fmt.Sprintf("Snapshot of %q: %s of %d, %s.", snap.Title, wording.Count(len(snap.Text), "character", "characters"), snap.TotalChars, wording.Count(snap.Refs, "interactive element", "interactive elements"))
	if snap.Truncated {
		sum += fmt.Sprintf(" More with offset=%d.", snap.NextOffset)
	}
	return &tool.Result{Summary: sum, Data: map[string]any{
		"tab": snap.Tab, "url": snap.URL, "title": snap.Title, "snapshot": snap.Text,
		"offset": snap.Offset, "next_offset": snap.NextOffset, "total_chars": snap.TotalChars,
		"truncated": snap.Truncated, "refs": snap.Refs, "diff": snap.Diff, "removed_lines": snap.Removed,
	}}, nil
}

func (r *Runner) click(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	tg, err := needTarget(a)
	if err != nil {
		return nil, err
	}
	res, err := s.Click(ctx, tg, browser.ClickOptions{Double: a.Bool("double", false), Button: a.String("button")})
	if err != nil {
		return nil, err
	}
	return pageResult("Clicked "+tg.String(), res), nil
}

func (r *Runner) typeText(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	tg, err := needTarget(a)
	if err != nil {
		return nil, err
	}
	res, err := s.Type(ctx, tg, a.String("text"), !a.Bool("append", false), a.Bool("submit", false))
	if err != nil {
		return nil, err
	}
	return pageResult(fmt.Sprintf("Typed %s into %s", wording.Count(len([]rune(a.String("text"))), "character", "characters"), tg), res), nil
}

func (r *Runner) press(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	res, err := s.Press(ctx, target(a), a.String("key"))
	if err != nil {
		return nil, err
	}
	return pageResult("Pressed "+a.String("key"), res), nil
}

func (r *Runner) selectOptions(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	tg, err := needTarget(a)
	if err != nil {
		return nil, err
	}
	vals := a.Strings("values")
	if len(vals) == 0 {
		return nil, tool.Invalid("values", "give at least one option value or text", "")
	}
	res, err := s.Select(ctx, tg, vals)
	if err != nil {
		return nil, err
	}
	return pageResult(fmt.Sprintf("Selected %s in %s", strings.Join(vals, ", "), tg), res), nil
}

func (r *Runner) hover(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	tg, err := needTarget(a)
	if err != nil {
		return nil, err
	}
	res, err := s.Hover(ctx, tg)
	if err != nil {
		return nil, err
	}
	return pageResult("Hovered over "+tg.String(), res), nil
}

func (r *Runner) scroll(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	res, err := s.Scroll(ctx, target(a), a.Float("dx", 0), a.Float("dy", 0), a.String("to"))
	if err != nil {
		return nil, err
	}
	return pageResult("Scrolled", res), nil
}

func (r *Runner) waitFor(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	w := browser.WaitOptions{Text: a.String("text"), TextGone: a.String("text_gone"), Selector: a.String("selector"),
		Time: time.Duration(a.Float("seconds", 0) * float64(time.Second)), Timeout: time.Duration(a.Float("timeout", 0) * float64(time.Second))}
	if w.Text == "" && w.TextGone == "" && w.Selector == "" && w.Time == 0 {
		return nil, tool.Invalid("text", "give one of text, text_gone, selector or seconds", "")
	}
	res, err := s.WaitFor(ctx, w)
	if err != nil {
		return nil, err
	}
	return pageResult(strings.ToUpper(res.Message[:1])+res.Message[1:], res), nil
}

func (r *Runner) console(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	msgs, err := s.Console(ctx, a.Int("limit", 50))
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%d console messages.", len(msgs)), Data: map[string]any{"messages": msgs}}, nil
}

func (r *Runner) evaluate(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	v, err := s.Evaluate(ctx, a.String("script"), target(a))
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: "Script ran.", Data: map[string]any{"result": v}}, nil
}

func (r *Runner) screenshot(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	png, res, err := s.Screenshot(ctx, browser.ScreenshotOptions{FullPage: a.Bool("full_page", false), Target: target(a)})
	if err != nil {
		return nil, err
	}
	out := &tool.Result{Summary: fmt.Sprintf("Screenshot of %q (%d KB).", res.Title, len(png)/1024), Data: pageData(res)}
	out.Images = []tool.Image{{MIME: "image/png", Data: png}}
	if a.Bool("save", false) || a.String("output") != "" {
		f, err := r.save(a, "screenshot", ".png", png)
		if err != nil {
			return nil, err
		}
		out.Files = []tool.File{f}
		out.Data.(map[string]any)["path"] = f.Path
		out.Summary += " Saved to " + r.d.Sandbox.Rel(f.Path) + "."
	}
	return out, nil
}

func (r *Runner) pdf(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	data, res, err := s.PDF(ctx, tool.PDFOptions{PageSize: a.String("page_size"), Landscape: a.Bool("landscape", false)})
	if err != nil {
		return nil, err
	}
	f, err := r.save(a, "page", ".pdf", data)
	if err != nil {
		return nil, err
	}
	path := f.Path
	d := pageData(res)
	d["path"] = path
	d["bytes"] = len(data)
	return &tool.Result{
		Summary: fmt.Sprintf("Printed %q to %s (%d KB).", res.Title, r.d.Sandbox.Rel(path), len(data)/1024),
		Data:    d,
		Files:   []tool.File{f},
	}, nil
}

// save writes a produced file to `output` or outputs/<stem><ext>
// (see tool.PlanOutput).
func (r *Runner) save(a tool.Args, stem, ext string, data []byte) (tool.File, error) {
	out, err := tool.PlanOutput(r.d.Sandbox, a, tool.Output{Stem: stem, Exts: []string{ext}})
	if err != nil {
		return tool.File{}, err
	}
	return out.Write(ext, data)
}

func (r *Runner) tabs(ctx context.Context, s *browser.Session, a tool.Args) (*tool.Result, error) {
	switch a.StringOr("mode", "list") {
	case "new":
		res, err := s.NewTab(ctx, a.String("url"))
		if err != nil {
			return nil, err
		}
		return pageResult("Opened tab "+res.Tab, res), nil
	case "select":
		if a.String("tab") == "" {
			return nil, tool.Invalid("tab", "give the tab id to select (see tabs mode list)", "")
		}
		res, err := s.SelectTab(ctx, a.String("tab"))
		if err != nil {
			return nil, err
		}
		return pageResult("Selected tab "+res.Tab, res), nil
	case "close":
		left, err := s.CloseTab(ctx, a.String("tab"))
		if err != nil {
			return nil, err
		}
		return &tool.Result{Summary: fmt.Sprintf("Closed the tab; %d left.", len(left)), Data: map[string]any{"tabs": left}}, nil
	default:
		tabs, err := s.Tabs(ctx)
		if err != nil {
			return nil, err
		}
		return &tool.Result{Summary: fmt.Sprintf("%s open.", wording.Count(len(tabs), "tab", "tabs")), Data: map[string]any{"tabs": tabs}}, nil
	}
}
