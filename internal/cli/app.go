package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/startheap"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/server"
	"github.com/clawbridge/clawbridge/tools"
	bridgetool "github.com/clawbridge/clawbridge/tools/bridge"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// The browser manager reports its open contexts to /metrics through
// Deps.Sessions; this keeps it doing so.
var _ server.BrowserContexts = (*browser.Manager)(nil)

// app is the assembled program: config, shared services, registry, server.
type app struct {
	cfg     *config.Config
	log     zerolog.Logger
	deps    *tool.Deps
	bridges *bridge.Manager // the downstream servers; Deps.Bridge adapts it for mcp_bridge
	srv     *server.Server
	closer  []io.Closer
}

func (a *app) Close() {
	for i := len(a.closer) - 1; i >= 0; i-- {
		a.closer[i].Close()
	}
}

// newApp builds everything from the config file for the commands that run
// tools (serve, call): it creates the workspace roots and the data dir and
// opens the store in it. apply lets flags override config values before
// anything is created.
func newApp(configPath string, apply func(*config.Config)) (*app, error) {
	cfg, err := config.Load(configPath)
	if err != nil {
		return nil, err
	}
	if apply != nil {
		apply(cfg)
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	return assemble(cfg, false)
}

// newLookApp builds the app for the commands that only look (tools, route,
// doctor). They create nothing: no workspace root, data dir, database or
// log file, and they prune nothing; the store is a private in-memory one
// and logs go to stderr.
func newLookApp(configPath string) (*app, error) {
	cfg, err := config.Load(configPath)
	if err != nil {
		return nil, err
	}
	return assemble(cfg, true)
}

// assemble builds the app from a loaded config; lookOnly is newLookApp's
// mode. Any problem in a tool's config section refuses the start, whatever
// the tool did with it, with every problem in the message (tools.All). The
// tools' Closers join the closer list.
func assemble(cfg *config.Config, lookOnly bool) (*app, error) {
	defer startheap.DoneAfter(time.Second) // started: the collector runs normally once the first client has listed the tools
	jail.SetDefaults(jail.Limits{CPUSeconds: cfg.Jail.CPUSeconds, MemoryMB: cfg.Jail.MemoryMB, Processes: cfg.Jail.Processes, FileSizeMB: cfg.Jail.FileSizeMB})
	logFile := cfg.LogFile
	if lookOnly {
		logFile = "" // opening it would create it
	}
	log, lc, err := logging.New(logFile, cfg.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	a := &app{cfg: cfg, log: log, closer: []io.Closer{lc}}
	openSandbox, openStore := sandbox.New, func(*config.Config) (*store.Store, error) { return openStore(cfg) }
	if lookOnly {
		openSandbox, openStore = sandbox.Open, func(*config.Config) (*store.Store, error) { return store.OpenMemory() }
	}
	sb, err := openSandbox(cfg.Workspace)
	if err != nil {
		a.Close()
		return nil, err
	}
	st, err := openStore(cfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	if err := sb.Protect(cfg.DataDir); err != nil { // no tool reads or writes the store
		a.Close()
		return nil, err
	}
	a.closer = append(a.closer, st)
	guard, err := netguard.New(cfg.Network.AllowHosts)
	if err != nil {
		a.Close()
		return nil, err
	}
	bc, err := browser.FromConfig(cfg)
	if err != nil {
		bc = browser.DefaultConfig() // the problem is in cfg.SectionError, checked below
	}
	bm := browser.New(bc, guard, log) // launches Chromium lazily, on first use
	a.closer = append(a.closer, closerFunc(bm.Close))
	bridges, err := bridge.New(bridge.Options{Config: cfg.Bridge, DataDir: cfg.DataDir, Guard: guard, Log: log})
	if err != nil {
		a.Close()
		return nil, err
	}
	a.closer = append(a.closer, closerFunc(bridges.Close))
	a.bridges = bridges
	a.deps = &tool.Deps{Config: cfg, Sandbox: sb, Store: st, Guard: guard, Log: log, Sessions: bm, PDF: bm, Browser: bm, Bridge: bridgetool.Downstream(bridges)}
	registry, err := buildTools(a.deps) // refuses any problem in a tool's config section
	if err != nil {
		a.Close()
		return nil, err
	}
	for _, t := range registry { // closed before the store and the browser they may use
		if t.Closer != nil {
			a.closer = append(a.closer, t.Closer)
		}
	}
	a.srv, err = server.New(server.Options{Config: cfg, Deps: a.deps, Store: st, Bridge: bridges, Tools: registry, Log: log, Version: Version})
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// buildTools builds the registry (tools.All); a test may wrap it.
var buildTools = tools.All

type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }

// openStore opens the store the config names: SQLite in data_dir, or the
// shared PostgreSQL (the password from store.password_env).
func openStore(cfg *config.Config) (*store.Store, error) {
	return store.Open(store.Config{Driver: cfg.Store.Driver, DataDir: cfg.DataDir, DSN: cfg.Store.DSN, Password: cfg.Store.Password()})
}
