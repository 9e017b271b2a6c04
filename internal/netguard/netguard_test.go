package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestAddrPolicy(t *testing.T) {
	g, _ := New(nil)
	for _, a := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "::1", "fe80::1", "fc00::1", "0.0.0.0", "100.64.0.1", "::ffff:127.0.0.1", "224.0.0.1"} {
		if g.AddrAllowed(netip.MustParseAddr(a)) {
			t.Errorf("%s allowed", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "2606:4700::1111"} {
		if !g.AddrAllowed(netip.MustParseAddr(a)) {
			t.Errorf("%s refused", a)
		}
	}
	g, _ = New([]string{"127.0.0.1", "10.0.0.0/8", "intranet.example"})
	if !g.AddrAllowed(netip.MustParseAddr("127.0.0.1")) || !g.AddrAllowed(netip.MustParseAddr("10.9.9.9")) {
		t.Error("allow-list not honoured")
	}
	if g.AddrAllowed(netip.MustParseAddr("192.168.0.1")) {
		t.Error("allow-list too wide")
	}
	if !g.HostAllowed("Intranet.Example.") {
		t.Error("host allow-list is case- and dot-sensitive")
	}
}

func TestCheckURL(t *testing.T) {
	g, _ := New(nil)
	bad := []string{"file:///etc/passwd", "gopher://x", "http://127.0.0.1/", "http://[::1]:8080/", "http://localhost/", "http://app.localhost/", "http://169.254.169.254/latest/meta-data/", "http:///nohost"}
	for _, u := range bad {
		if _, err := g.CheckURL(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	if _, err := g.CheckURL("https://example.com/a?b=c"); err != nil {
		t.Errorf("public URL refused: %v", err)
	}
}

// The client refuses loopback at dial time (a name that resolves there, not
// just literal IPs) and on redirects, unless allowed.
func TestClientRefusesPrivateTargets(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	defer target.Close()
	g, _ := New(nil)
	c := g.Client(5 * time.Second)
	viaName := strings.Replace(target.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{target.URL, viaName} {
		_, err := c.Get(u)
		if err == nil || !errors.Is(err, ErrBlocked) {
			t.Errorf("GET %s: want ErrBlocked, got %v", u, err)
		}
	}
	// An allowed fixture host that redirects to a private address: the
	// redirect is refused.
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	}))
	defer redirector.Close()
	g2, _ := New([]string{"127.0.0.1"})
	_, err := g2.Client(5 * time.Second).Get(redirector.URL)
	if err == nil || !errors.Is(err, ErrBlocked) {
		t.Fatalf("redirect to link-local: want ErrBlocked, got %v", err)
	}
	resp, err := g2.Client(5 * time.Second).Get(target.URL)
	if err != nil {
		t.Fatalf("allowed host refused: %v", err)
	}
	resp.Body.Close()
	if err := g.CheckHost(context.Background(), "localhost"); err == nil {
		t.Error("CheckHost(localhost) passed")
	}
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1", "https://example.com", "http://[::ffff:10.0.0.1]/", "http://0x7f.1/"} {
		f.Add(s)
	}
	g, _ := New(nil)
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := g.CheckURL(raw)
		if err != nil {
			return
		}
		if ip, perr := netip.ParseAddr(u.Hostname()); perr == nil && !g.AddrAllowed(ip) {
			t.Fatalf("%q accepted with private literal %s", raw, ip)
		}
	})
}
