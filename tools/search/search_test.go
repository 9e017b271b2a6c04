package search

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// fixture replays the saved bodies of testdata by path and counts requests.
type fixture struct {
	*httptest.Server
	hits  atomic.Int32
	last  atomic.Pointer[http.Request]
	serve func(w http.ResponseWriter, r *http.Request)
}

func newFixture(t *testing.T, serve func(w http.ResponseWriter, r *http.Request)) *fixture {
	f := &fixture{serve: serve}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.last.Store(r)
		f.serve(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func body(t *testing.T, name string) []byte {
	return tooltest.ReadFile(t, "testdata/"+name)
}

func replay(t *testing.T, name, ctype string, status int) func(http.ResponseWriter, *http.Request) {
	b := body(t, name)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		w.Write(b)
	}
}

func status(code int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, http.StatusText(code), code) }
}

// build makes the tool from a tools.search section; only 127.0.0.1 (the
// fixture servers) is reachable.
func build(t *testing.T, section string) tool.Tool {
	t.Helper()
	d := tooltest.Deps(t, "127.0.0.1")
	tooltest.ConfigSection(t, d, "search", "min_interval: 0s\n"+section)
	tl := tooltest.Build(t, New, d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatal(p)
	}
	return tl
}

func run(t *testing.T, tl tool.Tool, args map[string]any) map[string]any {
	t.Helper()
	r := tooltest.OK(t, tl, args)
	return r.Data.(map[string]any)
}

func TestSearch_DuckDuckGoRealMarkup(t *testing.T) {
	ddg := newFixture(t, replay(t, "ddg_golang.html", "text/html; charset=UTF-8", 200))
	tl := build(t, "duckduckgo: {base_url: "+ddg.URL+"}")
	d := run(t, tl, map[string]any{"query": "golang generics", "region": "us", "language": "en", "time_range": "week", "safe_search": "strict"})
	hits := d["results"].([]hit)
	want := []string{"https://go.dev/doc/tutorial/generics", "https://go.dev/blog/intro-generics", "https://gobyexample.com/generics"}
	if len(hits) != len(want) {
		t.Fatalf("got %d results, want %d (ad skipped, www/utm/slash duplicate dropped): %+v", len(hits), len(want), hits)
	}
	for i, h := range hits {
		if h.URL != want[i] || h.Backend != "duckduckgo" || h.Title == "" || h.Snippet == "" {
			t.Errorf("result %d = %+v, want URL %s", i, h, want[i])
		}
	}
	if hits[0].Title != "Tutorial: Getting started with generics - The Go Programming Language" {
		t.Errorf("title %q", hits[0].Title)
	}
	if !strings.Contains(hits[1].Snippet, "we've made") {
		t.Errorf("entities not decoded: %q", hits[1].Snippet)
	}
	q := ddg.last.Load().URL
	if q.Path != "/html/" || q.Query().Get("kl") != "us-en" || q.Query().Get("df") != "w" || q.Query().Get("kp") != "1" {
		t.Errorf("request %s", q)
	}
}

func TestSearch_SearXNGAndBraveRealJSON(t *testing.T) {
	sx := newFixture(t, replay(t, "searxng_golang.json", "application/json", 200))
	br := newFixture(t, replay(t, "brave_golang.json", "application/json", 200))
	tl := build(t, "backends: [searxng]\nsearxng: {base_url: "+sx.URL+"}")
	d := run(t, tl, map[string]any{"query": "golang generics", "language": "en", "time_range": "month", "safe_search": "off"})
	hits := d["results"].([]hit)
	if len(hits) != 3 || hits[2].URL != "https://gobyexample.com/generics" || d["backend"] != "searxng" {
		t.Fatalf("searxng: the #fragment duplicate must go: %+v", hits)
	}
	q := sx.last.Load().URL.Query()
	if sx.last.Load().URL.Path != "/search" || q.Get("format") != "json" || q.Get("time_range") != "month" || q.Get("safesearch") != "0" || q.Get("language") != "en" {
		t.Errorf("searxng request %s", q.Encode())
	}

	tl = build(t, "backends: [brave]\nbrave: {base_url: "+br.URL+", api_key: sekret-key-123}")
	d = run(t, tl, map[string]any{"query": "golang generics", "count": 5, "region": "US", "time_range": "day"})
	hits = d["results"].([]hit)
	if len(hits) != 2 || strings.Contains(hits[0].Snippet, "<strong>") || !strings.HasPrefix(hits[0].Snippet, "This tutorial introduces the basics of generics in Go.") {
		t.Fatalf("brave: %+v", hits)
	}
	r := br.last.Load()
	if r.URL.Path != "/res/v1/web/search" || r.Header.Get("X-Subscription-Token") != "sekret-key-123" || r.URL.Query().Get("freshness") != "pd" || r.URL.Query().Get("country") != "us" || r.URL.Query().Get("count") != "5" {
		t.Errorf("brave request %s %v", r.URL, r.Header)
	}
}

func TestSearch_EmptyResultsAreNotFailures(t *testing.T) {
	ddg := newFixture(t, replay(t, "ddg_empty.html", "text/html", 200))
	sx := newFixture(t, replay(t, "searxng_empty.json", "application/json", 200))
	tl := build(t, "backends: [duckduckgo, searxng]\nduckduckgo: {base_url: "+ddg.URL+"}\nsearxng: {base_url: "+sx.URL+"}")
	d := run(t, tl, map[string]any{"query": "qzxjvkwplmnb"})
	if d["count"] != 0 || d["backend"] != "duckduckgo" || d["fallback_from"] != nil || sx.hits.Load() != 0 {
		t.Fatalf("an empty page is an answer, not a failure: %v", d)
	}
}

// TestSearch_FallbackOnFailure: a backend answering 429, 500, a bot
// challenge, malformed HTML or nothing in time gives way to the next one,
// and the result names the one that failed and why.
func TestSearch_FallbackOnFailure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve func(w http.ResponseWriter, r *http.Request)
		want  string
	}{
		{"429", status(429), "rate limited"},
		{"500", status(500), "HTTP 500"},
		{"challenge", replay(t, "ddg_challenge.html", "text/html", 202), "bot challenge"},
		{"malformed", replay(t, "ddg_malformed.html", "text/html", 200), "no result markup"},
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		}, "did not answer in time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := newFixture(t, tc.serve)
			sx := newFixture(t, replay(t, "searxng_golang.json", "application/json", 200))
			tl := build(t, "timeout: 300ms\nbackends: [duckduckgo, searxng]\nduckduckgo: {base_url: "+bad.URL+"}\nsearxng: {base_url: "+sx.URL+"}")
			r := tooltest.OK(t, tl, map[string]any{"query": "golang generics"})
			d := r.Data.(map[string]any)
			f, _ := d["fallback_from"].([]failure)
			if d["backend"] != "searxng" || len(f) != 1 || f[0].Backend != "duckduckgo" || !strings.Contains(f[0].Error, tc.want) {
				t.Fatalf("fallback: %v", d)
			}
			if !strings.Contains(r.Summary, "after duckduckgo failed") {
				t.Errorf("summary %q", r.Summary)
			}
		})
	}
}

func TestSearch_EveryBackendFailingIsAClearError(t *testing.T) {
	a := newFixture(t, status(503))
	b := newFixture(t, status(500))
	tl := build(t, "backends: [duckduckgo, brave]\nduckduckgo: {base_url: "+a.URL+"}\nbrave: {base_url: "+b.URL+", api_key: sekret-key-123}")
	_, err := tooltest.Run(t, tl, map[string]any{"query": "x"})
	te, ok := tool.AsError(err)
	if !ok || te.Code != tool.CodeFailed || !strings.Contains(te.Message, "duckduckgo:") || !strings.Contains(te.Message, "brave:") || te.Hint == "" {
		t.Fatalf("err %v", err)
	}
	if strings.Contains(te.Error(), "sekret") {
		t.Fatal("the API key leaked into the error")
	}
}

func TestSearch_CacheAnswersRepeatsBriefly(t *testing.T) {
	ddg := newFixture(t, replay(t, "ddg_golang.html", "text/html", 200))
	tl := build(t, "duckduckgo: {base_url: "+ddg.URL+"}\ncache_ttl: 1m")
	run(t, tl, map[string]any{"query": "golang generics"})
	d := run(t, tl, map[string]any{"query": "golang generics"})
	if ddg.hits.Load() != 1 || d["cached"] != true {
		t.Fatalf("hits %d cached %v", ddg.hits.Load(), d["cached"])
	}
	run(t, tl, map[string]any{"query": "golang generics", "count": 2}) // another question
	if ddg.hits.Load() != 2 {
		t.Fatalf("a different query was answered from the cache")
	}
}

func TestSearch_RateLimitPerBackend(t *testing.T) {
	ddg := newFixture(t, replay(t, "ddg_golang.html", "text/html", 200))
	d := tooltest.Deps(t, "127.0.0.1")
	tooltest.ConfigSection(t, d, "search", "min_interval: 400ms\ncache_ttl: 0s\nduckduckgo: {base_url: "+ddg.URL+"}")
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, q := range []string{"a", "b", "c"} {
		run(t, tl, map[string]any{"query": q})
	}
	if el := time.Since(start); el < 800*time.Millisecond {
		t.Fatalf("three requests to one backend took %s; want them 400ms apart", el)
	}
}

func TestSearch_OutboundGuardRefusesUnlistedHosts(t *testing.T) {
	ddg := newFixture(t, replay(t, "ddg_golang.html", "text/html", 200))
	d := tooltest.Deps(t) // nothing allowed: 127.0.0.1 is loopback
	tooltest.ConfigSection(t, d, "search", "duckduckgo: {base_url: "+ddg.URL+"}")
	tl, _ := New(d)
	_, err := tooltest.Run(t, tl, map[string]any{"query": "x"})
	if err == nil || !strings.Contains(err.Error(), "private address") || ddg.hits.Load() != 0 {
		t.Fatalf("err %v, hits %d", err, ddg.hits.Load())
	}
}

func TestSearch_BadInputIsRefused(t *testing.T) {
	tl := build(t, "")
	for _, args := range []map[string]any{{"query": "  "}, {"query": "x", "region": "usa"}, {"query": "x", "time_range": "decade"}, {"query": "x", "count": 0}} {
		_, err := tooltest.Run(t, tl, args)
		if te, ok := tool.AsError(err); !ok || te.Code != tool.CodeInvalid || te.Field == "" {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func TestConfig_SearchSection(t *testing.T) {
	for _, bad := range []string{"backends: []", "backends: [google]", "backends: [brave, brave]", "backends: [searxng]", "timeout: 0s"} {
		d := tooltest.Deps(t)
		tooltest.ConfigSection(t, d, "search", bad)
		New(d)
		if p := d.Config.SectionProblems(); len(p) == 0 {
			t.Errorf("%q accepted", bad)
		}
	}
}
