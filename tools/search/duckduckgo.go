package search

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/clawbridge/clawbridge/internal/htmlmd"
	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/webapi"
)

// duckduckgo reads the result markup of html.duckduckgo.com/html/, the
// endpoint DuckDuckGo serves to browsers without JavaScript.
type duckduckgo struct {
	base, userAgent string
	client          *http.Client
}

func (d *duckduckgo) name() string { return "duckduckgo" }

func (d *duckduckgo) search(ctx context.Context, q query) ([]hit, error) {
	v := url.Values{"q": {q.Text}}
	kl := "wt-wt" // no region
	if q.Region != "" {
		lang := strings.ToLower(strings.SplitN(q.Language, "-", 2)[0])
		if lang == "" {
			lang = "en"
		}
		kl = strings.ToLower(q.Region) + "-" + lang
	}
	v.Set("kl", kl)
	if q.TimeRange != "" {
		v.Set("df", q.TimeRange[:1]) // d, w, m, y
	}
	v.Set("kp", map[string]string{"strict": "1", "moderate": "-1", "off": "-2"}[q.SafeSearch])
	resp, err := webapi.Get(ctx, d.client, webapi.Request{Service: "DuckDuckGo", URL: strings.TrimRight(d.base, "/") + "/html/?" + v.Encode(),
		Header: http.Header{"User-Agent": {d.userAgent}, "Accept": {"text/html"}, "Accept-Language": {"en,zh-CN;q=0.8"}}})
	if err != nil {
		return nil, err
	}
	// DuckDuckGo answers a client it throttles with 202 and a challenge page.
	if resp.Status == http.StatusAccepted || bytes.Contains(resp.Body, []byte("anomaly-modal")) {
		return nil, toolerr.Errorf(toolerr.CodeUnavailable, "DuckDuckGo is throttling this server; configure another backend or wait", "DuckDuckGo answered with a bot challenge instead of results")
	}
	return parseDuckDuckGo(resp.Body, q.Count)
}

// parseDuckDuckGo takes the organic results (div.result, not .result--ad)
// with their a.result__a title link and a.result__snippet text. A page with
// neither results nor the "no results" marker is malformed.
func parseDuckDuckGo(body []byte, count int) ([]hit, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, toolerr.Errorf(toolerr.CodeFailed, "try another backend", "DuckDuckGo page did not parse: %v", err)
	}
	var hits []hit
	noResults := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			cls := classes(n)
			if cls["no-results"] {
				noResults = true
			}
			if n.Data == "div" && cls["result"] && !cls["result--ad"] {
				if h, ok := ddgResult(n); ok {
					hits = append(hits, h)
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(hits) == 0 && !noResults && !bytes.Contains(body, []byte("result__")) {
		return nil, toolerr.Errorf(toolerr.CodeFailed, "DuckDuckGo may have changed its page; try another backend", "DuckDuckGo page has no result markup")
	}
	if len(hits) > count {
		hits = hits[:count]
	}
	return hits, nil
}

func ddgResult(n *html.Node) (hit, bool) {
	h := hit{Backend: "duckduckgo"}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			cls := classes(n)
			switch {
			case cls["result__a"] && h.URL == "":
				h.URL, h.Title = ddgTarget(attr(n, "href")), text(n)
			case cls["result__snippet"] && h.Snippet == "":
				h.Snippet = text(n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return h, h.URL != "" && h.Title != ""
}

// ddgTarget unwraps DuckDuckGo's redirect links (//duckduckgo.com/l/?uddg=...).
func ddgTarget(href string) string {
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if strings.HasSuffix(u.Hostname(), "duckduckgo.com") && u.Path == "/l/" {
		if t := u.Query().Get("uddg"); t != "" {
			return t
		}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	return u.String()
}

func classes(n *html.Node) map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(attr(n, "class")) {
		m[c] = true
	}
	return m
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// text is what n says, its white space folded.
func text(n *html.Node) string {
	return strings.Join(strings.Fields(htmlmd.Text(n)), " ")
}

// stripTags turns an HTML fragment (Brave's <strong> highlights) into text.
func stripTags(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	n, err := html.Parse(strings.NewReader("<body>" + s))
	if err != nil {
		return s
	}
	return text(n)
}
