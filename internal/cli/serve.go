package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/clawbridge/clawbridge/internal/config"
)

func cmdServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, cfgPath := newFlags("serve")
	httpAddr := fs.String("http", "", "serve SSE and streamable HTTP on ADDR instead of stdio (e.g. 127.0.0.1:8765)")
	token := fs.String("token", "", "bearer token required from HTTP clients (or CLAWBRIDGE_TOKEN)")
	exposure := fs.String("exposure", "", "exposure mode: auto, tiered, full or search")
	confirm := fs.String("confirm", "", "confirmation policy for high actions: elicit, approve, token, auto or deny")
	if err := parse(fs, args); err != nil {
		return err
	}
	a, err := newApp(*cfgPath, func(c *config.Config) {
		if *token != "" {
			c.HTTP.Token = *token
		}
		if *exposure != "" {
			c.Exposure.Mode = *exposure
		}
		if *confirm != "" {
			c.Confirm = *confirm
		}
		if *httpAddr != "" {
			c.HTTP.Addr = *httpAddr
		}
	})
	if err != nil {
		return err
	}
	defer a.Close()
	// A configured server whose manifest was never read has no published
	// tools; read it now that sessions can be told of new ones.
	a.bridges.DiscoverInBackground(ctx)
	// CLAWBRIDGE_HTTP_ADDR chooses HTTP as --http does (for containers and
	// service managers that configure by environment); the flag wins.
	if *httpAddr == "" && os.Getenv("CLAWBRIDGE_HTTP_ADDR") == "" {
		hintIfTerminal(stdin, stderr)
		a.log.Info().Str("transport", "stdio").Strs("workspace", a.cfg.Workspace).Int("tools", len(a.srv.Tools())).Msg("serving")
		return a.srv.ServeStdio(ctx, stdin, stdout)
	}
	return a.srv.ListenAndServe(ctx, a.cfg.HTTP.Addr, func(addr net.Addr) {
		a.log.Info().Str("transport", "http").Str("addr", addr.String()).Int("tools", len(a.srv.Tools())).Msg("serving")
		fmt.Fprintf(stderr, "clawbridge %s serving %d tools on http://%s\n  streamable HTTP: http://%s/mcp\n  SSE:             http://%s/sse\n  health:          http://%s/healthz\n  metrics:         http://%s/metrics\n",
			Version, len(a.srv.Tools()), addr, addr, addr, addr, addr)
	})
}
