package literature

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// arxivFeed is the Atom feed of arXiv's /api/query.
type arxivFeed struct {
	Entries []struct {
		ID        string `xml:"id"`
		Published string `xml:"published"`
		Title     string `xml:"title"`
		Summary   string `xml:"summary"`
		Authors   []struct {
			Name string `xml:"name"`
		} `xml:"author"`
		DOI     string `xml:"http://arxiv.org/schemas/atom doi"`
		Journal string `xml:"http://arxiv.org/schemas/atom journal_ref"`
		Links   []struct {
			Href  string `xml:"href,attr"`
			Title string `xml:"title,attr"`
		} `xml:"link"`
	} `xml:"entry"`
	Total int `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
}

var arxivVersion = regexp.MustCompile(`v\d+$`)

func (l *lit) arxiv(ctx context.Context, v url.Values) ([]Work, int, error) {
	if err := l.limit.Wait(ctx, "arxiv", "arXiv"); err != nil {
		return nil, 0, err
	}
	r, err := webapi.Get(ctx, l.client, webapi.Request{Service: "arXiv", URL: strings.TrimRight(l.cfg.ArxivURL, "/") + "/api/query?" + v.Encode()})
	if err != nil {
		return nil, 0, err
	}
	var f arxivFeed
	if err := xml.Unmarshal(r.Body, &f); err != nil {
		return nil, 0, tool.Errorf(tool.CodeFailed, "try again later", "arXiv did not answer Atom: %v", err)
	}
	var ws []Work
	for _, e := range f.Entries {
		id := arxivVersion.ReplaceAllString(strings.TrimPrefix(strings.TrimPrefix(e.ID, "http://arxiv.org/abs/"), "https://arxiv.org/abs/"), "")
		if id == "" || strings.Contains(e.ID, "api/errors") {
			continue
		}
		w := Work{ID: "arXiv:" + id, ArxivID: id, DOI: "10.48550/arXiv." + id, Title: squash(e.Title), Abstract: squash(e.Summary),
			Type: "preprint", URL: "https://arxiv.org/abs/" + id, OpenAcc: true, Source: "arxiv"}
		if e.DOI != "" { // the published version's DOI
			w.DOI = e.DOI
		}
		if len(e.Published) >= 10 {
			w.Date = e.Published[:10]
			w.Year, _ = strconv.Atoi(e.Published[:4])
		}
		for _, a := range e.Authors {
			w.Authors = append(w.Authors, splitName(a.Name))
		}
		for _, li := range e.Links {
			if li.Title == "pdf" {
				w.PDFURL = li.Href
			}
		}
		ws = append(ws, w)
	}
	return ws, f.Total, nil
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// arxivSearch asks for every word (all:a AND all:b) and puts the year
// range into the query as a submittedDate range, so the range is not just
// a filter over the first page; the filter stays for the published date.
func (l *lit) arxivSearch(ctx context.Context, q searchQuery) ([]Work, int, error) {
	if q.Sort == "citations" {
		return nil, 0, tool.Invalid("sort", "arXiv has no citation counts", "use source openalex to sort by citations, or sort by relevance or date")
	}
	var terms []string
	for _, w := range strings.Fields(q.Text) {
		terms = append(terms, "all:"+w)
	}
	if q.From > 0 || q.To > 0 {
		from, to := q.From, q.To
		if from == 0 {
			from = 1991 // arXiv's first year
		}
		if to == 0 {
			to = 9999
		}
		terms = append(terms, fmt.Sprintf("submittedDate:[%04d01010000 TO %04d12312359]", from, to))
	}
	v := url.Values{"search_query": {strings.Join(terms, " AND ")}, "start": {"0"}, "max_results": {strconv.Itoa(q.Limit)},
		"sortBy": {"relevance"}, "sortOrder": {"descending"}}
	if q.Sort == "date" {
		v.Set("sortBy", "submittedDate")
	}
	ws, n, err := l.arxiv(ctx, v)
	return filterYears(ws, q), n, err
}

func filterYears(ws []Work, q searchQuery) []Work {
	out := ws[:0:0]
	for _, w := range ws {
		if (q.From == 0 || w.Year >= q.From) && (q.To == 0 || w.Year <= q.To) {
			out = append(out, w)
		}
	}
	return out
}
