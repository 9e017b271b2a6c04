// Package literature is the `literature_search` tool: scholarly search
// through OpenAlex (default; abstracts rebuilt from its inverted index),
// arXiv's Atom API and Crossref's works API; get by DOI, arXiv id or
// OpenAlex id (OpenAlex first, then Crossref for a DOI or arXiv for an
// arXiv id when OpenAlex lacks the work or is failing); related works
// (OpenAlex); citations in APA 7, MLA 9,
// GB/T 7714-2015 and BibTeX; a .bib or .ris file written into the
// workspace. It does not download full texts or check retractions.
package literature

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the `tools.literature_search` section.
type Config struct {
	OpenAlexURL string        `yaml:"openalex_url"`
	ArxivURL    string        `yaml:"arxiv_url"`
	CrossrefURL string        `yaml:"crossref_url"`
	Mailto      string        `yaml:"mailto"` // sent to OpenAlex and Crossref (their polite pools)
	Timeout     time.Duration `yaml:"timeout"`
	MinInterval time.Duration `yaml:"min_interval"`
	CacheTTL    time.Duration `yaml:"cache_ttl"`
}

// DefaultConfig is the public services.
func DefaultConfig() Config {
	return Config{OpenAlexURL: "https://api.openalex.org", ArxivURL: "https://export.arxiv.org", CrossrefURL: "https://api.crossref.org",
		Timeout: 20 * time.Second, MinInterval: 300 * time.Millisecond, CacheTTL: 30 * time.Minute}
}

// Validate refuses empty endpoints and limits that cannot work.
func (c *Config) Validate() error {
	var errs []error
	if c.OpenAlexURL == "" || c.ArxivURL == "" || c.CrossrefURL == "" {
		errs = append(errs, errors.New("openalex_url, arxiv_url and crossref_url must not be empty"))
	}
	return errors.Join(append(errs, config.AtLeast("timeout", c.Timeout, time.Millisecond),
		config.AtLeast("min_interval", c.MinInterval, 0), config.AtLeast("cache_ttl", c.CacheTTL, 0))...)
}

type lit struct {
	d      *tool.Deps
	cfg    Config
	client *http.Client
	limit  *webapi.Limiter
	works  *webapi.Cache[Work] // by id, for cite/export of works just found
}

type searchQuery struct {
	Text       string
	From, To   int
	OpenAccess bool
	Sort       string
	Limit      int
}

// New builds the tool from the tools.literature_search section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "literature_search", Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	l := &lit{d: d, cfg: cfg, client: d.HTTPClient(cfg.Timeout), limit: webapi.NewLimiter(cfg.MinInterval, 0), works: webapi.NewCache[Work](cfg.CacheTTL, 1024)}
	source := tool.Param{Name: "source", Type: tool.String, Enum: []string{"openalex", "arxiv", "crossref"}, Default: "openalex", Description: "Where to look."}
	ids := tool.Param{Name: "ids", Type: tool.Array, Items: &tool.Param{Name: "id", Type: tool.String, Description: "DOI, arXiv id or OpenAlex id."}, Required: true,
		Description: "Works to cite: DOIs, arXiv ids (2303.08774) or OpenAlex ids (W2741809807)."}
	return tool.Tool{
		Name:  "literature_search",
		Title: "Scholarly literature search",
		Description: "Scholarly search through OpenAlex, arXiv and Crossref: find papers, get by DOI or arXiv id, related work, " +
			"citations in APA, MLA, GB/T 7714 or BibTeX, bibliography export (.bib, .ris).",
		Actions: []tool.Action{
			{Name: "search", Description: "Find papers.", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Handler: l.search, Params: []tool.Param{
				{Name: "query", Type: tool.String, Required: true, Description: "Topic or title words."},
				{Name: "year_from", Type: tool.Integer, Description: "Earliest year.", Min: tool.Ptr(1000), Max: tool.Ptr(3000)},
				{Name: "year_to", Type: tool.Integer, Description: "Latest year.", Min: tool.Ptr(1000), Max: tool.Ptr(3000)},
				{Name: "open_access", Type: tool.Boolean, Description: "Only open-access works (OpenAlex)."},
				{Name: "sort", Type: tool.String, Enum: []string{"relevance", "citations", "date"}, Default: "relevance", Description: "Order."},
				{Name: "limit", Type: tool.Integer, Default: 10, Description: "Works wanted.", Min: tool.Ptr(1), Max: tool.Ptr(50)},
				source,
			}},
			{Name: "get", Description: "One work by DOI, arXiv id or OpenAlex id, with its abstract.", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Handler: l.get,
				Params: []tool.Param{{Name: "id", Type: tool.String, Required: true, Description: "DOI, arXiv id or OpenAlex id."}}},
			{Name: "related", Description: "Works related to one work (OpenAlex).", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Handler: l.related,
				Params: []tool.Param{{Name: "id", Type: tool.String, Required: true, Description: "DOI, arXiv id or OpenAlex id."},
					{Name: "limit", Type: tool.Integer, Default: 10, Description: "Works wanted.", Min: tool.Ptr(1), Max: tool.Ptr(50)}}},
			{Name: "cite", Description: "Formatted references.", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Handler: l.cite, Params: []tool.Param{ids,
				{Name: "style", Type: tool.String, Enum: Styles, Default: "apa", Description: "Citation style."},
				{Name: "accessed", Type: tool.String, Description: "Access date YYYY-MM-DD for online works in GB/T 7714 (default today)."}}},
			{Name: "export", Description: "Write a bibliography file into the workspace.", Level: tool.Write, Timeout: tool.Normal, Handler: l.export, Params: []tool.Param{ids,
				{Name: "format", Type: tool.String, Enum: []string{"bib", "ris"}, Default: "bib", Description: "File format."},
				tool.OutputParam("Workspace path (default outputs/references.bib)."),
				tool.Overwrite}},
		},
		OpenWorld: true,
		Examples: []string{
			"find recent papers on graph neural networks", "look up this arxiv paper", "format this reference in APA style",
			"list related work for this DOI", "export the bibliography as bibtex", "查找关于深度学习的学术论文",
			"检索近五年的相关文献", "生成GB/T 7714格式的参考文献", "找一下这篇论文的引用",
		},
	}, nil
}

type ident struct{ kind, value string }

var (
	doiRE      = regexp.MustCompile(`(?i)^(?:https?://(?:dx\.)?doi\.org/|doi:)?(10\.\d{4,9}/\S+)$`)
	arxivRE    = regexp.MustCompile(`(?i)^(?:arxiv:|https?://arxiv\.org/(?:abs|pdf)/)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?$`)
	openalexRE = regexp.MustCompile(`(?i)^(?:https?://openalex\.org/)?(W\d+)$`)
)

// parseID recognises a DOI, an arXiv id or an OpenAlex work id, bare or as
// a URL.
func parseID(s string) (ident, error) {
	s = strings.TrimSpace(s)
	if m := openalexRE.FindStringSubmatch(s); m != nil {
		return ident{"openalex", strings.ToUpper(m[1])}, nil
	}
	if m := doiRE.FindStringSubmatch(s); m != nil {
		d := strings.ToLower(m[1])
		if strings.HasPrefix(d, "10.48550/arxiv.") {
			return ident{"arxiv", m[1][len("10.48550/arxiv."):]}, nil
		}
		return ident{"doi", d}, nil
	}
	if m := arxivRE.FindStringSubmatch(s); m != nil {
		return ident{"arxiv", m[1]}, nil
	}
	return ident{}, tool.Invalid("id", fmt.Sprintf("%q is not a DOI, arXiv id or OpenAlex id", s), "for example 10.1038/nature14539, 2303.08774 or W2741809807")
}

func (l *lit) search(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a := c.Args
	q := searchQuery{Text: strings.TrimSpace(a.String("query")), From: a.Int("year_from", 0), To: a.Int("year_to", 0), OpenAccess: a.Bool("open_access", false),
		Sort: a.StringOr("sort", "relevance"), Limit: a.Int("limit", 10)}
	if q.Text == "" {
		return nil, tool.Invalid("query", "query is empty", "give topic or title words")
	}
	if q.From > 0 && q.To > 0 && q.From > q.To {
		return nil, tool.Invalid("year_to", "year_to is before year_from", "swap them")
	}
	src := a.StringOr("source", "openalex")
	if q.OpenAccess && src != "openalex" && src != "arxiv" {
		return nil, tool.Invalid("open_access", "open_access filtering needs source openalex", "drop open_access or use source openalex")
	}
	var ws []Work
	var total int
	var err error
	switch src {
	case "arxiv":
		ws, total, err = l.arxivSearch(ctx, q)
	case "crossref":
		ws, total, err = l.crossrefSearch(ctx, q)
	default:
		ws, total, err = openAlex{l}.search(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		l.remember(w)
	}
	return &tool.Result{Summary: fmt.Sprintf("%d of %s for %q from %s.", len(ws), wording.Count(total, "work", "works"), q.Text, src),
		Data: map[string]any{"source": src, "total": total, "works": brief(ws)}}, nil
}

// brief drops abstracts from a list (get returns them).
func brief(ws []Work) []Work {
	out := make([]Work, len(ws))
	for i, w := range ws {
		if r := []rune(w.Abstract); len(r) > 300 {
			w.Abstract = string(r[:300]) + "…"
		}
		out[i] = w
	}
	return out
}

func (l *lit) remember(w Work) {
	for _, k := range []string{w.ID, w.DOI, w.ArxivID} {
		if k != "" {
			l.works.Put(strings.ToLower(k), w)
		}
	}
}

// lookup finds a work: from the works just seen, else OpenAlex, else (for
// a DOI) Crossref, else (for an arXiv id) arXiv itself. The second source
// is asked when OpenAlex lacks the work or is failing; an OpenAlex id has
// no second source. When both fail, OpenAlex's own failure is reported
// unless it merely lacked the work.
func (l *lit) lookup(ctx context.Context, raw string) (Work, error) {
	id, err := parseID(raw)
	if err != nil {
		return Work{}, err
	}
	if w, ok := l.works.Get(strings.ToLower(id.value)); ok {
		return w, nil
	}
	w, err := openAlex{l}.getWork(ctx, id)
	if err != nil && id.kind != "openalex" && fallsBack(err) {
		var w2 Work
		var err2 error
		if id.kind == "doi" {
			w2, err2 = l.crossrefGet(ctx, id.value)
		} else {
			w2, err2 = l.arxivGet(ctx, id.value)
		}
		switch te, _ := tool.AsError(err); {
		case err2 == nil:
			w, err = w2, nil
		case te != nil && te.Code == tool.CodeNotFound:
			err = err2
		}
	}
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeNotFound {
		// One answer for a work no source has, naming it as given.
		return Work{}, tool.NotFoundf("id", "check the id, or find the work with search", "no work %q: %s", strings.TrimSpace(raw), te.Message)
	}
	if err != nil {
		return Work{}, err
	}
	l.remember(w)
	return w, nil
}

// fallsBack: OpenAlex lacks the work, limits us, fails or is slow.
func fallsBack(err error) bool {
	te, ok := tool.AsError(err)
	if !ok {
		return false
	}
	switch te.Code {
	case tool.CodeNotFound, tool.CodeUnavailable, tool.CodeFailed, tool.CodeTimeout:
		return true
	}
	return false
}

func (l *lit) arxivGet(ctx context.Context, id string) (Work, error) {
	ws, _, err := l.arxiv(ctx, map[string][]string{"id_list": {id}})
	if err != nil {
		return Work{}, err
	}
	if len(ws) == 0 {
		return Work{}, tool.NotFoundf("id", "check the id", "no arXiv paper %s", id)
	}
	return ws[0], nil
}

func (l *lit) get(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	w, err := l.lookup(ctx, c.Args.String("id"))
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s (%d), %s, from %s.", w.Title, w.Year, wording.Count(len(w.Authors), "author", "authors"), w.Source), Data: map[string]any{"work": w}}, nil
}

func (l *lit) related(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	w, err := l.lookup(ctx, c.Args.String("id"))
	if err != nil {
		return nil, err
	}
	if w.Source != "openalex" {
		if w, err = (openAlex{l}).getWork(ctx, ident{"doi", w.DOI}); err != nil {
			return nil, err
		}
	}
	ws, err := openAlex{l}.related(ctx, w, c.Args.Int("limit", 10))
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s related to %q.", wording.Count(len(ws), "work", "works"), w.Title), Data: map[string]any{"work": w.ID, "related": brief(ws)}}, nil
}

func (l *lit) worksOf(ctx context.Context, c *tool.Call) ([]Work, error) {
	raw, _ := c.Args["ids"].([]any)
	if len(raw) == 0 {
		return nil, tool.Invalid("ids", "no works given", "list DOIs, arXiv ids or OpenAlex ids")
	}
	var ws []Work
	for _, r := range raw {
		s, _ := r.(string)
		w, err := l.lookup(ctx, s)
		if te, ok := tool.AsError(err); ok && te.Field == "id" {
			te.Field = "ids" // the id at fault is one of the list
		}
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}

func (l *lit) cite(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	style := c.Args.StringOr("style", "apa")
	acc := c.Args.StringOr("accessed", time.Now().Format("2006-01-02"))
	if _, err := time.Parse("2006-01-02", acc); err != nil {
		return nil, tool.Invalid("accessed", fmt.Sprintf("%q is not YYYY-MM-DD", acc), "for example 2024-05-01")
	}
	ws, err := l.worksOf(ctx, c)
	if err != nil {
		return nil, err
	}
	keys := bibKeys(ws)
	refs := make([]string, len(ws))
	for i, w := range ws {
		if style == "bibtex" {
			refs[i] = bibtex(w, keys[i])
		} else {
			refs[i] = Cite(w, style, acc)
		}
	}
	return &tool.Result{Summary: fmt.Sprintf("%s in %s.", wording.Count(len(refs), "reference", "references"), style), Data: map[string]any{"style": style, "references": refs}}, nil
}

// bibKeys makes the keys of one bibliography unique: a second
// "smith2020deep" becomes "smith2020deepb".
func bibKeys(ws []Work) []string {
	seen := map[string]int{}
	out := make([]string, len(ws))
	for i, w := range ws {
		k := bibKey(w)
		if n := seen[k]; n > 0 {
			out[i] = k + string(rune('a'+n))
		} else {
			out[i] = k
		}
		seen[k]++
	}
	return out
}

func (l *lit) export(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	format := c.Args.StringOr("format", "bib")
	out, err := tool.PlanOutput(l.d.Sandbox, c.Args, tool.Output{Stem: "references", Exts: []string{"." + format}})
	if err != nil {
		return nil, err
	}
	ws, err := l.worksOf(ctx, c)
	if err != nil {
		return nil, err
	}
	var text string
	if format == "ris" {
		text = ris(ws)
	} else {
		keys := bibKeys(ws)
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = bibtex(w, keys[i])
		}
		text = strings.Join(parts, "\n\n") + "\n"
	}
	f, err := out.Write("."+format, []byte(text))
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Wrote %s to %s.", wording.Count(len(ws), "reference", "references"), l.d.Sandbox.Rel(f.Path)), Files: []tool.File{f},
		Data: map[string]any{"path": l.d.Sandbox.Rel(f.Path), "format": format, "count": len(ws)}}, nil
}
