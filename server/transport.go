package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/internal/config"
)

// httpHandler serves SSE (/sse, /message), streamable HTTP (/mcp) and
// /healthz on one mux, behind the body cap, the Host/Origin check and, when
// a token is configured, bearer authentication. It also returns the function
// that, at shutdown, ends the long-lived streams (SSE, streamable GET) once
// calls in flight are done.
func (s *Server) httpHandler(addr string) (http.Handler, func(context.Context)) {
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
		mcpserver.WithSessionIdManager(s.live),
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
	mux.Handle("/mcp", s.gateSessions(stream))
	mux.Handle("/sse", s.gateSSE(sse.SSEHandler()))
	mux.Handle("/message", sse.MessageHandler())
	mux.Handle("/metrics", s.metrics.handler()) // behind the token like /mcp: only /healthz is open
	ui := s.dashboard()                         // behind the token too, or its cookie (dashboard.go)
	mux.Handle("/ui", ui)
	mux.Handle("/ui/", ui)
	mux.HandleFunc("/", root) // the bare address and unknown paths name the endpoints
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"status": "ok", "tools": len(s.order)})
	})
	closeStreams := func(ctx context.Context) {
		sse.CloseSessions()
		_ = stream.Shutdown(ctx) // its sessions, and mcp-go's idle-session sweeper goroutine
	}
	return s.guardHTTP(addr, mux), closeStreams
}

// ListenAndServe serves HTTP on addr until ctx ends. It refuses to bind a
// non-loopback address without a bearer token. When ctx ends it stops
// accepting, lets requests and calls in flight finish within shutdown_grace,
// then cuts what is left and returns.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	if !isLoopbackAddr(addr) && s.cfg.HTTP.Token == "" {
		return fmt.Errorf("refusing to listen on %s without a bearer token: set --token or CLAWBRIDGE_TOKEN, or bind 127.0.0.1", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler, closeStreams := s.httpHandler(ln.Addr().String())
	// No ReadTimeout or WriteTimeout: they would cut SSE streams and long
	// calls. The body has its own deadline in guardHTTP.
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: s.cfg.HTTP.ReadHeaderTimeout,
		IdleTimeout:       s.cfg.HTTP.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          stdLogger(s.log),
	}
	go s.sweepLoop(ctx)
	defer s.startLoops(ctx)() // the scheduler; stopped once calls are done
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	s.log.Info().Msg("signal received: finishing calls in flight")
	grace, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- srv.Shutdown(grace) }() // stops accepting; waits for open requests
	// SSE results travel on the SSE stream, not on the request: keep the
	// streams until the calls are done and their results had a moment to
	// be written, then end them so Shutdown can finish.
	if n := s.flight.wait(grace); n > 0 {
		s.log.Warn().Int("calls", n).Dur("grace", s.cfg.ShutdownGrace).Msg("shutdown grace expired: cancelling calls in flight")
	} else {
		select {
		case <-time.After(200 * time.Millisecond):
		case <-grace.Done():
		}
	}
	closeStreams(grace)
	if err := <-drained; err != nil {
		srv.Close() // cancels the requests still running
		cut, cancelCut := context.WithTimeout(context.Background(), time.Second)
		defer cancelCut()
		s.flight.wait(cut) // let cancelled calls write their audit lines
	}
	return nil
}

func (s *Server) guardHTTP(addr string, next http.Handler) http.Handler {
	token := s.cfg.HTTP.Token
	maxBody := s.cfg.HTTP.MaxBodyBytes
	hosts := allowedHosts(addr, s.cfg.HTTP.AllowedHosts)
	origins := allowedOrigins(addr, s.cfg.HTTP.AllowedOrigins)
	bodyTimeout := s.cfg.HTTP.BodyTimeout
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, hosts) {
			http.Error(w, fmt.Sprintf("forbidden: Host %q is not allowed (add it to http.allowed_hosts)", r.Host), http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, origins) {
			http.Error(w, fmt.Sprintf("forbidden: Origin %q is not allowed (add it to http.allowed_origins)", o), http.StatusForbidden)
			return
		}
		if r.URL.Path != "/healthz" && token != "" && !authorized(r, token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="clawbridge"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <token> (the dashboard: open /ui?token=<token> once)", http.StatusUnauthorized)
			return
		}
		if r.ContentLength > maxBody {
			http.Error(w, fmt.Sprintf("request body too large (limit %d bytes)", maxBody), http.StatusRequestEntityTooLarge)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			if !readBody(w, r, maxBody, bodyTimeout) {
				return
			}
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

// allowedOrigins: the server's own origin on every loopback name, with the
// bound port, and the configured ones (checked by config.Validate).
func allowedOrigins(addr string, extra []string) []config.Origin {
	var out []config.Origin
	if _, port, err := net.SplitHostPort(addr); err == nil && port != "0" {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			out = append(out, config.Origin{Scheme: "http", Host: h, Port: port})
		}
	}
	for _, e := range extra {
		if e == "*" {
			out = append(out, config.Origin{Scheme: "*"})
			continue
		}
		if o, err := config.ParseOrigin(e); err == nil {
			out = append(out, o)
		}
	}
	return out
}

// originAllowed admits the server's own origin and configured ones, port
// included: a page on another local port (a dev server, a hostile local
// page) cannot drive the server (DNS rebinding, CSRF).
func originAllowed(origin string, allowed []config.Origin) bool {
	o, err := config.ParseOrigin(origin)
	for _, a := range allowed {
		if a.Scheme == "*" || (err == nil && a.Allows(o)) {
			return true
		}
	}
	return false
}

// readBody reads the request body under a deadline and a size cap, so that
// a client trickling its body cannot hold the connection, and hands the
// handler the bytes. It answers the client itself and returns false when the
// body is too large or too slow.
func readBody(w http.ResponseWriter, r *http.Request, maxBody int64, timeout time.Duration) bool {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(timeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	rc.SetReadDeadline(time.Time{})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("request body too large (limit %d bytes)", maxBody), http.StatusRequestEntityTooLarge)
		return false
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("request body not received within %v (http.body_timeout)", timeout), http.StatusRequestTimeout)
		return false
	case err != nil:
		w.Header().Set("Connection", "close")
		http.Error(w, "request body could not be read: "+err.Error(), http.StatusBadRequest)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return true
}

// gateSessions admits a new streamable session only under http.max_sessions
// and answers DELETE of a session that is not live with 404.
func (s *Server) gateSessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		modern := mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
		switch {
		case r.Method == http.MethodDelete && !modern:
			id := r.Header.Get(mcpserver.HeaderKeySessionID)
			if id == "" {
				http.Error(w, "DELETE needs the Mcp-Session-Id header of the session to end", http.StatusBadRequest)
				return
			}
			if !s.live.known(id) {
				http.Error(w, "no such session (it ended or never existed)", http.StatusNotFound)
				return
			}
		case r.Method == http.MethodPost && !modern && opensSession(r):
			s.live.serve(w, r, next, false)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// gateSSE admits an SSE stream (one session) only under http.max_sessions.
func (s *Server) gateSSE(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			s.live.serve(w, r, next, true)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// opensSession reports whether a POST body (already read by guardHTTP) is a
// session-era initialize, the only request that creates a session.
func opensSession(r *http.Request) bool {
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta *mcp.Meta `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return false
	}
	return msg.Method == string(mcp.MethodInitialize) && !mcp.IsModernProtocol(msg.Params.Meta.ProtocolVersion())
}
