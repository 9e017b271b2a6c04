package webfetch

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"clawbridge/browser"
	"clawbridge/fixtures/site"
	"clawbridge/internal/netguard"
	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
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
	tl, err := New(d, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return tl
}

func fetchOK(t *testing.T, tl tool.Tool, args map[string]any) map[string]any {
	t.Helper()
	res, err := tooltest.Run(t, tl, args)
	if err != nil {
		t.Fatal(err)
	}
	return res.Data.(map[string]any)
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

func TestRateLimitPerHost(t *testing.T) {
	f := newFetcher(tooltest.Deps(t), nil, Config{MinInterval: 200 * time.Millisecond})
	ctx := t.Context()
	start := time.Now()
	for i := 0; i < 3; i++ {
		if err := f.wait(ctx, "a.example"); err != nil {
			t.Fatal(err)
		}
	}
	// Three requests to one host are spaced by the interval; another host is not delayed.
	if el := time.Since(start); el < 400*time.Millisecond {
		t.Errorf("3 requests took %v; want >= 400ms", el)
	}
	other := time.Now()
	_ = f.wait(ctx, "b.example")
	if time.Since(other) > 100*time.Millisecond {
		t.Error("another host was delayed")
	}
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
