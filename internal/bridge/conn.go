package bridge

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/platform"
)

// conn is one live connection to a downstream server.
type conn struct {
	client *client.Client
	mu     sync.Mutex
	cmd    *exec.Cmd // stdio only
	// lost ends, with the reason as its cause, when an SSE server's event
	// stream ends: every answer comes on that stream, so the connection is
	// gone even though no request has failed yet. Closing the connection
	// does not end it (a call retried on a new connection watches the old
	// one's).
	lost     context.Context
	loseConn context.CancelCauseFunc
}

// dial starts a stdio server or connects to an HTTP one, and initializes.
// onNote receives the server's notifications.
func dial(ctx context.Context, s config.BridgeServer, guard *netguard.Guard, getenv func(string) string, onNote func(mcp.JSONRPCNotification)) (*conn, error) {
	c := &conn{}
	c.lost, c.loseConn = context.WithCancelCause(context.Background())
	var tr transport.Interface
	if s.Command != "" {
		env := serverEnv(s, getenv)
		tr = transport.NewStdioWithOptions(s.Command, env, s.Args, transport.WithCommandFunc(
			func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
				// Not CommandContext: the start context ends when the
				// start does, the server lives on.
				cmd := exec.Command(command, args...)
				cmd.Env = env // the scrubbed environment, not os.Environ()
				cmd.Dir = s.Cwd
				platform.NewGroup(cmd)
				c.mu.Lock()
				c.cmd = cmd
				c.mu.Unlock()
				return cmd, nil
			}))
	} else {
		var err error
		if tr, err = httpTransport(s, guard, getenv); err != nil {
			return nil, err
		}
	}
	// The transport's streams live as long as the connection, not as long
	// as the start: SSE opens its event stream with the context given to
	// Start, so passing the start context would cut every answer once the
	// start returns. The start is still bounded: when ctx ends first, the
	// transport is closed and Start fails.
	abandon := context.AfterFunc(ctx, func() { _ = tr.Close() })
	err := tr.Start(context.WithoutCancel(ctx))
	if !abandon() {
		err = fmt.Errorf("connecting: %w", context.Cause(ctx))
	}
	if err != nil {
		_ = tr.Close()
		return nil, err
	}
	// The same servers need the initialize handshake.
	//lint:ignore SA1019 the downstream servers predate 2026-07-28
	c.client = client.NewClient(tr, client.WithLegacyProtocolOnly())
	if err := c.client.Start(ctx); err != nil {
		c.close()
		return nil, err
	}
	c.client.OnNotification(onNote)
	if s.Transport == "sse" {
		c.client.OnConnectionLost(func(err error) { c.loseConn(fmt.Errorf("its SSE stream ended: %w", err)) })
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "clawbridge", Version: "bridge"}
	if _, err := c.client.Initialize(ctx, init); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// httpTransport is the SSE or streamable HTTP transport to s.URL, with its
// headers and bearer token, through the outbound guard.
func httpTransport(s config.BridgeServer, guard *netguard.Guard, getenv func(string) string) (transport.Interface, error) {
	headers := map[string]string{}
	for k, v := range s.Headers {
		headers[k] = v
	}
	if s.TokenEnv != "" {
		tok := getenv(s.TokenEnv)
		if tok == "" {
			return nil, fmt.Errorf("the environment variable %s (token_env) is empty", s.TokenEnv)
		}
		headers["Authorization"] = "Bearer " + tok
	}
	u, _ := url.Parse(s.URL)
	if _, err := guard.CheckURL(s.URL); err != nil && !guard.HostAllowed(u.Hostname()) {
		return nil, fmt.Errorf("%s is refused by the outbound guard (add its host to network.allow_hosts to allow it): %w", u.Host, err)
	}
	hc := guard.Client(0) // every connection checked after DNS; no overall timeout on a stream
	var tr transport.Interface
	var err error
	if s.Transport == "sse" {
		tr, err = transport.NewSSE(s.URL, transport.WithHeaders(headers), transport.WithHTTPClient(hc))
	} else {
		// Downstream servers from npm speak the 2025 protocol versions,
		// whose notifications arrive on the standalone GET stream.
		//lint:ignore SA1019 the downstream servers predate 2026-07-28
		tr, err = transport.NewStreamableHTTP(s.URL, transport.WithHTTPHeaders(headers), transport.WithHTTPBasicClient(hc), transport.WithContinuousListening())
	}
	return tr, err
}

// pid is the stdio server's process id, 0 for HTTP.
func (c *conn) pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// exited reports whether the stdio server's process has ended. It looks
// without reaping (WNOWAIT), so the transport's own Wait still collects it.
func (c *conn) exited() bool {
	pid := c.pid()
	if pid == 0 {
		return false
	}
	return platform.Exited(pid)
}

// broken reports whether the connection can no longer serve: the stdio
// server exited or the SSE stream was lost.
func (c *conn) broken() bool { return c.exited() || c.lost.Err() != nil }

// close ends the connection; a stdio server's whole process group is
// killed if it does not exit on its own (the transport closes its stdin,
// then signals it).
func (c *conn) close() {
	pid := c.pid()
	done := make(chan struct{})
	go func() {
		if c.client != nil {
			_ = c.client.Close()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	if pid > 0 {
		platform.KillGroup(pid) // children it left behind
	}
}

// manifest reads the server's tools, prompts and resources.
func (c *conn) manifest(ctx context.Context, server string) (*Manifest, error) {
	m := &Manifest{Server: server, Fetched: time.Now().UTC()}
	lt, err := c.client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range lt.Tools {
		d, err := toolDef(t)
		if err != nil {
			return nil, err
		}
		m.Tools = append(m.Tools, d)
	}
	caps := c.client.GetServerCapabilities()
	if caps.Prompts != nil {
		if lp, err := c.client.ListPrompts(ctx, mcp.ListPromptsRequest{}); err == nil {
			m.Prompts = lp.Prompts
		}
	}
	if caps.Resources != nil {
		if lr, err := c.client.ListResources(ctx, mcp.ListResourcesRequest{}); err == nil {
			m.Resources = lr.Resources
		}
	}
	return m, nil
}

var errTransportClosed = transport.ErrTransportClosed
