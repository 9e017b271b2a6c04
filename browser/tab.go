package browser

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Tab is one page of a session.
type Tab struct {
	ID    string
	s     *Session
	page  *rod.Page // background context; operations attach their own
	refs  refCounter
	world world // isolated world of the current document, for the outline and its refs

	lastSnapshot []string // lines of the previous full snapshot, for diffs
	visited      bool     // has shown a page other than about:blank (pageTab)
	cache        struct {
		version string
		lines   []string
		refs    int
	}

	stopEvents context.CancelFunc
	loading    atomic.Int32 // main-frame loads in progress

	cmu     sync.Mutex
	console []ConsoleMessage
}

// ConsoleMessage is one console entry or uncaught exception.
type ConsoleMessage struct {
	Type string    `json:"type"`
	Text string    `json:"text"`
	At   time.Time `json:"time"`
}

const maxConsole = 200

func newTab(s *Session, id string, p *rod.Page) *Tab {
	return &Tab{ID: id, s: s, page: p}
}

func joinPath(dir, name string) string {
	if dir == "" || name == "" {
		return ""
	}
	return filepath.Join(dir, filepath.Base(name))
}

// setup sizes the viewport and starts the event listeners: dialogs are
// answered at once (a pending dialog freezes the page), console messages are
// kept, main-frame loading is tracked so actions can wait for navigations
// they trigger.
func (t *Tab) setup(ctx context.Context) error {
	cfg := t.s.m.cfg
	p := t.page.Context(ctx)
	if err := p.SetViewport(&proto.EmulationSetDeviceMetricsOverride{
		Width: cfg.ViewportWidth, Height: cfg.ViewportHeight, DeviceScaleFactor: 1,
	}); err != nil {
		return fmt.Errorf("browser: set viewport: %w", err)
	}
	if cfg.UserAgent != "" {
		if err := p.SetUserAgent(&proto.NetworkSetUserAgentOverride{UserAgent: cfg.UserAgent}); err != nil {
			return fmt.Errorf("browser: set user agent: %w", err)
		}
	}
	ectx, cancel := context.WithCancel(context.Background())
	t.stopEvents = cancel
	t.s.setFrame(t.page.FrameID, true)
	ep := t.page.Context(ectx)
	wait := ep.EachEvent(
		func(e *proto.PageJavascriptDialogOpening) {
			accept := true
			d := Dialog{Tab: t.ID, Type: string(e.Type), Message: e.Message, Accepted: accept}
			t.s.addDialog(d)
			go func() {
				hctx, c := context.WithTimeout(ectx, 5*time.Second)
				defer c()
				_ = proto.PageHandleJavaScriptDialog{Accept: accept, PromptText: e.DefaultPrompt}.Call(t.page.Context(hctx))
			}()
		},
		func(e *proto.RuntimeConsoleAPICalled) {
			parts := make([]string, 0, len(e.Args))
			for _, a := range e.Args {
				if a.Value.Nil() {
					parts = append(parts, a.Description)
				} else if a.Type == proto.RuntimeRemoteObjectTypeString {
					parts = append(parts, a.Value.Str())
				} else {
					parts = append(parts, a.Value.JSON("", ""))
				}
			}
			t.addConsole(string(e.Type), strings.Join(parts, " "))
		},
		func(e *proto.RuntimeExceptionThrown) {
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil && e.ExceptionDetails.Exception.Description != "" {
				msg = e.ExceptionDetails.Exception.Description
			}
			t.addConsole("exception", msg)
		},
		func(e *proto.PageFrameStartedLoading) {
			if e.FrameID == t.page.FrameID {
				t.loading.Store(1)
			}
		},
		func(e *proto.PageFrameStoppedLoading) {
			if e.FrameID == t.page.FrameID {
				t.loading.Store(0)
			}
		},
	)
	go wait()
	return nil
}

func (t *Tab) addConsole(typ, text string) {
	if len(text) > 2000 {
		text = text[:2000] + "…"
	}
	t.cmu.Lock()
	defer t.cmu.Unlock()
	t.console = append(t.console, ConsoleMessage{Type: typ, Text: text, At: time.Now()})
	if len(t.console) > maxConsole {
		t.console = t.console[len(t.console)-maxConsole:]
	}
}

func (t *Tab) stop() {
	if t.stopEvents != nil {
		t.stopEvents()
	}
	t.s.setFrame(t.page.FrameID, false)
}

// settle waits for a navigation an action may have started: a short grace
// period for it to begin, then until the main frame stops loading.
func (t *Tab) settle(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(150 * time.Millisecond):
	}
	if t.loading.Load() == 0 {
		return
	}
	navTimeout := t.s.m.cfg.NavigationTimeout
	deadline := time.Now().Add(navTimeout)
	for t.loading.Load() != 0 && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
	wctx, cancel := context.WithTimeout(ctx, navTimeout)
	defer cancel()
	_ = t.page.Context(wctx).WaitLoad()
}

// PageInfo describes a tab's page.
type PageInfo struct {
	Tab    string `json:"tab"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Active bool   `json:"active,omitempty"`
}

func (t *Tab) info(ctx context.Context) PageInfo {
	pi := PageInfo{Tab: t.ID}
	if info, err := t.page.Context(ctx).Info(); err == nil {
		pi.URL, pi.Title = info.URL, info.Title
	}
	return pi
}
