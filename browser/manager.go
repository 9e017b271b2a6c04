// Package browser manages one system Chromium for clawbridge's browser tools:
// lazy launch (never a download), one isolated browser context per MCP
// session with several tabs, idle shutdown, crash recovery, navigation
// through the outbound network guard, accessibility snapshots with element
// refs, and HTML-to-PDF rendering for the document tools.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/platform"
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Manager owns the browser process and the sessions' contexts. It is safe
// for concurrent use; calls of one session are serialised, sessions run in
// parallel.
type Manager struct {
	cfg    Config
	guard  *netguard.Guard
	log    zerolog.Logger
	policy *originPolicy

	mu       sync.Mutex
	inst     *instance
	gen      int    // launch generation, bumped on every launch
	stopped  string // why the last instance stopped: "crash", "idle" or ""
	sessions map[string]*Session
	contexts atomic.Int64 // sessions' browser contexts open, for OpenContexts
	closed   bool
	busy     int
	lastUse  time.Time
	idle     *time.Timer
}

type instance struct {
	gen     int
	l       *launcher.Launcher
	b       *rod.Browser
	pid     int
	dataDir string
	version string
}

// New returns a manager; Chromium starts on first use. guard may be nil only
// in tests that never navigate (it then allows nothing but public hosts).
func New(cfg Config, guard *netguard.Guard, log zerolog.Logger) *Manager {
	_ = cfg.normalize()
	if guard == nil {
		guard, _ = netguard.New(nil)
	}
	return &Manager{
		cfg:      cfg,
		guard:    guard,
		log:      log.With().Str("component", "browser").Logger(),
		policy:   newOriginPolicy(cfg.AllowedOrigins, cfg.BlockedOrigins),
		sessions: map[string]*Session{},
	}
}

// Config returns the manager's configuration.
func (m *Manager) Config() Config { return m.cfg }

// ErrClosed is returned after Close.
var ErrClosed = errors.New("browser manager is closed")

// BrowserPath finds the Chromium executable without launching it; the error
// is a tool error naming the Debian package.
func (m *Manager) BrowserPath() (string, error) {
	if m.cfg.Path != "" {
		p, err := exec.LookPath(m.cfg.Path)
		if err != nil {
			return "", &toolerr.Error{Code: toolerr.CodeUnavailable,
				Message: fmt.Sprintf("the configured browser %q was not found: %v", m.cfg.Path, err),
				Hint:    "fix tools.browser.path in the config, or clear it and install Chromium: apt-get install chromium"}
		}
		return p, nil
	}
	if p, ok := launcher.LookPath(); ok {
		return p, nil
	}
	return "", &toolerr.Error{Code: toolerr.CodeUnavailable,
		Message: "Chromium is not installed on the server (no chromium, chromium-browser or google-chrome on PATH)",
		Hint:    "install it with: apt-get install chromium (or set tools.browser.path); clawbridge never downloads a browser"}
}

// acquire returns a running browser, launching or relaunching it, and marks
// the manager busy until release.
func (m *Manager) acquire(ctx context.Context) (*instance, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	if m.inst != nil && !m.alive(ctx, m.inst) {
		m.log.Warn().Int("pid", m.inst.pid).Msg("browser process died; relaunching on demand")
		m.stopLocked("crash")
	}
	if m.inst == nil {
		inst, err := m.launch(ctx)
		if err != nil {
			return nil, err
		}
		m.inst = inst
	}
	m.busy++
	if m.idle != nil {
		m.idle.Stop()
	}
	return m.inst, nil
}

func (m *Manager) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.busy--
	m.lastUse = time.Now()
	if m.busy == 0 && m.cfg.IdleTimeout > 0 && m.inst != nil && !m.closed {
		if m.idle == nil {
			m.idle = time.AfterFunc(m.cfg.IdleTimeout, m.idleStop)
		} else {
			m.idle.Reset(m.cfg.IdleTimeout)
		}
	}
}

func (m *Manager) idleStop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.busy > 0 || m.inst == nil || time.Since(m.lastUse) < m.cfg.IdleTimeout {
		return
	}
	m.log.Info().Dur("idle", m.cfg.IdleTimeout).Msg("stopping idle browser")
	m.stopLocked("idle")
}

// alive pings the browser over CDP.
func (m *Manager) alive(ctx context.Context, inst *instance) bool {
	if inst.pid > 0 && !platform.Alive(inst.pid) {
		return false
	}
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_, err := proto.BrowserGetVersion{}.Call(inst.b.Context(pctx))
	return err == nil
}

// launch starts Chromium. Called with m.mu held.
func (m *Manager) launch(ctx context.Context) (*instance, error) {
	bin, err := m.BrowserPath()
	if err != nil {
		return nil, err
	}
	dataDir, err := os.MkdirTemp("", "clawbridge-chromium-")
	if err != nil {
		return nil, fmt.Errorf("browser launch: user data dir: %w", err)
	}
	lctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	l := launcher.New().Context(lctx).
		Bin(bin).
		Headless(m.cfg.Headless).
		NoSandbox(os.Geteuid() == 0).
		UserDataDir(dataDir).
		Leakless(true).
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("no-first-run").
		Set("disable-quic").
		Set("disable-gpu").
		Set("disable-domain-reliability").
		Set("no-pings").
		Set("mute-audio").
		Set("hide-scrollbars").
		// Contexts get their own guarded proxy; this one only stops the
		// default context from reaching the network directly.
		Set("proxy-server", "http://127.0.0.1:9").
		Set("proxy-bypass-list", "<-loopback>").
		Set("window-size", fmt.Sprintf("%d,%d", m.cfg.ViewportWidth, m.cfg.ViewportHeight))
	for _, f := range m.cfg.ExtraFlags {
		name, val, _ := cutFlag(f)
		if val == "" {
			l.Set(flags.Flag(name))
		} else {
			l.Set(flags.Flag(name), val)
		}
	}
	start := time.Now()
	u, err := l.Launch()
	if err != nil {
		l.Kill()
		_ = os.RemoveAll(dataDir)
		return nil, &toolerr.Error{Code: toolerr.CodeUnavailable,
			Message: fmt.Sprintf("Chromium (%s) failed to start: %v", bin, err),
			Hint:    "check that the chromium package is complete (apt-get install chromium) and that /tmp is writable"}
	}
	// The CDP connection lives as long as its context: use a background one.
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		killPID(l.PID())
		_ = os.RemoveAll(dataDir)
		return nil, fmt.Errorf("browser launch: connect: %w", err)
	}
	m.gen++
	inst := &instance{gen: m.gen, l: l, b: b, pid: l.PID(), dataDir: dataDir}
	if v, err := (proto.BrowserGetVersion{}).Call(b.Context(lctx)); err == nil {
		inst.version = v.Product
	}
	m.log.Info().Str("bin", bin).Int("pid", inst.pid).Str("version", inst.version).
		Dur("took", time.Since(start)).Msg("browser launched")
	return inst, nil
}

func cutFlag(f string) (string, string, bool) {
	for len(f) > 0 && f[0] == '-' {
		f = f[1:]
	}
	for i := 0; i < len(f); i++ {
		if f[i] == '=' {
			return f[:i], f[i+1:], true
		}
	}
	return f, "", false
}

// stopLocked ends the running instance; sessions notice the new generation
// on their next call. Called with m.mu held.
func (m *Manager) stopLocked(reason string) {
	inst := m.inst
	if inst == nil {
		return
	}
	m.inst = nil
	m.stopped = reason
	for _, s := range m.sessions {
		s.detach()
	}
	go inst.shutdown()
}

func (inst *instance) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_ = proto.BrowserClose{}.Call(inst.b.Context(ctx))
	cancel()
	killPID(inst.pid)
	// Wait for the process to go before removing its profile.
	for i := 0; i < 50 && inst.pid > 0 && platform.Alive(inst.pid); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	_ = os.RemoveAll(inst.dataDir)
}

func killPID(pid int) {
	if pid <= 0 {
		return
	}
	platform.KillGroup(pid)
	platform.Kill(pid)
}

// setIdleTimeout changes the idle timeout (tests).
func (m *Manager) setIdleTimeout(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg.IdleTimeout = d
}

// PID is the running browser's process id, 0 when none runs (for tests and
// diagnostics).
func (m *Manager) PID() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.inst == nil {
		return 0
	}
	return m.inst.pid
}

// Running reports whether a browser process is up.
func (m *Manager) Running() bool { return m.PID() != 0 }

// Close stops the browser and every session. The manager refuses calls
// afterwards.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	if m.idle != nil {
		m.idle.Stop()
	}
	inst := m.inst
	m.inst = nil
	sessions := m.sessions
	m.sessions = map[string]*Session{}
	m.mu.Unlock()
	for _, s := range sessions {
		s.detach()
	}
	if inst != nil {
		inst.shutdown()
	}
}

// context is one isolated browser context with its guarded proxy.
type bcontext struct {
	b     *rod.Browser // carries BrowserContextID
	proxy *guardProxy
}

// newContext creates an isolated (incognito) browser context whose traffic
// goes through a fresh guarded proxy, with downloads sent to DownloadDir.
func (m *Manager) newContext(ctx context.Context, inst *instance) (*bcontext, error) {
	p, err := startProxy(m.guard, m.policy, m.log)
	if err != nil {
		return nil, err
	}
	res, err := proto.TargetCreateBrowserContext{
		DisposeOnDetach: true,
		ProxyServer:     "http://" + p.Addr(),
		ProxyBypassList: "<-loopback>",
	}.Call(inst.b.Context(ctx))
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("browser: create context: %w", err)
	}
	b := *inst.b
	b.BrowserContextID = res.BrowserContextID
	bc := &bcontext{b: &b, proxy: p}
	if m.cfg.DownloadDir != "" {
		if err := os.MkdirAll(m.cfg.DownloadDir, 0o755); err == nil {
			_ = proto.BrowserSetDownloadBehavior{
				Behavior:         proto.BrowserSetDownloadBehaviorBehaviorAllow,
				BrowserContextID: res.BrowserContextID,
				DownloadPath:     m.cfg.DownloadDir,
				EventsEnabled:    true,
			}.Call(inst.b.Context(ctx))
		}
	}
	return bc, nil
}

func (bc *bcontext) dispose(ctx context.Context) {
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = proto.TargetDisposeBrowserContext{BrowserContextID: bc.b.BrowserContextID}.Call(bc.b.Context(dctx))
	bc.proxy.Close()
}
