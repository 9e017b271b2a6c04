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

// brave calls the Brave Search API's /res/v1/web/search with the key in
// X-Subscription-Token.
type brave struct {
	base, key string
	client    *http.Client
}

func (b *brave) name() string { return "brave" }

type braveBody struct {
	Web struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

func (b *brave) search(ctx context.Context, q query) ([]hit, error) {
	if b.key == "" {
		return nil, toolerr.Errorf(toolerr.CodeUnavailable, "set tools.search.brave.api_key or the variable named by api_key_env", "Brave Search needs an API key")
	}
	v := url.Values{"q": {q.Text}, "count": {strconv.Itoa(min(q.Count, 20))}, "safesearch": {q.SafeSearch}}
	if q.Language != "" {
		v.Set("search_lang", strings.ToLower(strings.SplitN(q.Language, "-", 2)[0]))
	}
	if q.Region != "" {
		v.Set("country", strings.ToLower(q.Region))
	}
	if q.TimeRange != "" {
		v.Set("freshness", "p"+q.TimeRange[:1]) // pd, pw, pm, py
	}
	resp, err := webapi.Get(ctx, b.client, webapi.Request{Service: "Brave Search", URL: strings.TrimRight(b.base, "/") + "/res/v1/web/search?" + v.Encode(),
		Header: http.Header{"Accept": {"application/json"}, "X-Subscription-Token": {b.key}}})
	if err != nil {
		return nil, err
	}
	var body braveBody
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return nil, toolerr.Errorf(toolerr.CodeFailed, "try another backend", "Brave Search did not answer JSON: %v", err)
	}
	var hits []hit
	for _, r := range body.Web.Results {
		hits = append(hits, hit{Title: stripTags(r.Title), URL: r.URL, Snippet: stripTags(r.Description), Backend: "brave"})
	}
	return hits, nil
}
