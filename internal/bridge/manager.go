package bridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// State is where a server is in its life.
type State string

const (
	Configured    State = "configured"     // named in config, never read
	ManifestKnown State = "manifest known" // its cached manifest is known; not running
	Running       State = "running"
	Failed        State = "failed" // the last start or call failed; see the error
)

// Options build a Manager.
type Options struct {
	Config  config.Bridge
	DataDir string
	Guard   *netguard.Guard
	Log     zerolog.Logger
	Getenv  func(string) string // nil: os.Getenv
}

// Manager owns the downstream servers.
type Manager struct {
	o        Options
	order    []string
	servers  map[string]*server
	onChange atomic.Pointer[func(server string)]
	nextTok  atomic.Int64
	reserved reservedNames // names of other tools (publish.go)

	reaper sync.Once
	stop   chan struct{}
	wg     sync.WaitGroup
}

// server is one downstream server and what is known of it.
type server struct {
	cfg config.BridgeServer

	mu       sync.Mutex
	conn     *conn
	manifest *Manifest
	pins     Pins
	held     []string // tools whose definition changed since pinned
	flags    []Flag
	lastErr  string
	failed   bool
	failures int // consecutive failed starts, for the backoff
	retryAt  time.Time
	lastUse  time.Time
	inflight int
	progress sync.Map // progress token → func(done, total float64, msg string)
}

// New loads every configured server's cached manifest and pins; it starts
// nothing.
func New(o Options) (*Manager, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	m := &Manager{o: o, servers: map[string]*server{}, stop: make(chan struct{})}
	for _, c := range o.Config.Servers {
		s := &server{cfg: c}
		var err error
		if s.manifest, err = loadManifest(o.DataDir, c.Name); err != nil {
			return nil, err
		}
		if s.pins, err = loadPins(o.DataDir, c.Name); err != nil {
			return nil, fmt.Errorf("bridge: pins of %s: %w", c.Name, err)
		}
		if s.manifest != nil {
			s.held, _ = s.pins.reconcile(s.manifest.Tools)
			s.flags = flagTools(s.manifest.Tools)
		}
		m.servers[c.Name] = s
		m.order = append(m.order, c.Name)
	}
	return m, nil
}

// OnToolsChanged sets the function told when a server's visible tools may
// have changed (a fresh manifest, a list_changed, an approval).
func (m *Manager) OnToolsChanged(f func(server string)) { m.onChange.Store(&f) }

func (m *Manager) changed(name string) {
	if f := m.onChange.Load(); f != nil {
		(*f)(name)
	}
}

// Names lists the configured servers in config order.
func (m *Manager) Names() []string { return slices.Clone(m.order) }

// Server returns a server's config.
func (m *Manager) Server(name string) (config.BridgeServer, bool) {
	s, ok := m.servers[name]
	if !ok {
		return config.BridgeServer{}, false
	}
	return s.cfg, true
}

func (m *Manager) lookup(name string) (*server, error) {
	s, ok := m.servers[name]
	if !ok {
		hint := "no bridge servers are configured (bridge.servers in the config)"
		if len(m.order) > 0 {
			hint = fmt.Sprintf("configured servers: %v", m.order)
		}
		return nil, toolerr.Invalid("server", fmt.Sprintf("unknown server %q", name), hint)
	}
	return s, nil
}

// Tools lists the tools of a server that may be used: allowed by config and
// not held by a changed definition. A server with no manifest yet is
// started to read one.
func (m *Manager) Tools(ctx context.Context, name string) ([]ToolDef, error) {
	s, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	known := s.manifest != nil
	s.mu.Unlock()
	if !known {
		if _, err := m.ensure(ctx, s); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.visible(), nil
}

// CachedTools is Tools without starting anything: what routing and
// tools/list use.
func (m *Manager) CachedTools(name string) []ToolDef {
	s, ok := m.servers[name]
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.visible()
}

func (s *server) visible() []ToolDef {
	if s.manifest == nil {
		return nil
	}
	var out []ToolDef
	for _, t := range s.manifest.Tools {
		if s.allowed(t.Name) && !slices.Contains(s.held, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

func (s *server) allowed(tool string) bool {
	if slices.Contains(s.cfg.Deny, tool) {
		return false
	}
	return len(s.cfg.Allow) == 0 || slices.Contains(s.cfg.Allow, tool)
}

// ensure returns the server's live connection, starting it when it is not
// running or its process has exited.
func (m *Manager) ensure(ctx context.Context, s *server) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && !s.conn.broken() {
		return s.conn, nil
	}
	if s.conn != nil { // it died since the last call
		m.o.Log.Warn().Str("server", s.cfg.Name).Msg("bridge: downstream server exited or its connection was lost; restarting")
		s.conn.close()
		s.conn = nil
	}
	if wait := time.Until(s.retryAt); wait > 0 {
		return nil, toolerr.Errorf(toolerr.CodeUnavailable, fmt.Sprintf("retry in %s; `clawbridge bridge status` shows the error", wait.Round(time.Second)),
			"bridge server %s failed to start (%d time(s) in a row): %s", s.cfg.Name, s.failures, s.lastErr)
	}
	sctx, cancel := context.WithTimeout(ctx, m.o.Config.StartTimeout)
	defer cancel()
	c, man, err := m.start(sctx, s)
	if err != nil {
		s.failures++
		s.failed = true
		s.lastErr = err.Error()
		s.retryAt = time.Now().Add(min(time.Second<<(s.failures-1), time.Minute))
		m.o.Log.Error().Str("server", s.cfg.Name).Err(err).Msg("bridge: start failed")
		m.recordState(s)
		return nil, toolerr.Errorf(toolerr.CodeUnavailable, "check the server's command or url in bridge.servers; `clawbridge bridge status` shows the state",
			"bridge server %s did not start: %s", s.cfg.Name, err)
	}
	s.conn, s.failures, s.failed, s.lastErr, s.retryAt = c, 0, false, "", time.Time{}
	s.lastUse = time.Now()
	s.adopt(m.o.DataDir, man, m.o.Log)
	m.recordState(s)
	m.reaper.Do(func() { m.wg.Add(1); go m.reap() })
	m.wg.Add(1)
	go func() { defer m.wg.Done(); m.changed(s.cfg.Name) }()
	return c, nil
}

// start dials the server and reads its manifest.
func (m *Manager) start(ctx context.Context, s *server) (*conn, *Manifest, error) {
	c, err := dial(ctx, s.cfg, m.o.Guard, m.o.Getenv, func(n mcp.JSONRPCNotification) { m.notified(s, n) })
	if err != nil {
		return nil, nil, err
	}
	man, err := c.manifest(ctx, s.cfg.Name)
	if err != nil {
		c.close()
		return nil, nil, err
	}
	return c, man, nil
}

// adopt takes a fresh manifest: caches it, pins new tools, holds changed
// ones and flags suspicious text. Called with s.mu held.
func (s *server) adopt(dataDir string, man *Manifest, log zerolog.Logger) {
	s.manifest = man
	if p, err := loadPins(dataDir, s.cfg.Name); err == nil {
		s.pins = p // the record on disk: `bridge approve` may have written it from another process
	}
	held, added := s.pins.reconcile(man.Tools)
	if len(held) > 0 && !slices.Equal(held, s.held) {
		log.Warn().Str("server", s.cfg.Name).Strs("tools", held).Msg("bridge: tool definitions changed since pinned; held until `clawbridge bridge approve`")
	}
	s.held = held
	s.flags = flagTools(man.Tools)
	if err := saveManifest(dataDir, man); err != nil {
		log.Error().Err(err).Str("server", s.cfg.Name).Msg("bridge: caching the manifest")
	}
	if added {
		if err := savePins(dataDir, s.cfg.Name, s.pins); err != nil {
			log.Error().Err(err).Str("server", s.cfg.Name).Msg("bridge: saving pins")
		}
	}
}

// notified handles a downstream notification: progress goes to the call
// that asked for it, tools/list_changed refreshes the manifest.
func (m *Manager) notified(s *server, n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationProgress):
		f := n.Params.AdditionalFields
		if report, ok := s.progress.Load(fmt.Sprint(f["progressToken"])); ok {
			done, _ := f["progress"].(float64)
			total, _ := f["total"].(float64)
			msg, _ := f["message"].(string)
			report.(func(float64, float64, string))(done, total, msg)
		}
	case string(mcp.MethodNotificationToolsListChanged):
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			m.refresh(s)
		}()
	}
}

// refresh rereads a running server's manifest after its list_changed.
func (m *Manager) refresh(s *server) {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), m.o.Config.StartTimeout)
	defer cancel()
	man, err := c.manifest(ctx, s.cfg.Name)
	if err != nil {
		m.o.Log.Warn().Err(err).Str("server", s.cfg.Name).Msg("bridge: refreshing the manifest after list_changed")
		return
	}
	s.mu.Lock()
	s.adopt(m.o.DataDir, man, m.o.Log)
	s.mu.Unlock()
	m.changed(s.cfg.Name)
}

// Call runs one downstream tool. progress receives the server's progress
// reports. Errors are tool errors the model can act on.
func (m *Manager) Call(ctx context.Context, name, tool string, args map[string]any, progress func(done, total float64, msg string)) (*mcp.CallToolResult, error) {
	s, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	if !s.allowed(tool) {
		return nil, toolerr.Errorf(toolerr.CodeDenied, "the config's allow/deny lists for this server leave it out", "tool %s of %s is not allowed", tool, name)
	}
	c, err := m.ensure(ctx, s)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	held := slices.Contains(s.held, tool)
	known := s.manifest != nil && slices.ContainsFunc(s.manifest.Tools, func(t ToolDef) bool { return t.Name == tool })
	s.inflight++
	s.lastUse = time.Now()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight--
		s.lastUse = time.Now()
		s.mu.Unlock()
	}()
	if held && s.reloadPins(m.o.DataDir) { // approved by `clawbridge bridge approve` in another process
		held = false
	}
	if held {
		return nil, toolerr.Errorf(toolerr.CodeDenied, fmt.Sprintf("a person must review it and run `clawbridge bridge approve %s`", name),
			"the definition of %s on %s changed since it was approved; it is held", tool, name)
	}
	if !known {
		return nil, toolerr.Invalid("tool", fmt.Sprintf("server %s has no tool %q", name, tool), "list its tools with mcp_bridge list_tools")
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	// A lost SSE stream ends the call at once, not at its timeout: the
	// answer would have come on that stream.
	callCtx, cancelCall := context.WithCancelCause(ctx)
	defer cancelCall(nil)
	defer context.AfterFunc(c.lost, func() { cancelCall(context.Cause(c.lost)) })()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	if progress != nil {
		tok := fmt.Sprintf("cb-%d", m.nextTok.Add(1))
		s.progress.Store(tok, progress)
		defer s.progress.Delete(tok)
		req.Params.Meta = &mcp.Meta{ProgressToken: tok}
	}
	res, err := c.client.CallTool(callCtx, req)
	if err != nil && strings.Contains(err.Error(), "failed to write request") {
		// The server died before the request reached it (its stdin is
		// closed), so it never ran: start it again and send once more.
		s.mu.Lock()
		if s.conn == c {
			s.conn.close()
			s.conn = nil
		}
		s.mu.Unlock()
		if c, err = m.ensure(ctx, s); err != nil {
			return nil, err
		}
		res, err = c.client.CallTool(callCtx, req)
	}
	if err != nil {
		return nil, m.callError(ctx, s, c, name, tool, err)
	}
	return res, nil
}

// callError explains a failed call of tool on server name (s) over c: a timeout, a
// cancellation, a lost server (forgotten, to be restarted or reconnected
// on the next call) or the tool's own failure.
func (m *Manager) callError(ctx context.Context, s *server, c *conn, name, tool string, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return toolerr.Errorf(toolerr.CodeTimeout, "narrow the request, or raise the server's timeout in bridge.servers", "%s on %s did not answer within %s", tool, name, s.cfg.Timeout)
	case ctx.Err() != nil:
		return toolerr.Errorf(toolerr.CodeFailed, "", "the call was cancelled (the downstream server was told)")
	}
	var terr *transport.Error
	overHTTP := s.cfg.Command == ""
	if c.broken() || errors.Is(err, errTransportClosed) || overHTTP && errors.As(err, &terr) {
		// A transport error over HTTP (refused, reset, a lost session) is
		// the connection's, not the arguments'.
		what := "exited during a call: " + err.Error()
		if overHTTP {
			what = "unreachable during a call: " + err.Error()
			if cause := context.Cause(c.lost); cause != nil {
				what = "unreachable during a call: " + cause.Error()
			}
		}
		s.mu.Lock()
		if s.conn == c {
			s.conn.close()
			s.conn = nil
			s.failed = true
			s.lastErr = what
			m.recordState(s)
		}
		s.mu.Unlock()
		if overHTTP {
			return toolerr.Errorf(toolerr.CodeUnavailable, "check that the server at its url is running; it is reconnected on the next call; call again if the tool is safe to repeat",
				"bridge server %s is %s", name, what)
		}
		return toolerr.Errorf(toolerr.CodeUnavailable, "it is restarted on the next call; call again if the tool is safe to repeat",
			"bridge server %s exited during the call to %s", name, tool)
	}
	return toolerr.Errorf(toolerr.CodeFailed, "check the arguments against the tool's schema", "%s on %s failed: %s", tool, name, err)
}

// reap stops stdio servers idle longer than bridge.idle_stop.
func (m *Manager) reap() {
	defer m.wg.Done()
	t := time.NewTicker(max(min(m.o.Config.IdleStop/4, 30*time.Second), 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			for _, name := range m.order {
				s := m.servers[name]
				s.mu.Lock()
				if s.conn != nil && s.cfg.Command != "" && s.inflight == 0 && time.Since(s.lastUse) > m.o.Config.IdleStop {
					m.o.Log.Info().Str("server", name).Msg("bridge: stopping idle server")
					s.conn.close()
					s.conn = nil
					m.recordState(s)
				}
				s.mu.Unlock()
			}
		}
	}
}

// Close stops every running server and the manager's goroutines.
func (m *Manager) Close() {
	select {
	case <-m.stop:
		return
	default:
		close(m.stop)
	}
	for _, name := range m.order {
		s := m.servers[name]
		s.mu.Lock()
		if s.conn != nil {
			s.conn.close()
			s.conn = nil
			m.recordState(s)
		}
		s.mu.Unlock()
	}
	m.wg.Wait()
}

// reloadPins rereads the pins file (an approval may have been written by
// another process) and reports whether no tool is held any more.
func (s *server) reloadPins(dataDir string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := loadPins(dataDir, s.cfg.Name)
	if err != nil || s.manifest == nil {
		return false
	}
	s.pins = p
	s.held, _ = s.pins.reconcile(s.manifest.Tools)
	return len(s.held) == 0
}
