package search

import (
	"context"
	"net/url"
	"strings"
)

// query is one search as the backends take it.
type query struct {
	Text       string
	Count      int
	Language   string // "en", "zh-CN"; "" for the backend's default
	Region     string // "us", "cn"; ""
	TimeRange  string // "", day, week, month, year
	SafeSearch string // off, moderate, strict
}

// hit is one result.
type hit struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
	Backend string `json:"backend"`
}

// backend is one search service.
type backend interface {
	name() string
	search(ctx context.Context, q query) ([]hit, error)
}

// normalizeURL is the key results are deduplicated by: lower-case scheme
// and host without "www.", no fragment, no trailing slash, no tracking
// parameters, http and https alike.
func normalizeURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if p := u.Port(); p != "" && p != "80" && p != "443" {
		host += ":" + p
	}
	q := u.Query()
	for k := range q {
		if lk := strings.ToLower(k); strings.HasPrefix(lk, "utm_") || lk == "fbclid" || lk == "gclid" {
			q.Del(k)
		}
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	key := host + path
	if enc := q.Encode(); enc != "" {
		key += "?" + enc
	}
	return key
}

// dedupe keeps the first hit of each normalised URL.
func dedupe(hits []hit) []hit {
	seen := map[string]bool{}
	out := hits[:0:0]
	for _, h := range hits {
		k := normalizeURL(h.URL)
		if h.URL == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	return out
}
