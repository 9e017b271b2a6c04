// Package tooltest builds real dependencies for tool tests.
package tooltest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"clawbridge/internal/config"
	"clawbridge/internal/netguard"
	"clawbridge/internal/sandbox"
	"clawbridge/internal/store"
	"clawbridge/tools/tool"
)

// Deps builds real dependencies in temporary directories for tool tests:
// a workspace, a data dir with a SQLite store, and a guard that allows the
// given hosts (for example a fixture server's 127.0.0.1).
func Deps(t testing.TB, allowHosts ...string) *tool.Deps {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Workspace = []string{filepath.Join(dir, "workspace")}
	cfg.DataDir = filepath.Join(dir, "data")
	cfg.Network.AllowHosts = allowHosts
	sb, err := sandbox.New(cfg.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g, err := netguard.New(allowHosts)
	if err != nil {
		t.Fatal(err)
	}
	return &tool.Deps{Config: cfg, Sandbox: sb, Store: st, Guard: g, Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel)}
}

// Run prepares args against t's schema (as the server does) and runs the
// handler, for tests.
func Run(tb testing.TB, tl tool.Tool, args map[string]any) (*tool.Result, error) {
	tb.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		return nil, err
	}
	return tl.Handler(tb.(interface{ Context() context.Context }).Context(), c)
}
