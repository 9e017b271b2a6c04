package literature

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type crItem struct {
	DOI            string   `json:"DOI"`
	Title          []string `json:"title"`
	ContainerTitle []string `json:"container-title"`
	Author         []struct {
		Given  string `json:"given"`
		Family string `json:"family"`
		Name   string `json:"name"`
	} `json:"author"`
	Issued struct {
		DateParts [][]int `json:"date-parts"`
	} `json:"issued"`
	Volume    string `json:"volume"`
	Issue     string `json:"issue"`
	Page      string `json:"page"`
	Type      string `json:"type"`
	Publisher string `json:"publisher"`
	Abstract  string `json:"abstract"`
	Cited     int    `json:"is-referenced-by-count"`
	URL       string `json:"URL"`
	Language  string `json:"language"`
}

var jatsTag = regexp.MustCompile(`<[^>]+>`)

func (c crItem) work() Work {
	w := Work{ID: c.DOI, DOI: strings.ToLower(c.DOI), Volume: c.Volume, Issue: c.Issue, Pages: c.Page, Publisher: c.Publisher,
		Cited: c.Cited, URL: c.URL, Language: c.Language, Source: "crossref", Abstract: squash(jatsTag.ReplaceAllString(c.Abstract, " "))}
	if len(c.Title) > 0 {
		w.Title = squash(c.Title[0])
	}
	if len(c.ContainerTitle) > 0 {
		w.Venue = c.ContainerTitle[0]
	}
	if len(c.Issued.DateParts) > 0 && len(c.Issued.DateParts[0]) > 0 {
		p := c.Issued.DateParts[0]
		w.Year = p[0]
		if len(p) == 3 {
			w.Date = strconv.Itoa(p[0]) + "-" + pad(p[1]) + "-" + pad(p[2])
		}
	}
	for _, a := range c.Author {
		if a.Name != "" {
			w.Authors = append(w.Authors, splitName(a.Name))
		} else {
			w.Authors = append(w.Authors, fromParts(a.Given, a.Family))
		}
	}
	w.Type = map[string]string{"journal-article": "article", "proceedings-article": "conference", "book-chapter": "chapter",
		"book": "book", "monograph": "book", "posted-content": "preprint"}[c.Type]
	if w.Type == "" {
		w.Type = "other"
	}
	return w
}

func pad(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func (l *lit) crossref(ctx context.Context, path string, v url.Values) ([]byte, error) {
	if l.cfg.Mailto != "" {
		v.Set("mailto", l.cfg.Mailto)
	}
	if err := l.limit.Wait(ctx, "crossref", "Crossref"); err != nil {
		return nil, err
	}
	u := strings.TrimRight(l.cfg.CrossrefURL, "/") + path
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	r, err := webapi.Get(ctx, l.client, webapi.Request{Service: "Crossref", URL: u})
	if err != nil {
		return nil, err
	}
	return r.Body, nil
}

func (l *lit) crossrefSearch(ctx context.Context, q searchQuery) ([]Work, int, error) {
	v := url.Values{"query": {q.Text}, "rows": {strconv.Itoa(q.Limit)}}
	var f []string
	if q.From > 0 {
		f = append(f, "from-pub-date:"+strconv.Itoa(q.From))
	}
	if q.To > 0 {
		f = append(f, "until-pub-date:"+strconv.Itoa(q.To))
	}
	if len(f) > 0 {
		v.Set("filter", strings.Join(f, ","))
	}
	switch q.Sort {
	case "citations":
		v.Set("sort", "is-referenced-by-count")
		v.Set("order", "desc")
	case "date":
		v.Set("sort", "published")
		v.Set("order", "desc")
	}
	body, err := l.crossref(ctx, "/works", v)
	if err != nil {
		return nil, 0, err
	}
	var b struct {
		Message struct {
			Total int      `json:"total-results"`
			Items []crItem `json:"items"`
		} `json:"message"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, 0, tool.Errorf(tool.CodeFailed, "try again later", "Crossref did not answer JSON: %v", err)
	}
	ws := make([]Work, len(b.Message.Items))
	for i, it := range b.Message.Items {
		ws[i] = it.work()
	}
	return ws, b.Message.Total, nil
}

func (l *lit) crossrefGet(ctx context.Context, doi string) (Work, error) {
	body, err := l.crossref(ctx, "/works/"+url.PathEscape(doi), url.Values{})
	if err != nil {
		return Work{}, err
	}
	var b struct {
		Message crItem `json:"message"`
	}
	if err := json.Unmarshal(body, &b); err != nil || b.Message.DOI == "" {
		return Work{}, tool.Errorf(tool.CodeFailed, "try again later", "Crossref answered no work")
	}
	return b.Message.work(), nil
}
