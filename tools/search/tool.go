// Package search is the `search` tool: web search through the backends the
// config lists (DuckDuckGo's HTML endpoint by default, a SearXNG instance's
// JSON API, the Brave Search API), tried in order, a failing one falling
// back to the next. Results are title, URL, snippet and backend,
// deduplicated by normalised URL, cached briefly; each backend gets at most
// one request per min_interval. It does not fetch the result pages (that is
// web_fetch) and does not rank across backends.
package search

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type searcher struct {
	backends []backend
	cache    *webapi.Cache[[]hit]
	limit    *webapi.Limiter
}

// New builds the search tool from the tools.search section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "search", Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	s := newSearcher(d, cfg)
	return tool.Tool{
		Name:  "search",
		Title: "Web search",
		Description: "Web search: title, URL and snippet per result. " +
			"Use web_fetch to read a result page.",
		Actions: []tool.Action{{
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
			Params: []tool.Param{
				{Name: "query", Type: tool.String, Description: "What to search for.", Required: true},
				{Name: "count", Type: tool.Integer, Default: 10, Min: tool.Ptr(1), Max: tool.Ptr(30)},
				{Name: "language", Type: tool.String, Description: "e.g. en or zh-CN."},
				{Name: "region", Type: tool.String, Description: "Country code, e.g. us or cn."},
				{Name: "time_range", Type: tool.String, Enum: []string{"day", "week", "month", "year"}},
				{Name: "safe_search", Type: tool.String, Enum: []string{"off", "moderate", "strict"}, Default: "moderate"},
			},
			Handler: s.handle,
		}},
		OpenWorld: true,
		Examples: []string{
			"search online for how to install postgres on debian",
			"look up the population of Tokyo on the internet",
			"google the latest news about electric cars",
			"find websites about rust async tutorials",
			"上网搜索一下最新的手机评测",
			"百度一下这个错误信息",
			"在网上查找相关资料",
			"搜一下今天的新闻",
		},
	}, nil
}

func newSearcher(d *tool.Deps, cfg Config) *searcher {
	client := d.HTTPClient(cfg.Timeout)
	s := &searcher{cache: webapi.NewCache[[]hit](cfg.CacheTTL, 256), limit: webapi.NewLimiter(cfg.MinInterval, 0)}
	key := cfg.Brave.APIKey
	if key == "" && cfg.Brave.APIKeyEnv != "" {
		key = os.Getenv(cfg.Brave.APIKeyEnv)
	}
	for _, b := range cfg.Backends {
		switch b {
		case "duckduckgo":
			s.backends = append(s.backends, &duckduckgo{base: cfg.DuckDuckGo.BaseURL, userAgent: cfg.UserAgent, client: client})
		case "searxng":
			s.backends = append(s.backends, &searxng{base: cfg.SearXNG.BaseURL, client: client})
		case "brave":
			s.backends = append(s.backends, &brave{base: cfg.Brave.BaseURL, key: key, client: client})
		}
	}
	return s
}

// failure is a backend that did not answer, as the result reports it.
type failure struct {
	Backend string `json:"backend"`
	Error   string `json:"error"`
}

func (s *searcher) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	q := query{
		Text: strings.TrimSpace(c.Args.String("query")), Count: c.Args.Int("count", 10),
		Language: c.Args.String("language"), Region: c.Args.String("region"),
		TimeRange: c.Args.String("time_range"), SafeSearch: c.Args.StringOr("safe_search", "moderate"),
	}
	if q.Text == "" {
		return nil, tool.Invalid("query", "query is empty", "say what to search for")
	}
	if q.Region != "" && (len(q.Region) != 2 || strings.Trim(strings.ToLower(q.Region), "abcdefghijklmnopqrstuvwxyz") != "") {
		return nil, tool.Invalid("region", fmt.Sprintf("region %q is not a two-letter country code", q.Region), "for example us, gb, cn")
	}
	var failed []failure
	for _, b := range s.backends {
		key := fmt.Sprintf("%s\x00%+v", b.name(), q)
		hits, cached := s.cache.Get(key)
		if !cached {
			if err := s.limit.Wait(ctx, b.name(), b.name()); err != nil {
				failed = append(failed, failure{b.name(), err.Error()})
				continue
			}
			var err error
			hits, err = b.search(ctx, q)
			if err != nil {
				failed = append(failed, failure{b.name(), err.Error()})
				if ctx.Err() != nil {
					break
				}
				continue
			}
			hits = dedupe(hits)
			s.cache.Put(key, hits)
		}
		data := map[string]any{"query": q.Text, "backend": b.name(), "results": hits, "count": len(hits), "cached": cached}
		sum := fmt.Sprintf("%s for %q from %s", wording.Count(len(hits), "result", "results"), q.Text, b.name())
		if len(failed) > 0 {
			data["fallback_from"] = failed
			sum += fmt.Sprintf(" (after %s failed)", names(failed))
		}
		return &tool.Result{Summary: sum + ".", Data: data}, nil
	}
	msg := make([]string, len(failed))
	for i, f := range failed {
		msg[i] = f.Backend + ": " + f.Error
	}
	code := tool.CodeFailed
	if ctx.Err() != nil {
		code = tool.CodeTimeout
	}
	return nil, tool.Errorf(code, "try again later, or configure another backend under tools.search.backends", "every search backend failed: %s", strings.Join(msg, "; "))
}

func names(f []failure) string {
	n := make([]string, len(f))
	for i, x := range f {
		n[i] = x.Backend
	}
	return strings.Join(n, ", ")
}
