// Command clawbridge is an MCP server that publishes real tools to agent
// clients over stdio, SSE and streamable HTTP, with per-session progressive
// tool exposure.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `clawbridge — an MCP tool server for AI agents

Usage:
  clawbridge [serve]                  serve one client over stdio (default)
  clawbridge serve --http ADDR        serve SSE (/sse) and streamable HTTP (/mcp)
  clawbridge route "text"             show the routing decision for a request
  clawbridge route --jsonl            route {"id","q"} lines from stdin
  clawbridge tools                    list the registry: tools, actions, levels
  clawbridge call TOOL --args JSON    run one tool through the call pipeline
  clawbridge approve                  list the calls waiting for a person's approval
  clawbridge approve [--reject] ID    approve (or reject) one waiting call, once
  clawbridge doctor                   check config, dirs and external programs
  clawbridge install CLIENT [--print] add clawbridge to claude-desktop, cursor or vscode
  clawbridge config init              write a commented default config file
  clawbridge version

Common flags: --config FILE (default $XDG_CONFIG_HOME/clawbridge/config.yaml)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal starts a graceful shutdown; a second one kills.
	go func() { <-ctx.Done(); stop() }()
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, err)
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "clawbridge:", err)
		os.Exit(1)
	}
}

type usageError string

func (u usageError) Error() string { return string(u) }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return cmdServe(ctx, args, stdin, stdout, stderr)
	case "route":
		return cmdRoute(args, stdin, stdout)
	case "tools":
		return cmdTools(args, stdout)
	case "call":
		return cmdCall(ctx, args, stdout)
	case "approve":
		return cmdApprove(ctx, args, stdout)
	case "reject":
		return cmdApprove(ctx, append([]string{"--reject"}, args...), stdout)
	case "doctor":
		return cmdDoctor(args, stdout)
	case "install":
		return cmdInstall(args, stdout)
	case "config":
		return cmdConfig(args, stdout)
	case "version", "--version":
		fmt.Fprintln(stdout, "clawbridge", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError(fmt.Sprintf("unknown command %q", cmd))
}

// newFlags makes a flag set with the common --config flag.
func newFlags(name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := fs.String("config", "", "config file")
	return fs, cfg
}

// parse parses flags and refuses stray arguments, so that a typo never
// silently falls back to a default (such as serving stdio).
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseLoose(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("%s: unexpected argument %q", fs.Name(), fs.Arg(0)))
	}
	return nil
}

// parseLoose parses flags and leaves positional arguments in fs.Args().
func parseLoose(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageError(fmt.Sprintf("%s: %v", fs.Name(), err))
	}
	return nil
}
