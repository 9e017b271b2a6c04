// Command clawbridge is an MCP server that publishes real tools to agent
// clients over stdio, SSE and streamable HTTP, with per-session progressive
// tool exposure.
//
// The command line lives in internal/cli; main only connects the process to
// it: arguments, standard streams, signals and the exit code.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/clawbridge/clawbridge/internal/cli"
)

// Set at build time with -ldflags "-X main.version=... -X main.commit=...
// -X main.date=..." (the Makefile, goreleaser); cli.SetBuild fills in what
// is left empty from the Go build info.
var version, commit, date string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal starts a graceful shutdown; a second one kills.
	go func() { <-ctx.Done(); stop() }()
	cli.SetBuild(version, commit, date)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
