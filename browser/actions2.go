package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/htmlpdf"
	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/go-rod/rod/lib/proto"
)

// WaitOptions say what to wait for; exactly one of them is normally set.
type WaitOptions struct {
	Text     string        // text appears in the page
	TextGone string        // text disappears
	Selector string        // an element matching the selector is visible
	Time     time.Duration // a fixed pause
	Timeout  time.Duration // 0: the action timeout
}

// WaitFor waits for text, a selector or a fixed time.
func (s *Session) WaitFor(ctx context.Context, w WaitOptions) (*Result, error) {
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = s.actionTimeout()
	}
	var res *Result
	err := s.op(ctx, timeout+5*time.Second, func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		p := t.page.Context(wctx)
		what := ""
		switch {
		case w.Time > 0:
			what = "time"
			select {
			case <-wctx.Done():
				if ctx.Err() != nil {
					return ctx.Err()
				}
			case <-time.After(w.Time):
			}
		case w.Selector != "":
			what = "selector " + w.Selector
			var el interface{ WaitVisible() error }
			e, err := p.Element(w.Selector)
			if err == nil {
				el = e
				err = el.WaitVisible()
			}
			if err != nil {
				return waitErr(ctx, wctx, what, timeout, err)
			}
		case w.Text != "" || w.TextGone != "":
			text, gone := w.Text, false
			if text == "" {
				text, gone = w.TextGone, true
			}
			what = fmt.Sprintf("text %q", text)
			if gone {
				what += " to disappear"
			}
			_, err := p.Eval(`async (text, gone) => {
  for (;;) {
    const has = (document.body ? document.body.innerText : '').includes(text);
    if (has !== gone) return true;
    await new Promise(r => setTimeout(r, 100));
  }
}`, text, gone)
			if err != nil {
				return waitErr(ctx, wctx, what, timeout, err)
			}
		default:
			return toolerr.Invalidf("text", "give text, text_gone, selector or time", "nothing to wait for")
		}
		res = &Result{PageInfo: t.info(ctx), Message: "waited for " + what}
		return nil
	})
	return res, err
}

func waitErr(ctx, wctx context.Context, what string, timeout time.Duration, err error) error {
	if ctx.Err() == nil && wctx.Err() != nil {
		return errorf(toolerr.CodeTimeout, "take a snapshot to see what the page shows; raise timeout if the page is slow",
			"waited %s for %s; it did not happen", timeout, what)
	}
	return fmt.Errorf("wait for %s: %w", what, err)
}

// ScreenshotOptions choose what to capture.
type ScreenshotOptions struct {
	FullPage bool
	Target   Target // an element; empty: the viewport (or full page)
}

// Screenshot captures PNG bytes.
func (s *Session) Screenshot(ctx context.Context, o ScreenshotOptions) ([]byte, *Result, error) {
	var png []byte
	var res *Result
	err := s.op(ctx, s.actionTimeout()*3, func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		p := t.page.Context(ctx)
		if !o.Target.empty() {
			el, err := t.element(ctx, o.Target)
			if err != nil {
				return err
			}
			png, err = el.Screenshot(proto.PageCaptureScreenshotFormatPng, 0)
			if err != nil {
				return actionErr("screenshot", o.Target, err)
			}
		} else {
			png, err = p.Screenshot(o.FullPage, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
			if err != nil {
				return fmt.Errorf("screenshot: %w", err)
			}
		}
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return png, res, err
}

// PDF prints the current tab.
func (s *Session) PDF(ctx context.Context, opts htmlpdf.Options) ([]byte, *Result, error) {
	req, err := printParams(opts)
	if err != nil {
		return nil, nil, err
	}
	var data []byte
	var res *Result
	err = s.op(ctx, s.navTimeout()*2, func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		p := t.page.Context(ctx)
		_, _ = p.Eval(waitAssetsJS)
		r, err := p.PDF(req)
		if err != nil {
			return fmt.Errorf("pdf: %w", err)
		}
		data, err = io.ReadAll(r)
		if err != nil {
			return fmt.Errorf("pdf: read: %w", err)
		}
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return data, res, err
}

// Tabs lists the session's tabs.
func (s *Session) Tabs(ctx context.Context) ([]PageInfo, error) {
	var out []PageInfo
	err := s.op(ctx, s.actionTimeout(), func(ctx context.Context) error {
		out = s.listTabs(ctx)
		return nil
	})
	return out, err
}

func (s *Session) listTabs(ctx context.Context) []PageInfo {
	out := make([]PageInfo, 0, len(s.tabs))
	for i, t := range s.tabs {
		pi := t.info(ctx)
		pi.Active = i == s.current
		out = append(out, pi)
	}
	return out
}

// NewTab opens a tab (and navigates it when url is set); it becomes current.
func (s *Session) NewTab(ctx context.Context, raw string) (*Result, error) {
	var res *Result
	err := s.op(ctx, s.navTimeout(), func(ctx context.Context) error {
		if raw != "" {
			if _, err := s.checkNavigation(ctx, raw); err != nil {
				return err
			}
		}
		t, err := s.openTab(ctx)
		if err != nil {
			return err
		}
		if raw != "" {
			res, err = t.navigate(ctx, raw)
			return err
		}
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return res, err
}

// SelectTab makes a tab current.
func (s *Session) SelectTab(ctx context.Context, id string) (*Result, error) {
	var res *Result
	err := s.op(ctx, s.actionTimeout(), func(ctx context.Context) error {
		i, err := s.findTab(id)
		if err != nil {
			return err
		}
		s.current = i
		t := s.tabs[i]
		_ = proto.PageBringToFront{}.Call(t.page.Context(ctx))
		res = &Result{PageInfo: t.info(ctx)}
		return nil
	})
	return res, err
}

// CloseTab closes a tab ("" = the current one).
func (s *Session) CloseTab(ctx context.Context, id string) ([]PageInfo, error) {
	var out []PageInfo
	err := s.op(ctx, s.actionTimeout(), func(ctx context.Context) error {
		i := s.current
		if id != "" {
			var err error
			if i, err = s.findTab(id); err != nil {
				return err
			}
		}
		if i >= len(s.tabs) {
			return toolerr.Invalidf("tab", "", "no tab is open")
		}
		t := s.tabs[i]
		t.stop()
		_ = t.page.Context(ctx).Close()
		s.tabs = append(s.tabs[:i], s.tabs[i+1:]...)
		if s.current >= len(s.tabs) {
			s.current = max(0, len(s.tabs)-1)
		} else if s.current > i {
			s.current--
		}
		out = s.listTabs(ctx)
		return nil
	})
	return out, err
}

// Console returns the current tab's recent console messages (at most limit).
func (s *Session) Console(ctx context.Context, limit int) ([]ConsoleMessage, error) {
	var out []ConsoleMessage
	err := s.op(ctx, s.actionTimeout(), func(ctx context.Context) error {
		t, err := s.pageTab(ctx)
		if err != nil {
			return err
		}
		t.cmu.Lock()
		defer t.cmu.Unlock()
		msgs := t.console
		if limit > 0 && len(msgs) > limit {
			msgs = msgs[len(msgs)-limit:]
		}
		out = append([]ConsoleMessage(nil), msgs...)
		return nil
	})
	return out, err
}

// Evaluate runs JavaScript in the page: an expression, or a function
// (called with the element as `this` and first argument when a target is
// given). The result comes back as JSON. Refused unless the config allows it.
func (s *Session) Evaluate(ctx context.Context, script string, tg Target) (any, error) {
	if !s.m.cfg.AllowEvaluate {
		return nil, errorf(toolerr.CodeDenied, "set tools.browser.allow_evaluate: true in the config to enable it",
			"evaluate is disabled on this server")
	}
	var out any
	_, err := s.onPage(ctx, func(ctx context.Context, t *Tab) error {
		js := strings.TrimSpace(script)
		isFn := strings.HasPrefix(js, "function") || strings.HasPrefix(js, "async") || strings.Contains(strings.SplitN(js, "\n", 2)[0], "=>")
		if !isFn {
			js = "() => (" + js + "\n)"
		}
		var raw json.RawMessage
		if !tg.empty() {
			el, err := t.element(ctx, tg)
			if err != nil {
				return err
			}
			r, err := el.Eval(js)
			if err != nil {
				return evalErr(err)
			}
			raw = json.RawMessage(r.Value.JSON("", ""))
		} else {
			r, err := t.page.Context(ctx).Eval(js)
			if err != nil {
				return evalErr(err)
			}
			raw = json.RawMessage(r.Value.JSON("", ""))
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			out = string(raw)
		}
		return nil
	})
	return out, err
}

func evalErr(err error) error {
	return errorf(toolerr.CodeFailed, "fix the script; it runs in the page as a function or an expression", "script failed: %v", err)
}
