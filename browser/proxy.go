package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/netguard"
)

// guardProxy is a small forward proxy that every request of one browser
// context goes through. Chromium hands it the host name (it resolves
// nothing itself behind a proxy), so the network guard checks the address
// actually dialled: redirects, subresources, fetches and WebSockets to
// private addresses are all refused, and DNS rebinding cannot slip past.
type guardProxy struct {
	guard  *netguard.Guard
	policy *originPolicy
	log    zerolog.Logger
	ln     net.Listener
	srv    *http.Server
	tr     *http.Transport

	mu      sync.Mutex
	blocked []BlockedRequest
}

// BlockedRequest is a request the guard or the origin policy refused.
type BlockedRequest struct {
	URL    string    `json:"url"`
	Reason string    `json:"reason"`
	At     time.Time `json:"-"`
}

const maxBlocked = 64

func startProxy(guard *netguard.Guard, policy *originPolicy, log zerolog.Logger) (*guardProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser proxy: listen: %w", err)
	}
	p := &guardProxy{guard: guard, policy: policy, log: log, ln: ln, tr: guard.Transport()}
	p.tr.ResponseHeaderTimeout = 2 * time.Minute
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, ErrorLog: nil}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *guardProxy) Addr() string { return p.ln.Addr().String() }

func (p *guardProxy) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
	_ = p.srv.Close()
	p.tr.CloseIdleConnections()
}

func (p *guardProxy) record(u, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blocked = append(p.blocked, BlockedRequest{URL: u, Reason: reason, At: time.Now()})
	if len(p.blocked) > maxBlocked {
		p.blocked = p.blocked[len(p.blocked)-maxBlocked:]
	}
}

// blockedSince lists refusals recorded at or after t.
func (p *guardProxy) blockedSince(t time.Time) []BlockedRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []BlockedRequest
	for _, b := range p.blocked {
		if !b.At.Before(t) {
			out = append(out, b)
		}
	}
	return out
}

// check applies the origin policy and the guard's URL check.
func (p *guardProxy) check(u *url.URL) string {
	if reason := p.policy.checkURL(u); reason != "" {
		return reason
	}
	if _, err := p.guard.CheckURL(u.String()); err != nil {
		return err.Error()
	}
	return ""
}

func (p *guardProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "clawbridge browser proxy: absolute URL required", http.StatusBadRequest)
		return
	}
	if reason := p.check(r.URL); reason != "" {
		p.refuse(w, r.URL.String(), reason)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	removeHopHeaders(out.Header)
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		if errors.Is(err, netguard.ErrBlocked) {
			p.refuse(w, r.URL.String(), err.Error())
			return
		}
		http.Error(w, "clawbridge browser proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	removeHopHeaders(resp.Header)
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

func (p *guardProxy) refuse(w http.ResponseWriter, u, reason string) {
	p.record(u, reason)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Clawbridge-Blocked", "1")
	w.WriteHeader(http.StatusForbidden)
	_, _ = io.WriteString(w, "Blocked by the clawbridge network guard: "+reason+"\n")
}

// connect tunnels HTTPS and WebSocket traffic after checking the target.
func (p *guardProxy) connect(w http.ResponseWriter, r *http.Request) {
	hostport := r.Host
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		http.Error(w, "bad CONNECT target", http.StatusBadRequest)
		return
	}
	u := &url.URL{Scheme: "https", Host: hostport, Path: "/"}
	if port == "80" {
		u.Scheme = "http"
	}
	if reason := p.check(u); reason != "" {
		p.refuse(w, u.String(), reason)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	up, err := p.guard.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	cancel()
	if err != nil {
		if errors.Is(err, netguard.ErrBlocked) {
			p.refuse(w, u.String(), err.Error())
			return
		}
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	_, _ = down.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
	go func() {
		if buf.Reader.Buffered() > 0 {
			_, _ = io.CopyN(up, buf, int64(buf.Reader.Buffered()))
		}
		_, _ = io.Copy(up, down)
		if c, ok := up.(*net.TCPConn); ok {
			_ = c.CloseWrite()
		}
	}()
	_, _ = io.Copy(down, up)
	up.Close()
	down.Close()
}

var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHopHeaders(h http.Header) {
	for _, f := range h["Connection"] {
		for _, k := range strings.Split(f, ",") {
			h.Del(strings.TrimSpace(k))
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}
