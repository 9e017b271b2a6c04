package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// Target addresses an element by snapshot ref or CSS selector.
type Target struct {
	Ref      string
	Selector string
}

func (tg Target) empty() bool { return tg.Ref == "" && tg.Selector == "" }

func (tg Target) String() string {
	if tg.Ref != "" {
		return "ref " + tg.Ref
	}
	return "selector " + strconvQuote(tg.Selector)
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

func (t *Tab) element(ctx context.Context, tg Target) (*rod.Element, error) {
	if tg.Ref != "" {
		el, err := t.resolve(ctx, tg.Ref)
		if err != nil {
			return nil, err
		}
		return el.Context(ctx), nil
	}
	if tg.Selector == "" {
		return nil, toolerr.Invalidf("ref", "give the ref of an element from a snapshot, or a CSS selector", "no element given")
	}
	// Look once now and keep looking for a short while: the element may still
	// be rendering.
	wctx, cancel := context.WithTimeout(ctx, min(t.s.m.cfg.ActionTimeout, 5*time.Second))
	defer cancel()
	el, err := t.page.Context(wctx).Element(tg.Selector)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, toolerr.NotFoundf("selector", "check the selector, wait_for it, or take a snapshot and use a ref",
			"no element matches the selector %q", tg.Selector)
	}
	return el.Context(ctx), nil
}

// Result is what a page action returns: the page afterwards.
type Result struct {
	PageInfo
	Message string `json:"message,omitempty"`
}

func (s *Session) actionTimeout() time.Duration { return s.m.cfg.ActionTimeout }
func (s *Session) navTimeout() time.Duration    { return s.m.cfg.NavigationTimeout }

// checkNavigation applies the network guard and the origin policy to a URL
// before the browser goes there, for a clear error up front (the proxy
// enforces the same rules on every request, redirects included).
func (s *Session) checkNavigation(ctx context.Context, raw string) (*url.URL, error) {
	u, err := s.m.guard.CheckURL(raw)
	if err != nil {
		return nil, &toolerr.Error{Code: toolerr.CodeDenied, Field: "url", Message: err.Error(),
			Hint: "only public http(s) addresses are reachable unless the config's network.allow_hosts lists the host"}
	}
	if reason := s.m.policy.checkURL(u); reason != "" {
		return nil, &toolerr.Error{Code: toolerr.CodeDenied, Field: "url", Message: reason, Hint: "change tools.browser.allowed_origins / blocked_origins in the config"}
	}
	if err := s.m.guard.CheckHost(ctx, u.Hostname()); err != nil {
		return nil, &toolerr.Error{Code: toolerr.CodeDenied, Field: "url", Message: err.Error(),
			Hint: "only public addresses are reachable unless the config's network.allow_hosts lists the host"}
	}
	return u, nil
}

// Navigate opens url in the current tab (a new tab if there is none).
func (s *Session) Navigate(ctx context.Context, raw string) (*Result, error) {
	var res *Result
	err := s.op(ctx, s.navTimeout(), func(ctx context.Context) error {
		if _, err := s.checkNavigation(ctx, raw); err != nil {
			return err
		}
		t, err := s.tab(ctx)
		if err != nil {
			return err
		}
		res, err = t.navigate(ctx, raw)
		return err
	})
	return res, err
}

func (t *Tab) navigate(ctx context.Context, raw string) (*Result, error) {
	start := time.Now()
	p := t.page.Context(ctx)
	navErr := p.Navigate(raw)
	if navErr == nil {
		navErr = p.WaitLoad()
	}
	blocked := t.s.bc.proxy.blockedSince(start)
	pi := t.info(ctx)
	for _, b := range blocked {
		if b.URL == pi.URL || sameHostPort(b.URL, pi.URL) || navErr != nil {
			return nil, &toolerr.Error{Code: toolerr.CodeDenied, Field: "url",
				Message: fmt.Sprintf("navigation to %s was refused: %s", b.URL, b.Reason),
				Hint:    "the page or one of its redirects points at a private or blocked address"}
		}
	}
	if navErr != nil {
		var ne *rod.NavigationError
		if errors.As(navErr, &ne) {
			return nil, errorf(toolerr.CodeFailed, "check the URL; the site may be down", "navigation to %s failed: %s", raw, ne.Reason)
		}
		return nil, fmt.Errorf("navigate %s: %w", raw, navErr)
	}
	t.lastSnapshot = nil
	return &Result{PageInfo: pi}, nil
}

func sameHostPort(a, b string) bool {
	ua, e1 := url.Parse(a)
	ub, e2 := url.Parse(b)
	return e1 == nil && e2 == nil && ua.Host == ub.Host && ub.Host != ""
}

// History moves back, forward or reloads.
func (s *Session) History(ctx context.Context, dir string) (*Result, error) {
	var res *Result
	err := s.op(ctx, s.navTimeout(), func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		p := t.page.Context(ctx)
		switch dir {
		case "back":
			err = p.NavigateBack()
		case "forward":
			err = p.NavigateForward()
		default:
			err = p.Reload()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		t.settle(ctx)
		t.lastSnapshot = nil
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return res, err
}

// Snapshot returns the current tab's accessibility outline.
func (s *Session) Snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error) {
	var snap *Snapshot
	err := s.op(ctx, s.actionTimeout()*3, func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		snap, err = t.snapshot(ctx, opts)
		return err
	})
	return snap, err
}

// ClickOptions modify a click.
type ClickOptions struct {
	Double bool
	Button string // left (default), right, middle
}

// Click clicks an element and waits for a navigation it starts.
func (s *Session) Click(ctx context.Context, tg Target, o ClickOptions) (*Result, error) {
	return s.onElement(ctx, tg, func(ctx context.Context, t *Tab, el *rod.Element) error {
		btn := proto.InputMouseButtonLeft
		switch o.Button {
		case "right":
			btn = proto.InputMouseButtonRight
		case "middle":
			btn = proto.InputMouseButtonMiddle
		}
		n := 1
		if o.Double {
			n = 2
		}
		if err := el.Click(btn, n); err != nil {
			return actionErr("click", tg, err)
		}
		return nil
	})
}

// Type replaces the text of an input (or appends when clear is false) and
// optionally presses Enter.
func (s *Session) Type(ctx context.Context, tg Target, text string, clear, submit bool) (*Result, error) {
	return s.onElement(ctx, tg, func(ctx context.Context, t *Tab, el *rod.Element) error {
		if clear {
			if _, err := el.Eval(`() => { if ('value' in this) { this.value = ''; this.dispatchEvent(new Event('input', {bubbles: true})); } else if (this.isContentEditable) { this.textContent = ''; } }`); err != nil {
				return actionErr("type", tg, err)
			}
		}
		if err := el.Input(text); err != nil {
			return actionErr("type", tg, err)
		}
		if submit {
			if err := t.page.Context(ctx).Keyboard.Type(input.Enter); err != nil {
				return actionErr("type", tg, err)
			}
		}
		return nil
	})
}

// Hover moves the mouse over an element.
func (s *Session) Hover(ctx context.Context, tg Target) (*Result, error) {
	return s.onElement(ctx, tg, func(ctx context.Context, t *Tab, el *rod.Element) error {
		if err := el.Hover(); err != nil {
			return actionErr("hover", tg, err)
		}
		return nil
	})
}

// Select chooses options of a <select> by value or visible text.
func (s *Session) Select(ctx context.Context, tg Target, values []string) (*Result, error) {
	return s.onElement(ctx, tg, func(ctx context.Context, t *Tab, el *rod.Element) error {
		r, err := el.Eval(`(vals) => {
  if (this.tagName !== 'SELECT') return 'not a select element';
  const want = new Set(vals.map(v => v.trim()));
  let n = 0;
  for (const o of this.options) {
    const hit = want.has(o.value) || want.has(o.label.trim()) || want.has(o.text.trim());
    if (hit && (this.multiple || n === 0)) { o.selected = true; n++; } else if (this.multiple) { o.selected = false; }
  }
  if (n === 0) return 'no option matches ' + JSON.stringify(vals) + '; options: ' + JSON.stringify([...this.options].map(o => o.text.trim()));
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}`, values)
		if err != nil {
			return actionErr("select", tg, err)
		}
		if msg := r.Value.Str(); msg != "" {
			return toolerr.Invalidf("values", "use the option values or texts shown in the snapshot", "select: %s", msg)
		}
		return nil
	})
}

// Press presses a key or a combination ("Enter", "Control+a"), on an element
// when given (it is focused first).
func (s *Session) Press(ctx context.Context, tg Target, key string) (*Result, error) {
	keys, err := parseKeys(key)
	if err != nil {
		return nil, err
	}
	fn := func(ctx context.Context, t *Tab, el *rod.Element) error {
		if el != nil {
			if err := el.Focus(); err != nil {
				return actionErr("press", tg, err)
			}
		}
		ka := t.page.Context(ctx).KeyActions()
		for _, k := range keys[:len(keys)-1] {
			ka = ka.Press(k)
		}
		if err := ka.Type(keys[len(keys)-1]).Do(); err != nil {
			return fmt.Errorf("press %s: %w", key, err)
		}
		return nil
	}
	if tg.empty() {
		return s.onPage(ctx, func(ctx context.Context, t *Tab) error { return fn(ctx, t, nil) })
	}
	return s.onElement(ctx, tg, fn)
}

// Scroll scrolls an element into view, or the page by dx/dy pixels, or to
// "top"/"bottom".
func (s *Session) Scroll(ctx context.Context, tg Target, dx, dy float64, to string) (*Result, error) {
	if !tg.empty() {
		return s.onElement(ctx, tg, func(ctx context.Context, t *Tab, el *rod.Element) error {
			return el.ScrollIntoView()
		})
	}
	return s.onPage(ctx, func(ctx context.Context, t *Tab) error {
		p := t.page.Context(ctx)
		var err error
		switch to {
		case "top":
			_, err = p.Eval(`() => window.scrollTo(0, 0)`)
		case "bottom":
			_, err = p.Eval(`() => window.scrollTo(0, document.documentElement.scrollHeight)`)
		default:
			if dx == 0 && dy == 0 {
				dy = float64(s.m.cfg.ViewportHeight) * 0.8
			}
			_, err = p.Eval(`(x, y) => window.scrollBy(x, y)`, dx, dy)
		}
		return err
	})
}

func (s *Session) onElement(ctx context.Context, tg Target, fn func(ctx context.Context, t *Tab, el *rod.Element) error) (*Result, error) {
	return s.onPage(ctx, func(ctx context.Context, t *Tab) error {
		el, err := t.element(ctx, tg)
		if err != nil {
			return err
		}
		return fn(ctx, t, el)
	})
}

// onPage runs a page action, then waits for any navigation it caused.
func (s *Session) onPage(ctx context.Context, fn func(ctx context.Context, t *Tab) error) (*Result, error) {
	var res *Result
	err := s.op(ctx, s.actionTimeout()+s.navTimeout(), func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, s.actionTimeout())
		err = fn(actx, t)
		cancel()
		if err != nil {
			if actx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
				if _, ok := toolerr.As(err); !ok {
					return errorf(toolerr.CodeTimeout, "the element may be hidden, covered or disabled; take a snapshot, or wait_for it",
						"the action did not complete within %s", s.actionTimeout())
				}
			}
			return err
		}
		t.settle(ctx)
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return res, err
}

func actionErr(what string, tg Target, err error) error {
	if _, ok := toolerr.As(err); ok {
		return err
	}
	var inv *rod.InvisibleShapeError
	var cov *rod.CoveredError
	var nc *rod.NotInteractableError
	switch {
	case errors.As(err, &inv):
		return errorf(toolerr.CodeFailed, "scroll or wait until it is visible; take a snapshot", "%s %s: the element is not visible", what, tg)
	case errors.As(err, &cov):
		return errorf(toolerr.CodeFailed, "close the overlay first (a dialog, banner or menu); take a snapshot", "%s %s: the element is covered by another element", what, tg)
	case errors.As(err, &nc):
		return errorf(toolerr.CodeFailed, "take a snapshot and pick an interactive element", "%s %s: the element cannot be interacted with", what, tg)
	case errors.Is(err, context.DeadlineExceeded):
		return errorf(toolerr.CodeTimeout, "the element may be hidden, covered or disabled", "%s %s timed out", what, tg)
	}
	return fmt.Errorf("%s %s: %w", what, tg, err)
}

var namedKeys = map[string]input.Key{
	"enter": input.Enter, "return": input.Enter, "tab": input.Tab, "escape": input.Escape, "esc": input.Escape,
	"backspace": input.Backspace, "delete": input.Delete, "space": input.Space, " ": input.Space,
	"arrowup": input.ArrowUp, "arrowdown": input.ArrowDown, "arrowleft": input.ArrowLeft, "arrowright": input.ArrowRight,
	"up": input.ArrowUp, "down": input.ArrowDown, "left": input.ArrowLeft, "right": input.ArrowRight,
	"home": input.Home, "end": input.End, "pageup": input.PageUp, "pagedown": input.PageDown, "insert": input.Insert,
	"shift": input.ShiftLeft, "control": input.ControlLeft, "ctrl": input.ControlLeft, "alt": input.AltLeft,
	"meta": input.MetaLeft, "cmd": input.MetaLeft,
	"f1": input.F1, "f2": input.F2, "f3": input.F3, "f4": input.F4, "f5": input.F5, "f6": input.F6,
	"f7": input.F7, "f8": input.F8, "f9": input.F9, "f10": input.F10, "f11": input.F11, "f12": input.F12,
}

// parseKeys reads "Enter", "a", "Control+Shift+k".
func parseKeys(spec string) ([]input.Key, error) {
	if spec == "" {
		return nil, toolerr.Invalidf("key", "e.g. Enter, Tab, ArrowDown, Control+a", "no key given")
	}
	var parts []string
	if spec == "+" {
		parts = []string{"+"}
	} else {
		parts = strings.Split(spec, "+")
	}
	keys := make([]input.Key, 0, len(parts))
	for _, p := range parts {
		if k, ok := namedKeys[strings.ToLower(p)]; ok {
			keys = append(keys, k)
			continue
		}
		r := []rune(p)
		if len(r) == 1 && r[0] < 128 {
			keys = append(keys, input.Key(r[0]))
			continue
		}
		return nil, toolerr.Invalidf("key", "use key names like Enter, Tab, Escape, ArrowDown, PageDown, F5, a single character, or combinations like Control+a", "unknown key %q", p)
	}
	return keys, nil
}
