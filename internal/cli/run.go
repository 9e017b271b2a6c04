// Package cli is clawbridge's command line: the subcommands (serve, route,
// tools, call, approve, doctor, install, config, version) and the assembly
// of the program they run (config, shared services, registry, server).
// Main takes the arguments and standard streams and returns the exit code,
// so tests run every command in-process. It does not own the process:
// signals, os.Args and os.Exit stay in the root main package.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

const usage = `clawbridge — an MCP tool server for AI agents

Usage:
  clawbridge [serve]                  serve one client over stdio (default)
  clawbridge serve --http ADDR        serve SSE (/sse) and streamable HTTP (/mcp)
  clawbridge route "text" [--catalog] show the routing decision for a request
  clawbridge route --jsonl            route {"id","q"} lines from stdin
  clawbridge tools [TOOL]             list the tools, or one tool's actions and parameters
  clawbridge call TOOL --args JSON    run one tool through the call pipeline
  clawbridge approve                  list the calls waiting for a person's approval
  clawbridge approve [--reject] ID    approve (or reject) one waiting call, once
  clawbridge bridge status            downstream MCP servers: state, tools, changed or flagged definitions
  clawbridge bridge approve SERVER    approve a server's changed tool definitions
  clawbridge bridge refresh [SERVER]  start servers just to read and cache their manifests
  clawbridge doctor                   check config, dirs, jail, X display and external programs
  clawbridge install CLIENT [--print] add clawbridge to claude-desktop, cursor, vscode,
                                      claude-code, gemini or codex
  clawbridge config init              write a commented default config file
  clawbridge version                  version, commit and build date (also --version)

Common flags: --config FILE (default $XDG_CONFIG_HOME/clawbridge/config.yaml)
`

// Main runs one command and returns the process exit code: 0 on success,
// 1 when the command fails (the error on stderr), 2 for a usage error (the
// error and the usage on stderr). ctx ends the command: cancelling it is a
// graceful shutdown of serve.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := run(ctx, args, stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	var help helpRequest
	if errors.As(err, &help) {
		fmt.Fprint(stdout, help)
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "clawbridge:", ee.msg)
		}
		return ee.code
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, err)
		fmt.Fprint(stderr, usage)
		return 2
	}
	fmt.Fprintln(stderr, "clawbridge:", err)
	return 1
}

type usageError string

func (u usageError) Error() string { return string(u) }

// helpRequest is a command's --help text, printed on stdout with exit code 0.
type helpRequest string

func (h helpRequest) Error() string { return string(h) }

// exitError ends a command with its own exit code; the command has already
// said what happened unless msg is set.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string {
	if e.msg != "" {
		return e.msg
	}
	return fmt.Sprintf("exit code %d", e.code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && (isHelp(args[0]) || args[0] == "--version" || args[0] == "-version") {
		cmd = args[0] // not serve's flags: the command list, the version
	} else if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
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
		return cmdCall(ctx, args, stdout, stderr)
	case "approve":
		return cmdApprove(ctx, args, stdout)
	case "reject":
		return cmdApprove(ctx, append([]string{"--reject"}, args...), stdout)
	case "bridge":
		return cmdBridge(ctx, args, stdout)
	case "doctor":
		return cmdDoctor(args, stdout)
	case "install":
		return cmdInstall(args, stdout)
	case "config":
		return cmdConfig(args, stdout)
	case "version", "--version", "-version":
		fmt.Fprint(stdout, versionLine())
		return nil
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError(fmt.Sprintf("unknown command %q", cmd))
}

// isHelp reports whether a is a request for help (-h, --help, -help).
func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

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
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		b.WriteString(commandHelp[fs.Name()])
		b.WriteString("\nFlags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
		return helpRequest(b.String())
	} else if err != nil {
		return usageError(fmt.Sprintf("%s: %v", fs.Name(), err))
	}
	return nil
}
