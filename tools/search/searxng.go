package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/webapi"
)

// searxng calls an instance's /search?format=json (the instance must list
// json under search.formats in its settings.yml).
type searxng struct {
	base   string
	client *http.Client
}

func (s *searxng) name() string { return "searxng" }

type searxngBody struct {
	Results []struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"results"`
}

func (s *searxng) search(ctx context.Context, q query) ([]hit, error) {
	v := url.Values{"q": {q.Text}, "format": {"json"}, "pageno": {"1"}}
	if q.Language != "" {
		v.Set("language", q.Language)
	}
	if q.TimeRange != "" {
		v.Set("time_range", q.TimeRange)
	}
	v.Set("safesearch", strconv.Itoa(map[string]int{"off": 0, "moderate": 1, "strict": 2}[q.SafeSearch]))
	resp, err := webapi.Get(ctx, s.client, webapi.Request{Service: "SearXNG", URL: strings.TrimRight(s.base, "/") + "/search?" + v.Encode(),
		Header: http.Header{"Accept": {"application/json"}}})
	if err != nil {
		return nil, err
	}
	var b searxngBody
	if err := json.Unmarshal(resp.Body, &b); err != nil {
		return nil, toolerr.Errorf(toolerr.CodeFailed, "enable the json format in the instance's settings.yml", "SearXNG did not answer JSON: %v", err)
	}
	var hits []hit
	for _, r := range b.Results {
		hits = append(hits, hit{Title: strings.TrimSpace(r.Title), URL: r.URL, Snippet: strings.TrimSpace(r.Content), Backend: "searxng"})
		if len(hits) == q.Count {
			break
		}
	}
	return hits, nil
}
