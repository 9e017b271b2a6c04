package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves one client over stdin/stdout. Nothing but JSON-RPC is
// written to out; logs go to the logger (stderr or a file).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s.stdioKey = randomKey("stdio:")
	std := mcpserver.NewStdioServer(s.mcp)
	std.SetErrorLogger(stdLogger(s.log))
	return std.Listen(ctx, in, out)
}

// HTTPHandler serves SSE (/sse, /message), streamable HTTP (/mcp) and
// /healthz on one mux, behind the body cap, the Host/Origin check and, when
// a token is configured, bearer authentication.
func (s *Server) HTTPHandler(addr string) http.Handler {
	// Sessions for 2025-06-18 and 2025-11-25 (Mcp-Session-Id); stateless
	// requests for 2026-07-28, decided per request on the same endpoint.
	versions := []string{mcp.ProtocolVersion20250618, mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728}
	// A stateless caller's view is keyed by its principal: the bearer token,
	// once guardHTTP has checked it against the configured one.
	ctxFn := func(ctx context.Context, r *http.Request) context.Context {
		if tok := bearer(r); tok != "" && s.cfg.HTTP.Token != "" {
			ctx = withPrincipal(ctx, tok)
		}
		return ctx
	}
	stream := mcpserver.NewStreamableHTTPServer(s.mcp,
		mcpserver.WithEndpointPath("/mcp"),
		mcpserver.WithStateful(true),
		mcpserver.WithSessionIdleTTL(s.cfg.HTTP.SessionIdleTTL),
		mcpserver.WithHTTPContextFunc(ctxFn),
		mcpserver.WithStreamableHTTPProtocolVersions(versions...),
		mcpserver.WithDisableLocalhostProtection(true), // our own Host check below covers it, with the allow-list
	)
	sse := mcpserver.NewSSEServer(s.mcp,
		mcpserver.WithSSEEndpoint("/sse"),
		mcpserver.WithMessageEndpoint("/message"),
		mcpserver.WithUseFullURLForMessageEndpoint(false),
		mcpserver.WithKeepAliveInterval(25*time.Second),
		mcpserver.WithSSEContextFunc(ctxFn),
		mcpserver.WithSSEDisableLocalhostProtection(true),
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", stream)
	mux.Handle("/sse", sse.SSEHandler())
	mux.Handle("/message", sse.MessageHandler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"status": "ok", "tools": len(s.order)})
	})
	return s.guardHTTP(addr, mux)
}

// ListenAndServe serves HTTP on addr until ctx ends. It refuses to bind a
// non-loopback address without a bearer token.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	if !isLoopbackAddr(addr) && s.cfg.HTTP.Token == "" {
		return fmt.Errorf("refusing to listen on %s without a bearer token: set --token or CLAWBRIDGE_TOKEN, or bind 127.0.0.1", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.HTTPHandler(addr), ReadHeaderTimeout: 10 * time.Second}
	go s.sweepLoop(ctx)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if ready != nil {
		ready(ln.Addr())
	}
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (s *Server) guardHTTP(addr string, next http.Handler) http.Handler {
	token := s.cfg.HTTP.Token
	maxBody := s.cfg.HTTP.MaxBodyBytes
	hosts := allowedHosts(addr, s.cfg.HTTP.AllowedHosts)
	origins := s.cfg.HTTP.AllowedOrigins
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, hosts) {
			http.Error(w, fmt.Sprintf("forbidden: Host %q is not allowed (add it to http.allowed_hosts)", r.Host), http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, origins) {
			http.Error(w, fmt.Sprintf("forbidden: Origin %q is not allowed (add it to http.allowed_origins)", o), http.StatusForbidden)
			return
		}
		if r.URL.Path != "/healthz" && token != "" {
			got := bearer(r)
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="clawbridge"`)
				http.Error(w, "unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
				return
			}
		}
		if maxBody > 0 && r.Body != nil {
			if r.ContentLength > maxBody {
				http.Error(w, fmt.Sprintf("request body too large (limit %d bytes)", maxBody), http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// allowedHosts: loopback names always, the bound host, and config entries.
func allowedHosts(addr string, extra []string) []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" && h != "0.0.0.0" && h != "::" {
		hosts = append(hosts, strings.Trim(h, "[]"))
	}
	for _, e := range extra {
		hosts = append(hosts, strings.ToLower(e))
	}
	return hosts
}

func hostAllowed(hostport string, hosts []string) bool {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	h = strings.ToLower(strings.Trim(h, "[]"))
	if ip, err := netip.ParseAddr(h); err == nil && ip.IsLoopback() {
		return true
	}
	return slices.Contains(hosts, h) || slices.Contains(hosts, "*")
}

// originAllowed admits loopback origins and configured ones; a browser page
// from anywhere else cannot drive the server (DNS rebinding, CSRF).
func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, origin) || slices.Contains(allowed, "*") {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
