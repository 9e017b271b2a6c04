package browser

import (
	"fmt"
	"net/url"
	"strings"
)

// originRule matches a request origin. An empty scheme or port matches any.
type originRule struct {
	scheme, host, port string
	subdomains         bool // "*.example.com"
}

func parseOrigins(list []string) ([]originRule, error) {
	var out []originRule
	for _, raw := range list {
		raw = strings.TrimSpace(strings.ToLower(raw))
		if raw == "" {
			continue
		}
		var r originRule
		hostport := raw
		if strings.Contains(raw, "://") {
			u, err := url.Parse(raw)
			if err != nil || u.Host == "" {
				return nil, fmt.Errorf("invalid origin %q", raw)
			}
			r.scheme = u.Scheme
			hostport = u.Host
		}
		hostport = strings.TrimSuffix(hostport, "/")
		if h, p, ok := strings.Cut(hostport, ":"); ok && !strings.Contains(p, ":") {
			r.host, r.port = h, p
		} else {
			r.host = hostport
		}
		if strings.HasPrefix(r.host, "*.") {
			r.subdomains = true
			r.host = strings.TrimPrefix(r.host, "*.")
		}
		if r.host == "" {
			return nil, fmt.Errorf("invalid origin %q", raw)
		}
		out = append(out, r)
	}
	return out, nil
}

func (r originRule) match(scheme, host, port string) bool {
	if r.scheme != "" && r.scheme != scheme {
		return false
	}
	if r.port != "" && r.port != port {
		return false
	}
	if host == r.host {
		return true
	}
	return r.subdomains && strings.HasSuffix(host, "."+r.host)
}

// originPolicy is the config's allowed/blocked origins.
type originPolicy struct {
	allow, block []originRule
}

func newOriginPolicy(allow, block []string) *originPolicy {
	a, _ := parseOrigins(allow) // validated by Config.normalize
	b, _ := parseOrigins(block)
	return &originPolicy{allow: a, block: b}
}

func defaultPort(scheme string) string {
	if scheme == "https" || scheme == "wss" {
		return "443"
	}
	return "80"
}

// check returns a reason when the origin is refused, "" when allowed.
func (p *originPolicy) check(scheme, host, port string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if port == "" {
		port = defaultPort(scheme)
	}
	for _, r := range p.block {
		if r.match(scheme, host, port) {
			return fmt.Sprintf("origin %s://%s is in the browser's blocked_origins", scheme, host)
		}
	}
	if len(p.allow) == 0 {
		return ""
	}
	for _, r := range p.allow {
		if r.match(scheme, host, port) {
			return ""
		}
	}
	return fmt.Sprintf("origin %s://%s is not in the browser's allowed_origins", scheme, host)
}

func (p *originPolicy) checkURL(u *url.URL) string {
	return p.check(strings.ToLower(u.Scheme), u.Hostname(), u.Port())
}
