package knowledge

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Hit is one passage found, with its citation.
type Hit struct {
	Rank     int     `json:"rank"`
	Index    string  `json:"index"`
	Path     string  `json:"path"`
	Ord      int     `json:"ord"` // the passage's position in its file, for get
	Page     int     `json:"page,omitempty"`
	Heading  string  `json:"heading,omitempty"`
	Start    int     `json:"start"` // character offsets in the file's extracted text
	End      int     `json:"end"`
	Score    float64 `json:"score"`
	Snippet  string  `json:"snippet"` // matched terms in **bold**
	Citation string  `json:"citation"`
	abs      string
	text     string
}

// searchRequest is one query over some indexes.
type searchRequest struct {
	Query        string
	Limit        int
	Glob         string // file filter; "" for all
	SnippetChars int
	Rel          func(abs string) string
}

// searchIndexes runs q over the opened indexes ks (BM25 over words and CJK
// bigrams, the heading path counting as much as the text: a page's title and
// headings say what it is about) and
// returns the best hits with snippets. The caller holds each k.mu for
// reading.
func searchIndexes(ctx context.Context, ks []*kbIndex, r searchRequest) ([]Hit, int, error) {
	text := bleve.NewMatchQuery(r.Query)
	text.SetField("text")
	heading := bleve.NewMatchQuery(r.Query)
	heading.SetField("heading")
	var q query.Query = bleve.NewDisjunctionQuery(text, heading)
	if r.Glob != "" {
		match, err := globMatcher(r.Glob)
		if err != nil {
			return nil, 0, fmt.Errorf("%w: %v", errGlob, err)
		}
		var files []query.Query
		all := true
		for _, k := range ks {
			for abs := range k.man.Files {
				if match(r.Rel(abs)) {
					t := bleve.NewTermQuery(abs)
					t.SetField("file")
					files = append(files, t)
				} else {
					all = false
				}
			}
		}
		if len(files) == 0 {
			return nil, 0, nil
		}
		if !all {
			q = bleve.NewConjunctionQuery(q, bleve.NewDisjunctionQuery(files...))
		}
	}
	var target bleve.Index
	if len(ks) == 1 {
		target = ks[0].idx
	} else {
		alias := bleve.NewIndexAlias()
		for _, k := range ks {
			alias.Add(k.idx)
		}
		target = alias
	}
	req := bleve.NewSearchRequestOptions(q, r.Limit, 0, false)
	req.Fields = []string{"*"}
	req.IncludeLocations = true
	res, err := target.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	hits := make([]Hit, 0, len(res.Hits))
	for i, h := range res.Hits {
		hit := hitOf(h, r.Rel)
		hit.Rank = i + 1
		hit.Snippet = snippet(hit.text, h.Locations["text"], r.SnippetChars)
		hits = append(hits, hit)
	}
	return hits, int(res.Total), nil
}

// hitOf reads a bleve hit's stored fields.
func hitOf(h *search.DocumentMatch, rel func(string) string) Hit {
	str := func(f string) string { s, _ := h.Fields[f].(string); return s }
	num := func(f string) int { v, _ := h.Fields[f].(float64); return int(v) }
	hit := Hit{Index: h.Index, abs: str("file"), Ord: num("ord"), Page: num("page"), Heading: str("heading"),
		Start: num("start"), End: num("end"), Score: h.Score, text: str("text")}
	hit.Path = rel(hit.abs)
	hit.Citation = citation(hit)
	return hit
}

// citation is how a passage is cited: file, then page or heading, then the
// character range.
func citation(h Hit) string {
	var b strings.Builder
	b.WriteString(h.Path)
	if h.Page > 0 {
		fmt.Fprintf(&b, ", p. %d", h.Page)
	}
	if h.Heading != "" {
		fmt.Fprintf(&b, ", § %s", h.Heading)
	}
	fmt.Fprintf(&b, ", chars %d-%d", h.Start, h.End)
	return b.String()
}

// snippet cuts about width runes of text around the densest run of matched
// terms and marks the matches with ** (overlapping CJK bigrams merge into
// one mark). Locations are byte offsets into text.
func snippet(text string, locs search.TermLocationMap, width int) string {
	type span struct{ s, e int } // rune offsets
	var spans []span
	for _, ls := range locs {
		for _, l := range ls {
			if int(l.End) <= len(text) && l.Start < l.End {
				spans = append(spans, span{runeAt(text, int(l.Start)), runeAt(text, int(l.End))})
			}
		}
	}
	runes := []rune(text)
	slices.SortFunc(spans, func(a, b span) int { return a.s - b.s })
	var merged []span
	for _, s := range spans {
		if len(merged) > 0 && s.s <= merged[len(merged)-1].e {
			merged[len(merged)-1].e = max(merged[len(merged)-1].e, s.e)
			continue
		}
		merged = append(merged, s)
	}
	// The window starting at the match that covers the most matches.
	from := 0
	if len(merged) > 0 {
		best, bestN := 0, 0
		for i := range merged {
			c := 0
			for j := i; j < len(merged) && merged[j].e-merged[i].s <= width; j++ {
				c++
			}
			if c > bestN {
				best, bestN = i, c
			}
		}
		from = max(merged[best].s-width/5, 0)
	}
	to := min(from+width, len(runes))
	if to-from < width {
		from = max(to-width, 0)
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := from
	for _, m := range merged {
		if m.e <= from || m.s >= to {
			continue
		}
		s, e := max(m.s, from), min(m.e, to)
		b.WriteString(flat(runes[pos:s]))
		b.WriteString("**" + flat(runes[s:e]) + "**")
		pos = e
	}
	b.WriteString(flat(runes[pos:to]))
	if to < len(runes) {
		b.WriteString("…")
	}
	return strings.TrimSpace(b.String())
}

// runeAt converts a byte offset in text to a rune offset.
func runeAt(text string, b int) int { return utf8.RuneCountInString(text[:min(b, len(text))]) }

var spaceRun = regexp.MustCompile(`\s+`)

// flat folds runs of white space (newlines included) into one space.
func flat(r []rune) string { return spaceRun.ReplaceAllString(string(r), " ") }

var errGlob = errors.New("bad glob")

// globMatcher matches workspace-relative paths: * and ? stay within one
// path element, ** spans elements; a pattern without a slash matches the
// file name in any folder.
func globMatcher(glob string) (func(string) bool, error) {
	if _, err := path.Match(strings.ReplaceAll(glob, "**", "*"), ""); err != nil {
		return nil, err
	}
	var re strings.Builder
	re.WriteString("^")
	if !strings.Contains(glob, "/") {
		re.WriteString("(?:.*/)?")
	}
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				i++
				if i+1 < len(glob) && glob[i+1] == '/' {
					i++
					re.WriteString("(?:.*/)?")
				} else {
					re.WriteString(".*")
				}
			} else {
				re.WriteString("[^/]*")
			}
		case '?':
			re.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(glob[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			re.WriteString(strings.Replace(glob[i:i+j+1], "[!", "[^", 1))
			i += j
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return nil, err
	}
	return rx.MatchString, nil
}

// neighbours fetches the passages ord-n..ord+n of one file, in order.
func neighbours(ctx context.Context, k *kbIndex, abs string, ord, n int, rel func(string) string) ([]Hit, error) {
	var ids []string
	for i := max(ord-n, 0); i <= ord+n; i++ {
		ids = append(ids, docID(abs, i))
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{"*"}
	res, err := k.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hit := hitOf(h, rel)
		hit.Score = 0
		hit.Snippet = hit.text
		out = append(out, hit)
	}
	slices.SortFunc(out, func(a, b Hit) int { return a.Ord - b.Ord })
	return out, nil
}
