package literature

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type oaWork struct {
	ID              string `json:"id"`
	DOI             string `json:"doi"`
	Title           string `json:"title"`
	DisplayName     string `json:"display_name"`
	PublicationYear int    `json:"publication_year"`
	PublicationDate string `json:"publication_date"`
	Type            string `json:"type"`
	TypeCrossref    string `json:"type_crossref"`
	Language        string `json:"language"`
	Authorships     []struct {
		Author struct {
			DisplayName string `json:"display_name"`
		} `json:"author"`
		RawAuthorName string `json:"raw_author_name"`
	} `json:"authorships"`
	PrimaryLocation struct {
		LandingPageURL string `json:"landing_page_url"`
		PDFURL         string `json:"pdf_url"`
		Source         *struct {
			DisplayName          string `json:"display_name"`
			Type                 string `json:"type"`
			HostOrganizationName string `json:"host_organization_name"`
		} `json:"source"`
	} `json:"primary_location"`
	Biblio struct {
		Volume    string `json:"volume"`
		Issue     string `json:"issue"`
		FirstPage string `json:"first_page"`
		LastPage  string `json:"last_page"`
	} `json:"biblio"`
	OpenAccess struct {
		IsOA  bool   `json:"is_oa"`
		OAURL string `json:"oa_url"`
	} `json:"open_access"`
	CitedByCount          int              `json:"cited_by_count"`
	AbstractInvertedIndex map[string][]int `json:"abstract_inverted_index"`
	RelatedWorks          []string         `json:"related_works"`
	IDs                   map[string]any   `json:"ids"`
}

// abstractFromIndex rebuilds the text OpenAlex ships as an inverted index
// (word -> positions).
func abstractFromIndex(idx map[string][]int) string {
	n := 0
	for _, ps := range idx {
		for _, p := range ps {
			n = max(n, p+1)
		}
	}
	if n == 0 || n > 100000 {
		return ""
	}
	words := make([]string, n)
	for w, ps := range idx {
		for _, p := range ps {
			if p >= 0 {
				words[p] = w
			}
		}
	}
	var b strings.Builder
	prev := ""
	for _, w := range words {
		if w == "" {
			continue
		}
		// Han text has no spaces between words: none is put back.
		if prev != "" && !(endsHan(prev) && startsHan(w)) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		prev = w
	}
	return b.String()
}

func startsHan(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isHanOrCJKPunct(r)
}

func endsHan(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isHanOrCJKPunct(r)
}

func isHanOrCJKPunct(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}

func (o oaWork) work() Work {
	w := Work{ID: strings.TrimPrefix(o.ID, "https://openalex.org/"), DOI: strings.TrimPrefix(strings.ToLower(o.DOI), "https://doi.org/"),
		Title: firstNonEmpty(o.Title, o.DisplayName), Year: o.PublicationYear, Date: o.PublicationDate, Language: o.Language,
		Volume: o.Biblio.Volume, Issue: o.Biblio.Issue, URL: o.PrimaryLocation.LandingPageURL, PDFURL: firstNonEmpty(o.PrimaryLocation.PDFURL, o.OpenAccess.OAURL),
		OpenAcc: o.OpenAccess.IsOA, Cited: o.CitedByCount, Abstract: abstractFromIndex(o.AbstractInvertedIndex), Source: "openalex"}
	for _, r := range o.RelatedWorks {
		w.Related = append(w.Related, strings.TrimPrefix(r, "https://openalex.org/"))
	}
	for _, a := range o.Authorships {
		w.Authors = append(w.Authors, splitName(firstNonEmpty(a.Author.DisplayName, a.RawAuthorName)))
	}
	if o.Biblio.FirstPage != "" {
		w.Pages = o.Biblio.FirstPage
		if o.Biblio.LastPage != "" && o.Biblio.LastPage != o.Biblio.FirstPage {
			w.Pages += "-" + o.Biblio.LastPage
		}
	}
	if s := o.PrimaryLocation.Source; s != nil {
		w.Venue, w.Publisher = s.DisplayName, s.HostOrganizationName
	}
	if strings.HasPrefix(w.DOI, "10.48550/arxiv.") {
		w.ArxivID = w.DOI[len("10.48550/arxiv."):]
		w.DOI = "10.48550/arXiv." + w.ArxivID
	}
	venueType := ""
	if s := o.PrimaryLocation.Source; s != nil {
		venueType = s.Type
	}
	w.Type = oaType(o.Type, o.TypeCrossref, venueType, w.Venue)
	return w
}

// oaType maps OpenAlex's type to ours. OpenAlex calls a conference paper
// an "article"; its Crossref type, its source's type or the venue's name
// tells the two apart.
func oaType(t, crossref, venueType, venue string) string {
	switch t {
	case "article":
		v := strings.ToLower(venue)
		if crossref == "proceedings-article" || venueType == "conference" || strings.Contains(v, "proceedings") || strings.Contains(v, "conference") {
			return "conference"
		}
		return "article"
	case "preprint", "posted-content":
		return "preprint"
	case "book-chapter":
		return "chapter"
	case "book":
		return "book"
	}
	return "other"
}

type openAlex struct {
	l *lit
}

func (o openAlex) get(ctx context.Context, path string, v url.Values) ([]byte, error) {
	if o.l.cfg.Mailto != "" {
		v.Set("mailto", o.l.cfg.Mailto) // OpenAlex's polite pool
	}
	u := strings.TrimRight(o.l.cfg.OpenAlexURL, "/") + path
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	if err := o.l.limit.Wait(ctx, "openalex", "OpenAlex"); err != nil {
		return nil, err
	}
	r, err := webapi.Get(ctx, o.l.client, webapi.Request{Service: "OpenAlex", URL: u})
	if err != nil {
		return nil, err
	}
	return r.Body, nil
}

func (o openAlex) search(ctx context.Context, q searchQuery) ([]Work, int, error) {
	v := url.Values{"search": {q.Text}, "per_page": {strconv.Itoa(q.Limit)}}
	var f []string
	if q.From > 0 {
		f = append(f, "from_publication_date:"+strconv.Itoa(q.From)+"-01-01")
	}
	if q.To > 0 {
		f = append(f, "to_publication_date:"+strconv.Itoa(q.To)+"-12-31")
	}
	if q.OpenAccess {
		f = append(f, "is_oa:true")
	}
	if len(f) > 0 {
		v.Set("filter", strings.Join(f, ","))
	}
	switch q.Sort {
	case "citations":
		v.Set("sort", "cited_by_count:desc")
	case "date":
		v.Set("sort", "publication_date:desc")
	}
	return o.list(ctx, v)
}

func (o openAlex) list(ctx context.Context, v url.Values) ([]Work, int, error) {
	body, err := o.get(ctx, "/works", v)
	if err != nil {
		return nil, 0, err
	}
	var b struct {
		Meta struct {
			Count int `json:"count"`
		} `json:"meta"`
		Results []oaWork `json:"results"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, 0, tool.Errorf(tool.CodeFailed, "try again later", "OpenAlex did not answer JSON: %v", err)
	}
	ws := make([]Work, len(b.Results))
	for i, r := range b.Results {
		ws[i] = r.work()
	}
	return ws, b.Meta.Count, nil
}

// getWork finds one work by OpenAlex id, DOI or arXiv id (arXiv's DOI).
func (o openAlex) getWork(ctx context.Context, id ident) (Work, error) {
	var path string
	switch id.kind {
	case "openalex":
		path = "/works/" + id.value
	case "doi":
		path = "/works/doi:" + id.value
	case "arxiv":
		path = "/works/doi:10.48550/arXiv." + id.value
	}
	body, err := o.get(ctx, path, url.Values{})
	if err != nil {
		return Work{}, err
	}
	var w oaWork
	if err := json.Unmarshal(body, &w); err != nil || w.ID == "" {
		return Work{}, tool.Errorf(tool.CodeFailed, "try again later", "OpenAlex answered no work")
	}
	return w.work(), nil
}

// related lists the works OpenAlex relates to w (its related_works).
func (o openAlex) related(ctx context.Context, w Work, limit int) ([]Work, error) {
	ids := w.Related
	if len(ids) > limit {
		ids = ids[:limit]
	}
	if len(ids) == 0 {
		return nil, nil
	}
	ws, _, err := o.list(ctx, url.Values{"filter": {"ids.openalex:" + strings.Join(ids, "|")}, "per_page": {strconv.Itoa(len(ids))}})
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Cited > ws[j].Cited })
	return ws, err
}
