// Package netguard is the outbound network policy. Private, loopback,
// link-local and other non-public addresses are refused after DNS resolution
// (so a public name pointing at 127.0.0.1 is caught) and on every redirect,
// unless the host or address is on the explicit allow-list.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrBlocked is wrapped by every refusal.
var ErrBlocked = errors.New("outbound address refused by the network guard")

// Guard decides which addresses tools may reach.
type Guard struct {
	hosts    map[string]bool
	prefixes []netip.Prefix
}

// New builds a guard from allow-list entries: host names, IPs or CIDRs.
func New(allow []string) (*Guard, error) {
	g := &Guard{hosts: map[string]bool{}}
	for _, a := range allow {
		a = strings.TrimSpace(strings.ToLower(a))
		if a == "" {
			continue
		}
		if p, err := netip.ParsePrefix(a); err == nil {
			g.prefixes = append(g.prefixes, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(a); err == nil {
			g.prefixes = append(g.prefixes, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		if h, _, err := net.SplitHostPort(a); err == nil {
			a = h
		}
		g.hosts[a] = true
	}
	return g, nil
}

// HostAllowed reports whether a host name is explicitly allowed.
func (g *Guard) HostAllowed(host string) bool {
	return g.hosts[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// AddrAllowed reports whether an address may be reached.
func (g *Guard) AddrAllowed(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range g.prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return isPublic(ip)
}

var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 can reach private v4
}

func isPublic(ip netip.Addr) bool {
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// CheckURL validates the scheme and, for literal addresses, the address.
// Names are checked again at dial time after resolution.
func (g *Guard) CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: only http and https URLs are allowed, not %q", ErrBlocked, u.Scheme)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("invalid URL %q: no host", raw)
	}
	if g.HostAllowed(host) {
		return u, nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && !g.AddrAllowed(ip) {
		return nil, fmt.Errorf("%w: %s is a private, loopback or link-local address (allow it with CLAWBRIDGE_ALLOW_HOSTS)", ErrBlocked, host)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil, fmt.Errorf("%w: %s is loopback (allow it with CLAWBRIDGE_ALLOW_HOSTS)", ErrBlocked, host)
	}
	return u, nil
}

// CheckHost resolves host and refuses it if any address is not allowed.
func (g *Guard) CheckHost(ctx context.Context, host string) error {
	if g.HostAllowed(host) {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !g.AddrAllowed(ip) {
			return fmt.Errorf("%w: %s", ErrBlocked, host)
		}
		return nil
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", host, err)
	}
	for _, a := range addrs {
		if !g.AddrAllowed(a) {
			return fmt.Errorf("%w: %s resolves to %s (allow it with CLAWBRIDGE_ALLOW_HOSTS)", ErrBlocked, host, a)
		}
	}
	return nil
}

// Control is a net.Dialer Control hook that checks the address actually
// dialled, after resolution; this closes the DNS-rebinding gap between a check
// and a connect.
func (g *Guard) control(allowedHost bool) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		if allowedHost {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrBlocked, address)
		}
		if !g.AddrAllowed(ap.Addr()) {
			return fmt.Errorf("%w: %s is a private, loopback or link-local address (allow it with CLAWBRIDGE_ALLOW_HOSTS)", ErrBlocked, ap.Addr())
		}
		return nil
	}
}

// DialContext dials with the address check.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second, Control: g.control(g.HostAllowed(host))}
	return d.DialContext(ctx, network, addr)
}

// Transport returns an http.Transport whose every connection is checked.
func (g *Guard) Transport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil, // a proxy would hide the real target from the check
		DialContext:           g.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}
}

// Client returns an HTTP client that checks every request and redirect.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout:   timeout,
		Transport: g.Transport(),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			if _, err := g.CheckURL(req.URL.String()); err != nil {
				return err
			}
			return nil
		},
	}
}
