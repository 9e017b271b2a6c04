package webfetch

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// robotsRules is the group of a robots.txt that applies to us.
type robotsRules struct {
	rules   []robotsRule
	fetched time.Time
	ttl     time.Duration
}

type robotsRule struct {
	allow   bool
	pattern string
}

// parseRobots keeps the group for agent, or the "*" group when there is
// none (RFC 9309).
func parseRobots(r io.Reader, agent string) []robotsRule {
	agent = strings.ToLower(agent)
	type group struct {
		agents []string
		rules  []robotsRule
	}
	var groups []*group
	var cur *group
	lastWasAgent := false
	sc := bufio.NewScanner(io.LimitReader(r, 512<<10))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if !lastWasAgent || cur == nil {
				cur = &group{}
				groups = append(groups, cur)
			}
			cur.agents = append(cur.agents, strings.ToLower(v))
			lastWasAgent = true
		case "allow", "disallow":
			lastWasAgent = false
			if cur == nil || (k == "disallow" && v == "") {
				continue
			}
			cur.rules = append(cur.rules, robotsRule{allow: k == "allow", pattern: v})
		default:
			lastWasAgent = false
		}
	}
	var star []robotsRule
	for _, g := range groups {
		for _, a := range g.agents {
			if a != "*" && a != "" && strings.Contains(agent, a) {
				return g.rules
			}
			if a == "*" {
				star = append(star, g.rules...)
			}
		}
	}
	return star
}

// allowed applies the longest matching rule; allow wins a tie.
func (r *robotsRules) allowed(path string) bool {
	best, allow := -1, true
	for _, rule := range r.rules {
		if n := matchRobots(rule.pattern, path); n >= 0 && (n > best || (n == best && rule.allow)) {
			best, allow = n, rule.allow
		}
	}
	return allow
}

// matchRobots returns the pattern length when pattern (with * and a final
// $) matches path from its start, else -1. The middle pieces are matched
// leftmost, which leaves the most room for the rest; with $ the last piece
// must end the path.
func matchRobots(pattern, path string) int {
	anchored := strings.HasSuffix(pattern, "$")
	parts := strings.Split(strings.TrimSuffix(pattern, "$"), "*")
	if !strings.HasPrefix(path, parts[0]) {
		return -1
	}
	pos := len(parts[0])
	if len(parts) == 1 {
		if anchored && pos != len(path) {
			return -1
		}
		return len(pattern)
	}
	last := len(parts) - 1
	for _, part := range parts[1:last] {
		j := strings.Index(path[pos:], part)
		if j < 0 {
			return -1
		}
		pos += j + len(part)
	}
	tail := parts[last]
	if anchored {
		if len(path)-len(tail) < pos || !strings.HasSuffix(path, tail) {
			return -1
		}
	} else if !strings.Contains(path[pos:], tail) {
		return -1
	}
	return len(pattern)
}

// robotsCache caches robots.txt per scheme+host.
type robotsCache struct {
	mu    sync.Mutex
	hosts map[string]*robotsRules
	fetch func(ctx context.Context, u string) (*http.Response, error)
	agent string
	ttl   time.Duration
}

func (c *robotsCache) allowed(ctx context.Context, u *url.URL) bool {
	key := u.Scheme + "://" + u.Host
	c.mu.Lock()
	rr, ok := c.hosts[key]
	c.mu.Unlock()
	if !ok || time.Since(rr.fetched) > rr.ttl {
		rr = c.load(ctx, key)
		c.mu.Lock()
		c.hosts[key] = rr
		c.mu.Unlock()
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return rr.allowed(path)
}

func (c *robotsCache) load(ctx context.Context, base string) *robotsRules {
	rr := &robotsRules{fetched: time.Now(), ttl: c.ttl}
	resp, err := c.fetch(ctx, base+"/robots.txt")
	if err != nil {
		rr.ttl = 10 * time.Minute // unreachable: allow, and try again soon
		return rr
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		rr.rules = parseRobots(resp.Body, c.agent)
	case resp.StatusCode >= 500:
		rr.ttl = 10 * time.Minute
	}
	return rr
}
