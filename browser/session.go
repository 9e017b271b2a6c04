package browser

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Session is the browser state of one MCP session: an isolated browser
// context (its own cookies, storage and cache) and its tabs.
type Session struct {
	m   *Manager
	key string

	mu       sync.Mutex
	gen      int // browser generation the context belongs to
	bc       *bcontext
	tabs     []*Tab
	current  int // index into tabs
	nextTab  int
	hadPages bool
	stopDL   context.CancelFunc

	// evMu guards events: event callbacks (dialogs during a click, downloads)
	// run while an operation holds mu.
	evMu             sync.Mutex
	events           Events
	popups           []proto.TargetTargetID // pages opened by pages, not yet tabs
	lastBlockedCheck time.Time

	// tabsMu guards frames, the main frames of this session's tabs, read by
	// the download watcher.
	tabsMu sync.RWMutex
	frames map[proto.PageFrameID]bool
}

// Events are things that happened since the session's previous call: the
// browser restarting, dialogs answered, downloads, requests refused.
type Events struct {
	Notice    string           `json:"notice,omitempty"`
	Dialogs   []Dialog         `json:"dialogs,omitempty"`
	Downloads []Download       `json:"downloads,omitempty"`
	Blocked   []BlockedRequest `json:"blocked_requests,omitempty"`
	// NewTabs are tabs the page opened itself (target=_blank, window.open);
	// the newest became the current tab.
	NewTabs []string `json:"new_tabs,omitempty"`
}

// Dialog is a JavaScript alert/confirm/prompt the manager answered.
type Dialog struct {
	Tab      string `json:"tab"`
	Type     string `json:"type"`
	Message  string `json:"message"`
	Accepted bool   `json:"accepted"`
}

// Download is a file the page downloaded into the download dir.
type Download struct {
	URL   string `json:"url"`
	Path  string `json:"path,omitempty"`
	State string `json:"state"` // inProgress, completed, canceled
}

// Session returns the session for key ("" is the default session),
// creating it on first use. Nothing is launched until an operation runs.
func (m *Manager) Session(key string) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[key]
	if !ok {
		s = &Session{m: m, key: key}
		m.sessions[key] = s
	}
	return s
}

// CloseSession disposes a session's context and tabs (at the end of an MCP
// session). Safe to call for unknown keys.
func (m *Manager) CloseSession(key string) {
	m.mu.Lock()
	s, ok := m.sessions[key]
	delete(m.sessions, key)
	m.mu.Unlock()
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeContext()
}

// Sessions counts the sessions with an open context.
func (m *Manager) Sessions() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// OpenContexts counts the sessions' browser contexts that are open now (the
// server's clawbridge_browser_contexts_open gauge).
func (m *Manager) OpenContexts() int { return int(m.contexts.Load()) }

// detach is called (with m.mu held) when the browser stopped; the context
// is gone with it. The proxy is closed asynchronously because the session
// may be busy.
func (s *Session) detach() {
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.bc != nil && (s.m.currentGen() != s.gen) {
			s.dropContext()
		}
	}()
}

func (m *Manager) currentGen() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.inst == nil {
		return -1
	}
	return m.inst.gen
}

// dropContext forgets the context without talking to the browser.
func (s *Session) dropContext() {
	for _, t := range s.tabs {
		t.stop()
	}
	if s.stopDL != nil {
		s.stopDL()
		s.stopDL = nil
	}
	if s.bc != nil {
		s.bc.proxy.Close()
		s.m.contexts.Add(-1)
	}
	s.bc, s.tabs, s.current = nil, nil, 0
}

func (s *Session) closeContext() {
	if s.bc == nil {
		return
	}
	bc := s.bc
	s.dropContext()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = proto.TargetDisposeBrowserContext{BrowserContextID: bc.b.BrowserContextID}.Call(bc.b.Context(ctx))
}

// op runs fn with the session locked, the browser running and the context
// ready. fn gets a context bounded by timeout.
func (s *Session) op(ctx context.Context, timeout time.Duration, fn func(ctx context.Context) error) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	inst, err := s.m.acquire(ctx)
	if err != nil {
		return err
	}
	defer s.m.release()
	if s.bc == nil || s.gen != inst.gen {
		lost := s.hadPages && s.bc != nil || s.hadPages && s.gen != 0
		s.dropContext()
		bc, err := s.m.newContext(ctx, inst)
		if err != nil {
			return err
		}
		s.bc, s.gen = bc, inst.gen
		s.m.contexts.Add(1)
		s.watchDownloads()
		if lost {
			why := "stopped"
			switch s.m.stoppedReason() {
			case "crash":
				why = "crashed"
			case "idle":
				why = "was shut down after being idle"
			}
			s.evMu.Lock()
			s.events.Notice = "The browser " + why + " and was restarted; the pages open before were lost. Navigate again."
			s.evMu.Unlock()
			s.hadPages = false
		}
	}
	s.adoptPopups(ctx)
	err = fn(ctx)
	s.adoptPopups(ctx)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return errorf(toolerr.CodeTimeout, "raise the timeout or wait for something more specific",
			"browser operation timed out after %s: %v", timeout, err)
	}
	return err
}

func (m *Manager) stoppedReason() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stopped
}

// TakeEvents returns and clears what happened since the previous call.
func (s *Session) TakeEvents() Events {
	s.mu.Lock()
	bc := s.bc
	s.mu.Unlock()
	s.evMu.Lock()
	defer s.evMu.Unlock()
	ev := s.events
	s.events = Events{}
	if bc != nil {
		since := s.lastBlockedCheck
		s.lastBlockedCheck = time.Now()
		ev.Blocked = bc.proxy.blockedSince(since)
	}
	return ev
}

// tab returns the current tab, opening one if the context has none.
func (s *Session) tab(ctx context.Context) (*Tab, error) {
	if len(s.tabs) == 0 {
		return s.openTab(ctx)
	}
	return s.tabs[s.current], nil
}

// pageTab is the current tab for an action on a page. Before any page is
// open (no tab, or a tab that has only ever shown about:blank) it says to
// navigate first, instead of answering about an empty page.
func (s *Session) pageTab(ctx context.Context) (*Tab, error) {
	if len(s.tabs) == 0 {
		return nil, noPage()
	}
	t := s.tabs[s.current]
	if !t.visited {
		if u := t.info(ctx).URL; u == "" || u == "about:blank" {
			return nil, noPage()
		}
		t.visited = true // from here on, about:blank is a page of its history
	}
	return t, nil
}

func noPage() error {
	return toolerr.Invalidf("action", "open one first: action navigate with url (or tabs mode new with url)", "no page is open in this session yet")
}

func (s *Session) openTab(ctx context.Context) (*Tab, error) {
	if len(s.tabs) >= s.m.cfg.MaxTabs {
		return nil, toolerr.Invalidf("mode", "close a tab first (tabs action close)", "this session already has %d tabs, the maximum", len(s.tabs))
	}
	p, err := newPage(ctx, s.bc)
	if err != nil {
		return nil, err
	}
	s.nextTab++
	t := newTab(s, "t"+strconv.Itoa(s.nextTab), p)
	if err := t.setup(ctx); err != nil {
		_ = p.Context(ctx).Close()
		return nil, err
	}
	s.tabs = append(s.tabs, t)
	s.current = len(s.tabs) - 1
	s.hadPages = true
	return t, nil
}

func (s *Session) findTab(id string) (int, error) {
	for i, t := range s.tabs {
		if t.ID == id {
			return i, nil
		}
	}
	ids := make([]string, 0, len(s.tabs))
	for _, t := range s.tabs {
		ids = append(ids, t.ID)
	}
	return -1, toolerr.Invalidf("tab", "list the tabs with the tabs action (mode list)", "no tab %q in this session (open tabs: %v)", id, ids)
}

func (s *Session) addDialog(d Dialog) {
	s.evMu.Lock()
	s.events.Dialogs = append(s.events.Dialogs, d)
	s.evMu.Unlock()
}

func (s *Session) setFrame(id proto.PageFrameID, on bool) {
	s.tabsMu.Lock()
	defer s.tabsMu.Unlock()
	if s.frames == nil {
		s.frames = map[proto.PageFrameID]bool{}
	}
	if on {
		s.frames[id] = true
	} else {
		delete(s.frames, id)
	}
}

// watchDownloads records this context's downloads. Browser-level download
// events name the frame that started them; a frame of one of our tabs is
// ours. Called with s.mu held.
func (s *Session) watchDownloads() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopDL = cancel
	b := s.bc.b.Context(ctx)
	dir := s.m.cfg.DownloadDir
	pending := map[string]*Download{}
	var pmu sync.Mutex
	ctxID := s.bc.b.BrowserContextID
	go b.EachEvent(func(e *proto.TargetTargetCreated) {
		ti := e.TargetInfo
		if ti.Type == proto.TargetTargetInfoTypePage && ti.BrowserContextID == ctxID && ti.OpenerID != "" {
			s.evMu.Lock()
			s.popups = append(s.popups, ti.TargetID)
			s.evMu.Unlock()
		}
	}, func(e *proto.BrowserDownloadWillBegin) {
		if !s.ownsFrame(e.FrameID) {
			return
		}
		pmu.Lock()
		pending[e.GUID] = &Download{URL: e.URL, Path: joinPath(dir, e.SuggestedFilename), State: "inProgress"}
		pmu.Unlock()
	}, func(e *proto.BrowserDownloadProgress) {
		if e.State == proto.BrowserDownloadProgressStateInProgress {
			return
		}
		pmu.Lock()
		d, ok := pending[e.GUID]
		delete(pending, e.GUID)
		pmu.Unlock()
		if !ok {
			return
		}
		d.State = string(e.State)
		s.evMu.Lock()
		s.events.Downloads = append(s.events.Downloads, *d)
		s.evMu.Unlock()
	})()
}

func (s *Session) ownsFrame(id proto.PageFrameID) bool {
	s.tabsMu.RLock()
	defer s.tabsMu.RUnlock()
	_, ok := s.frames[id]
	return ok
}

// newPage opens a page in the context. The page object keeps a background
// context: rod's Mouse, Keyboard and target lookups hold on to the page they
// were created with, so a per-call context there would outlive its call.
// Every operation attaches its own deadline with page.Context.
func newPage(ctx context.Context, bc *bcontext) (*rod.Page, error) {
	type result struct {
		p   *rod.Page
		err error
	}
	ch := make(chan result, 1)
	b := bc.b.Context(context.Background())
	go func() {
		p, err := b.Page(proto.TargetCreateTarget{})
		ch <- result{p, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, fmt.Errorf("browser: open tab: %w", r.err)
		}
		return r.p, nil
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.p != nil {
				_ = r.p.Close()
			}
		}()
		return nil, fmt.Errorf("browser: open tab: %w", ctx.Err())
	}
}

// adoptPopups turns pages opened by pages into tabs of the session; the
// newest becomes current. Called with s.mu held.
func (s *Session) adoptPopups(ctx context.Context) {
	s.evMu.Lock()
	ids := s.popups
	s.popups = nil
	s.evMu.Unlock()
	for _, id := range ids {
		if len(s.tabs) >= s.m.cfg.MaxTabs {
			break
		}
		p, err := s.bc.b.Context(context.Background()).PageFromTarget(id)
		if err != nil {
			continue // closed again already
		}
		s.nextTab++
		t := newTab(s, "t"+strconv.Itoa(s.nextTab), p)
		if err := t.setup(ctx); err != nil {
			continue
		}
		s.tabs = append(s.tabs, t)
		s.current = len(s.tabs) - 1
		s.evMu.Lock()
		s.events.NewTabs = append(s.events.NewTabs, t.ID)
		s.evMu.Unlock()
	}
}
