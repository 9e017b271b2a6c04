package webfetch

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/fixtures/site"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

var mgr *browser.Manager

func TestMain(m *testing.M) {
	g, _ := netguard.New([]string{"127.0.0.1"})
	cfg := browser.DefaultConfig()
	cfg.IdleTimeout = 0
	mgr = browser.New(cfg, g, zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
	code := m.Run()
	mgr.Close()
	os.Exit(code)
}

func newTool(t *testing.T, withBrowser bool) tool.Tool {
	d := tooltest.Deps(t, "127.0.0.1")
	var m *browser.Manager
	if withBrowser {
		tooltest.NeedProgram(t, "chromium")
		m = mgr
	}
	// Tests fetch one local host many times; the per-host interval is tested separately.
	d.Config.Tools = nil
	d.Browser = m
	return tooltest.Build(t, New, d)
}

func fetchOK(t *testing.T, tl tool.Tool, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.OK(t, tl, args).Data.(map[string]any)
}

func TestFetch(t *testing.T) {
	srv := site.Start(t)
	tl := newTool(t, false)
	cases := []struct {
		name, path string
		want       []string
		not        []string
		check      func(t *testing.T, d map[string]any)
	}{
		{name: "article", path: "/article.html", want: []string{"# Growing tomatoes on a balcony", "## Watering", "six hours of direct sun"}, not: []string{"Copyright 2026"}},
		{name: "gbk meta", path: "/gbk.html", want: []string{"北京的秋天", "香山的红叶"}, check: func(t *testing.T, d map[string]any) {
			if (d["charset"] != "gbk" && d["charset"] != "gb18030") || d["title"] != "中文测试页面" {
				t.Errorf("charset %v title %v", d["charset"], d["title"])
			}
		}},
		{name: "gbk sniffed", path: "/gbk-nometa.html", want: []string{"北京的秋天", "糖炒栗子"}, check: func(t *testing.T, d map[string]any) {
			if !strings.HasPrefix(d["charset"].(string), "gb") {
				t.Errorf("charset %v", d["charset"])
			}
		}},
		{name: "redirect chain", path: "/redirect", want: []string{"Growing tomatoes"}, check: func(t *testing.T, d map[string]any) {
			if !strings.HasSuffix(d["final_url"].(string), "/article.html") || len(d["redirects"].([]string)) != 2 {
				t.Errorf("final %v redirects %v", d["final_url"], d["redirects"])
			}
		}},
		{name: "table", path: "/table.html", want: []string{"| Fruit  | Price | Stock |", "| Cherry | 4.00  | 8     |"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := fetchOK(t, tl, map[string]any{"url": srv.At(tc.path)})
			md := d["markdown"].(string)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(md, w) {
					t.Errorf("markdown has boilerplate %q", w)
				}
			}
			if d["truncated"] != false || d["rendered"] != false {
				t.Errorf("truncated %v rendered %v", d["truncated"], d["rendered"])
			}
			if tc.check != nil {
				tc.check(t, d)
			}
		})
	}
}

func TestTruncateOnParagraph(t *testing.T) {
	srv := site.Start(t)
	tl := newTool(t, false)
	d := fetchOK(t, tl, map[string]any{"url": srv.At("/long.html"), "max_chars": 5000})
	md := d["markdown"].(string)
	if d["truncated"] != true || len([]rune(md)) > 5000 || d["total_chars"].(int) < 200000 {
		t.Fatalf("truncated %v chars %d total %v", d["truncated"], len(md), d["total_chars"])
	}
	if !strings.HasSuffix(md, " ") && !strings.HasPrefix(md[strings.LastIndex(md, "\n\n")+2:], "Paragraph") {
		t.Errorf("cut mid-paragraph: ...%q", md[len(md)-80:])
	}
	if s, tr := cut("one two\n\nthree four five", 12); s != "one two" || !tr {
		t.Errorf("cut: %q %v", s, tr)
	}
}

func TestRobotsAndGuard(t *testing.T) {
	srv := site.Start(t)
	tl := newTool(t, false)
	for i := 0; i < 2; i++ {
		_, err := tooltest.Run(t, tl, map[string]any{"url": srv.At("/private/secret.html")})
		if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied || !strings.Contains(e.Message, "robots.txt") {
			t.Fatalf("robots: %v", err)
		}
	}
	// A redirect into a disallowed path is refused before it is followed.
	_, err := tooltest.Run(t, tl, map[string]any{"url": srv.At("/redirect-disallowed")})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied || !strings.Contains(e.Message, "robots.txt") {
		t.Fatalf("robots on redirect: %v", err)
	}
	fetchOK(t, tl, map[string]any{"url": srv.At("/table.html")})
	if n := srv.Hits("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1 (cached)", n)
	}
	if srv.Hits("/private/secret.html") != 0 {
		t.Error("disallowed page was requested")
	}
	for _, u := range []string{srv.At("/redirect-private"), "http://10.1.1.1/", "http://localhost/"} {
		_, err := tooltest.Run(t, tl, map[string]any{"url": u})
		if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied {
			t.Errorf("%s: want denied, got %v", u, err)
		}
	}
	rules := parseRobots(strings.NewReader("User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /a/\nAllow: /a/ok$\nDisallow: /*.pdf$\n"), "clawbridge")
	rr := &robotsRules{rules: rules}
	for path, want := range map[string]bool{"/": true, "/a/x": false, "/a/ok": true, "/a/ok2": false, "/doc.pdf": false, "/doc.pdf?x": true} {
		if rr.allowed(path) != want {
			t.Errorf("robots %s: want %v", path, want)
		}
	}
}

// TestRateLimitPerHost runs in a synctest bubble: time is the bubble's fake
// clock, so the spacing is checked exactly and cannot flake on a loaded
// machine (-race, 2 cores).
func TestRateLimitPerHost(t *testing.T) {
	d := tooltest.Deps(t)
	synctest.Test(t, func(t *testing.T) {
		f := newFetcher(d, nil, Config{MinInterval: 200 * time.Millisecond})
		ctx := t.Context()
		start := time.Now()
		// Three requests to one host, one after the other, go at 0, 200ms
		// and 400ms; another host in between is not delayed.
		for i, want := range []time.Duration{0, 200 * time.Millisecond, 400 * time.Millisecond} {
			if err := f.wait(ctx, "a.example"); err != nil {
				t.Fatal(err)
			}
			if got := time.Since(start); got != want {
				t.Errorf("request %d to a.example went at %v, want %v", i+1, got, want)
			}
		}
		before := time.Now()
		if err := f.wait(ctx, "b.example"); err != nil || time.Since(before) != 0 {
			t.Errorf("another host was delayed by %v (%v)", time.Since(before), err)
		}

		// Concurrent callers for one host are spaced too, none at once.
		start = time.Now()
		var mu sync.Mutex
		var at []time.Duration
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if err := f.wait(ctx, "c.example"); err != nil {
					t.Error(err)
				}
				mu.Lock()
				at = append(at, time.Since(start))
				mu.Unlock()
			})
		}
		wg.Wait()
		slices.Sort(at)
		if want := []time.Duration{0, 200 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond}; !slices.Equal(at, want) {
			t.Errorf("concurrent requests went at %v, want %v", at, want)
		}

		// A caller whose context ends while it waits returns at once.
		cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		before = time.Now()
		if err := f.wait(cctx, "c.example"); !errors.Is(err, context.DeadlineExceeded) || time.Since(before) != 50*time.Millisecond {
			t.Errorf("cancelled wait: %v after %v, want the deadline after 50ms", err, time.Since(before))
		}
	})
}

func TestBrowserFallback(t *testing.T) {
	srv := site.Start(t)
	tl := newTool(t, true)
	d := fetchOK(t, tl, map[string]any{"url": srv.At("/script.html")})
	md := d["markdown"].(string)
	if d["rendered"] != true || !strings.Contains(md, "lighthouse keeper") || d["title"] != "Rendered by script" {
		t.Fatalf("fallback: rendered=%v title=%v err=%v\n%s", d["rendered"], d["title"], d["render_error"], md)
	}
	if d["fallback_reason"] == nil {
		t.Error("no fallback_reason")
	}
}
