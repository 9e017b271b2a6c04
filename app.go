package main

import (
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"clawbridge/browser"
	"clawbridge/internal/config"
	"clawbridge/internal/jail"
	"clawbridge/internal/logging"
	"clawbridge/internal/netguard"
	"clawbridge/internal/sandbox"
	"clawbridge/internal/store"
	"clawbridge/server"
	"clawbridge/tools"
	"clawbridge/tools/tool"
)

// app is the assembled program: config, shared services, registry, server.
type app struct {
	cfg    *config.Config
	log    zerolog.Logger
	deps   *tool.Deps
	srv    *server.Server
	closer []io.Closer
}

func (a *app) Close() {
	for i := len(a.closer) - 1; i >= 0; i-- {
		a.closer[i].Close()
	}
}

// newApp builds everything from the config file; apply lets flags override
// config values before anything is created.
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
	jail.SetDefaults(jail.Limits{CPUSeconds: cfg.Jail.CPUSeconds, MemoryMB: cfg.Jail.MemoryMB, Processes: cfg.Jail.Processes, FileSizeMB: cfg.Jail.FileSizeMB})
	log, lc, err := logging.New(cfg.LogFile, cfg.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	a := &app{cfg: cfg, log: log, closer: []io.Closer{lc}}
	sb, err := sandbox.New(cfg.Workspace)
	if err != nil {
		a.Close()
		return nil, err
	}
	st, err := store.Open(cfg.DataDir)
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
		a.Close()
		return nil, err
	}
	bm := browser.New(bc, guard, log) // launches Chromium lazily, on first use
	a.closer = append(a.closer, closerFunc(bm.Close))
	a.deps = &tool.Deps{Config: cfg, Sandbox: sb, Store: st, Guard: guard, Log: log, Sessions: bm, PDF: bm}
	registry, err := tools.All(a.deps, bm)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.srv, err = server.New(server.Options{Config: cfg, Deps: a.deps, Tools: registry, Log: log, Version: version})
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }
