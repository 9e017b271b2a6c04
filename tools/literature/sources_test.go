package literature

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// scholarly replays testdata as OpenAlex, arXiv and Crossref would answer
// (one httptest server each), records the requests and can be told to
// fail one service: "429", "500", "slow" or "malformed".
type scholarly struct {
	oa, ax, cr *httptest.Server
	mu         sync.Mutex
	reqs       []string // "service path?query", in order
	fail       map[string]string
}

func (s *scholarly) failing(service, mode string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[service] = mode
}

// requests are the recorded requests to service ("openalex", "arxiv",
// "crossref").
func (s *scholarly) requests(service string) []*url.URL {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*url.URL
	for _, r := range s.reqs {
		if sv, u, _ := strings.Cut(r, " "); sv == service {
			p, _ := url.Parse(u)
			out = append(out, p)
		}
	}
	return out
}

func (s *scholarly) order() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.reqs {
		sv, _, _ := strings.Cut(r, " ")
		out = append(out, sv)
	}
	return out
}

func newScholarly(t *testing.T) *scholarly {
	s := &scholarly{fail: map[string]string{}}
	serve := func(service string, route func(r *http.Request) (file, ctype string, status int)) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.reqs = append(s.reqs, service+" "+r.URL.RequestURI())
			mode := s.fail[service]
			s.mu.Unlock()
			switch mode {
			case "429":
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":"Too Many Requests"}`, http.StatusTooManyRequests)
				return
			case "500":
				http.Error(w, "Internal Server Error", http.StatusInternalServerError)
				return
			case "slow":
				select {
				case <-r.Context().Done():
				case <-time.After(3 * time.Second):
				}
				return
			case "malformed":
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>"))
				return
			}
			file, ctype, status := route(r)
			b, err := os.ReadFile("testdata/" + file)
			if err != nil {
				t.Errorf("fixture %s: %v", file, err)
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			w.Write(b)
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	const js = "application/json; charset=utf-8"
	s.oa = serve("openalex", func(r *http.Request) (string, string, int) {
		q := r.URL.Query()
		switch p := r.URL.Path; {
		case p == "/works" && strings.HasPrefix(q.Get("filter"), "ids.openalex:"):
			return "openalex_related.json", js, 200
		case p == "/works" && q.Get("search") != "":
			return "openalex_search.json", js, 200
		case p == "/works/W2919115771" || p == "/works/doi:10.1038/nature14539":
			return "openalex_work.json", js, 200
		}
		return "openalex_404.json", js, 404
	})
	s.ax = serve("arxiv", func(r *http.Request) (string, string, int) {
		const atom = "application/atom+xml; charset=utf-8"
		q := r.URL.Query()
		switch {
		case r.URL.Path != "/api/query":
			return "arxiv_empty.xml", atom, 404
		case q.Get("id_list") == "1810.04805":
			return "arxiv_id_1810.04805.xml", atom, 200
		case q.Get("id_list") != "":
			return "arxiv_empty.xml", atom, 200
		}
		return "arxiv_search.xml", atom, 200
	})
	s.cr = serve("crossref", func(r *http.Request) (string, string, int) {
		switch r.URL.Path {
		case "/works":
			return "crossref_search.json", js, 200
		case "/works/10.3969/j.issn.1003-0077.2019.05.001":
			return "crossref_work_zh.json", js, 200
		}
		return "crossref_404.txt", "text/plain", 404
	})
	return s
}

// build makes the tool on a workspace whose outbound guard allows only the
// fixture servers' host.
func (s *scholarly) build(t *testing.T, extra ...string) (tool.Tool, *tool.Deps) {
	t.Helper()
	d := tooltest.Deps(t, "127.0.0.1")
	tooltest.ConfigSection(t, d, "literature_search", strings.Join(append([]string{
		"openalex_url: " + s.oa.URL, "arxiv_url: " + s.ax.URL, "crossref_url: " + s.cr.URL, "min_interval: 0s", "mailto: lab@example.org"}, extra...), "\n"))
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl, d
}

func run(t *testing.T, tl tool.Tool, args map[string]any) (*tool.Result, map[string]any) {
	t.Helper()
	r, err := tooltest.Run(t, tl, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return r, r.Data.(map[string]any)
}

func TestLiteratureSearch_OpenAlexFiltersAndParsesRecords(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	r, d := run(t, tl, map[string]any{"action": "search", "query": "deep learning", "year_from": 2015, "year_to": 2020, "open_access": true, "sort": "citations", "limit": 5})
	q := s.requests("openalex")[0].Query()
	if q.Get("search") != "deep learning" || q.Get("per_page") != "5" || q.Get("sort") != "cited_by_count:desc" || q.Get("mailto") != "lab@example.org" ||
		q.Get("filter") != "from_publication_date:2015-01-01,to_publication_date:2020-12-31,is_oa:true" {
		t.Fatalf("OpenAlex request %v", q)
	}
	ws := d["works"].([]Work)
	if d["total"] != 48213 || len(ws) != 3 || !strings.Contains(r.Summary, "3 of 48213 works") {
		t.Fatalf("%q %v", r.Summary, d)
	}
	lecun, vaswani, zh := ws[0], ws[1], ws[2]
	if lecun.ID != "W2919115771" || lecun.DOI != "10.1038/nature14539" || lecun.Title != "Deep learning" || lecun.Year != 2015 || lecun.Type != "article" ||
		lecun.Venue != "Nature" || lecun.Publisher != "Nature Portfolio" || lecun.Volume != "521" || lecun.Issue != "7553" || lecun.Pages != "436-444" ||
		lecun.Cited != 61482 || lecun.OpenAcc || len(lecun.Authors) != 3 || lecun.Authors[2] != (Author{Family: "Hinton", Given: "Geoffrey E.", Full: "Geoffrey E. Hinton"}) {
		t.Errorf("journal article %+v", lecun)
	}
	if !strings.HasPrefix(lecun.Abstract, "Deep learning allows computational models that are composed of multiple processing layers") {
		t.Errorf("abstract not rebuilt from the inverted index: %q", lecun.Abstract)
	}
	if vaswani.Type != "conference" || vaswani.DOI != "" || !vaswani.OpenAcc || vaswani.PDFURL != "https://arxiv.org/pdf/1706.03762" || len(vaswani.Authors) != 8 ||
		vaswani.Authors[6].Family != "Kaiser" || vaswani.Pages != "5998-6008" {
		t.Errorf("proceedings article %+v", vaswani)
	}
	if zh.Language != "zh" || zh.Title != "基于深度学习的中文分词方法研究" || zh.Authors[0].Full != "王晓明" || !zh.Authors[0].CJK() || zh.Abstract != "中文分词是中文信息处理的基础任务。" {
		t.Errorf("Chinese work %+v", zh)
	}

	for sort, want := range map[string]string{"date": "publication_date:desc", "relevance": ""} {
		run(t, tl, map[string]any{"action": "search", "query": "graph neural networks " + sort, "sort": sort})
		reqs := s.requests("openalex")
		if q := reqs[len(reqs)-1].Query(); q.Get("sort") != want || q.Has("filter") {
			t.Errorf("sort %s: %v", sort, q)
		}
	}
}

func TestLiteratureSearch_ArxivAtomFeed(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	_, d := run(t, tl, map[string]any{"action": "search", "source": "arxiv", "query": "hallucination llm", "year_from": 2023, "sort": "date", "limit": 10})
	q := s.requests("arxiv")[0].Query()
	if q.Get("search_query") != "all:hallucination AND all:llm AND submittedDate:[202301010000 TO 999912312359]" || q.Get("sortBy") != "submittedDate" ||
		q.Get("sortOrder") != "descending" || q.Get("max_results") != "10" {
		t.Fatalf("arXiv request %v", q)
	}
	ws := d["works"].([]Work)
	if d["total"] != 2417 || len(ws) != 2 {
		t.Fatalf("%v", d)
	}
	w := ws[0]
	if w.ID != "arXiv:2311.05232" || w.ArxivID != "2311.05232" || w.DOI != "10.1145/3703155" || w.Date != "2023-11-09" || w.Year != 2023 ||
		w.Title != "A Survey on Hallucination in Large Language Models: Principles, Taxonomy, Challenges, and Open Questions" ||
		w.PDFURL != "http://arxiv.org/pdf/2311.05232v2" || len(w.Authors) != 4 || w.Authors[3].Full != "Weihong Zhong" || w.Type != "preprint" || !w.OpenAcc {
		t.Errorf("%+v", w)
	}
	if ws[1].DOI != "10.48550/arXiv.2305.14552" || !strings.HasPrefix(ws[1].Abstract, "Large Language Models (LLMs) are claimed") {
		t.Errorf("%+v", ws[1])
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "search", "source": "arxiv", "query": "x", "sort": "citations"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "sort" {
		t.Errorf("%v", te)
	}
}

func TestLiteratureSearch_CrossrefMessageEnvelope(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	_, d := run(t, tl, map[string]any{"action": "search", "source": "crossref", "query": "deep learning", "year_from": 2010, "year_to": 2016, "sort": "citations", "limit": 2})
	q := s.requests("crossref")[0].Query()
	if q.Get("query") != "deep learning" || q.Get("rows") != "2" || q.Get("filter") != "from-pub-date:2010,until-pub-date:2016" ||
		q.Get("sort") != "is-referenced-by-count" || q.Get("order") != "desc" || q.Get("mailto") != "lab@example.org" {
		t.Fatalf("Crossref request %v", q)
	}
	ws := d["works"].([]Work)
	if d["total"] != 1187 || len(ws) != 2 {
		t.Fatalf("%v", d)
	}
	if w := ws[0]; w.DOI != "10.1038/nature14539" || w.Type != "article" || w.Date != "2015-05-27" || w.Venue != "Nature" || w.Cited != 44215 ||
		w.Abstract != "Deep learning allows computational models that are composed of multiple processing layers to learn representations of data with multiple levels of abstraction." {
		t.Errorf("%+v", w)
	}
	if w := ws[1]; w.Type != "chapter" || w.Venue != "Neural Networks: Tricks of the Trade" || w.Publisher != "Springer Berlin Heidelberg" || w.Pages != "437-478" {
		t.Errorf("%+v", w)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "search", "source": "crossref", "query": "x", "open_access": true})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	_, err = tooltest.Run(t, tl, map[string]any{"action": "search", "query": "x", "year_from": 2020, "year_to": 2010})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// TestLiteratureGet_SourceFallbackOrder: a work just seen is served from
// memory; else OpenAlex; a DOI OpenAlex lacks (or cannot serve) comes from
// Crossref, an arXiv id from arXiv; an OpenAlex id has no second source.
func TestLiteratureGet_SourceFallbackOrder(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	_, d := run(t, tl, map[string]any{"action": "get", "id": "https://doi.org/10.1038/NATURE14539"})
	if w := d["work"].(Work); w.Source != "openalex" || w.Volume != "521" || !strings.HasSuffix(w.Abstract, "drug discovery and genomics.") {
		t.Fatalf("%+v", w)
	}
	if got := s.order(); strings.Join(got, ",") != "openalex" || s.requests("openalex")[0].Path != "/works/doi:10.1038/nature14539" {
		t.Fatalf("requests %v", got)
	}
	run(t, tl, map[string]any{"action": "get", "id": "10.1038/nature14539"})
	if n := len(s.order()); n != 1 {
		t.Fatalf("a work just fetched was asked for again (%d requests)", n)
	}

	_, d = run(t, tl, map[string]any{"action": "get", "id": "doi:10.3969/J.ISSN.1003-0077.2019.05.001"})
	w := d["work"].(Work)
	if w.Source != "crossref" || w.Title != "基于深度学习的中文分词方法研究" || w.Authors[0].Full != "王晓明" || w.Authors[3].Full != "刘洋" || w.Language != "zh" {
		t.Fatalf("%+v", w)
	}
	if got := strings.Join(s.order()[1:], ","); got != "openalex,crossref" {
		t.Fatalf("DOI fallback order %s", got)
	}

	_, d = run(t, tl, map[string]any{"action": "get", "id": "arXiv:1810.04805v2"})
	if w := d["work"].(Work); w.Source != "arxiv" || w.ArxivID != "1810.04805" || w.Date != "2018-10-11" || w.Authors[1].Full != "Ming-Wei Chang" {
		t.Fatalf("%+v", w)
	}
	oa := s.requests("openalex")
	if got := strings.Join(s.order()[3:], ","); got != "openalex,arxiv" || oa[len(oa)-1].Path != "/works/doi:10.48550/arXiv.1810.04805" {
		t.Fatalf("arXiv fallback order %s", got)
	}

	_, d = run(t, tl, map[string]any{"action": "get", "id": "https://openalex.org/W2919115771"})
	if w := d["work"].(Work); w.ID != "W2919115771" {
		t.Fatalf("%+v", w)
	}
	before := len(s.order())
	_, err := tooltest.Run(t, tl, map[string]any{"action": "get", "id": "W1"})
	if te := tooltest.ToolError(t, err, tool.CodeNotFound); te.Field != "id" || len(s.order()) != before+1 {
		t.Fatalf("an unknown OpenAlex id: %v, %v", te, s.order()[before:])
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "get", "id": "2401.99999"})
	tooltest.ToolError(t, err, tool.CodeNotFound)
	_, err = tooltest.Run(t, tl, map[string]any{"action": "get", "id": "10.9999/nowhere"})
	if te := tooltest.ToolError(t, err, tool.CodeNotFound); te.Field != "id" {
		t.Fatal(te)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "get", "id": "not an id"})
	tooltest.ToolError(t, err, tool.CodeInvalid)

	// OpenAlex failing: a DOI still comes from Crossref; when Crossref
	// lacks it, OpenAlex's failure is what the caller hears.
	s2 := newScholarly(t)
	s2.failing("openalex", "500")
	tl2, _ := s2.build(t)
	if _, d := run(t, tl2, map[string]any{"action": "get", "id": "10.3969/j.issn.1003-0077.2019.05.001"}); d["work"].(Work).Source != "crossref" {
		t.Fatal(d)
	}
	_, err = tooltest.Run(t, tl2, map[string]any{"action": "get", "id": "10.9999/nowhere"})
	if te := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(te.Message, "OpenAlex answered HTTP 500") {
		t.Fatal(te)
	}
}

func TestLiteratureRelated_ByCitations(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	r, d := run(t, tl, map[string]any{"action": "related", "id": "10.1038/nature14539", "limit": 3})
	oa := s.requests("openalex")
	if q := oa[len(oa)-1].Query(); q.Get("filter") != "ids.openalex:W2963403868|W2896457183|W4385245566" || q.Get("per_page") != "3" {
		t.Fatalf("related request %v", q)
	}
	ws := d["related"].([]Work)
	if d["work"] != "W2919115771" || len(ws) != 3 || ws[0].ID != "W2963403868" || ws[1].ID != "W2896457183" || ws[2].ID != "W4385245566" ||
		ws[1].ArxivID != "1810.04805" || ws[1].Type != "preprint" || !strings.Contains(r.Summary, `3 works related to "Deep learning"`) {
		t.Fatalf("%q %+v", r.Summary, ws)
	}
	run(t, tl, map[string]any{"action": "related", "id": "W2919115771", "limit": 1})
	oa = s.requests("openalex")
	if q := oa[len(oa)-1].Query(); q.Get("filter") != "ids.openalex:W2963403868" {
		t.Fatalf("limit 1: %v", q)
	}
	// A Crossref-only work has no OpenAlex record to relate from.
	_, err := tooltest.Run(t, tl, map[string]any{"action": "related", "id": "10.3969/j.issn.1003-0077.2019.05.001"})
	tooltest.ToolError(t, err, tool.CodeNotFound)
}

// TestLiteratureCite_ParsedRecords: the citation styles on records as the
// three sources deliver them, not only on hand-built works.
func TestLiteratureCite_ParsedRecords(t *testing.T) {
	s := newScholarly(t)
	tl, _ := s.build(t)
	run(t, tl, map[string]any{"action": "search", "query": "deep learning"}) // Vaswani et al. is cited from memory
	ids := []any{"10.1038/nature14539", "arXiv:1810.04805", "10.3969/j.issn.1003-0077.2019.05.001", "W2963403868"}
	want := map[string][]string{
		"apa": {
			"LeCun, Y., Bengio, Y., & Hinton, G. E. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539",
			"Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2018). BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding (arXiv:1810.04805). arXiv. https://doi.org/10.48550/arXiv.1810.04805",
			"王晓明, 李华, 张伟, & 刘洋. (2019). 基于深度学习的中文分词方法研究. 中文信息学报, 33(5), 1–10. https://doi.org/10.3969/j.issn.1003-0077.2019.05.001",
			"Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., & Polosukhin, I. (2017). Attention is All you Need. In Neural Information Processing Systems (pp. 5998–6008). Curran Associates. https://papers.nips.cc/paper/7181-attention-is-all-you-need",
		},
		"mla": {
			"LeCun, Yann, et al. “Deep learning.” Nature, vol. 521, no. 7553, 2015, pp. 436–44, https://doi.org/10.1038/nature14539.",
			"Devlin, Jacob, et al. “BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding.” arXiv, 11 Oct. 2018, https://doi.org/10.48550/arXiv.1810.04805.",
			"王晓明, et al. “基于深度学习的中文分词方法研究.” 中文信息学报, vol. 33, no. 5, 2019, pp. 1–10, https://doi.org/10.3969/j.issn.1003-0077.2019.05.001.",
			"Vaswani, Ashish, et al. “Attention is All you Need.” Neural Information Processing Systems, vol. 30, Curran Associates, 2017, pp. 5998–6008, papers.nips.cc/paper/7181-attention-is-all-you-need.",
		},
		"gbt7714": {
			"LECUN Y, BENGIO Y, HINTON G E. Deep learning[J]. Nature, 2015, 521(7553): 436-444. DOI:10.1038/nature14539.",
			"DEVLIN J, CHANG M W, LEE K, et al. BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding[EB/OL]. (2018-10-11)[2024-05-01]. https://arxiv.org/abs/1810.04805. DOI:10.48550/arXiv.1810.04805.",
			"王晓明, 李华, 张伟, 等. 基于深度学习的中文分词方法研究[J]. 中文信息学报, 2019, 33(5): 1-10. DOI:10.3969/j.issn.1003-0077.2019.05.001.",
			"VASWANI A, SHAZEER N, PARMAR N, et al. Attention is All you Need[C]//Neural Information Processing Systems. Curran Associates, 2017: 5998-6008.",
		},
	}
	for style, refs := range want {
		_, d := run(t, tl, map[string]any{"action": "cite", "ids": ids, "style": style, "accessed": "2024-05-01"})
		got := d["references"].([]string)
		for i := range refs {
			if got[i] != refs[i] {
				t.Errorf("%s %s:\n got %s\nwant %s", style, ids[i], got[i], refs[i])
			}
		}
	}
	_, d := run(t, tl, map[string]any{"action": "cite", "ids": ids, "style": "bibtex"})
	got := d["references"].([]string)
	for i, head := range []string{"@article{lecun2015deep,", "@misc{devlin2018bert,", "@article{anon2019,", "@inproceedings{vaswani2017attention,"} {
		if !strings.HasPrefix(got[i], head) {
			t.Errorf("bibtex %d: %s", i, got[i])
		}
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "cite", "ids": []any{"10.1038/nature14539"}, "accessed": "yesterday"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// TestLiterature_ServiceErrorsAreClear: a limiting, failing, slow or
// garbled service is a tool error that names the service and says what to
// do, for each of the three sources.
func TestLiterature_ServiceErrorsAreClear(t *testing.T) {
	for _, tc := range []struct{ mode, code, want string }{
		{"429", tool.CodeUnavailable, "answered HTTP 429 (rate limited)"},
		{"500", tool.CodeFailed, "answered HTTP 500"},
		{"slow", tool.CodeTimeout, "did not answer in time"},
		{"malformed", tool.CodeFailed, "did not answer"},
	} {
		for source, name := range map[string]string{"openalex": "OpenAlex", "arxiv": "arXiv", "crossref": "Crossref"} {
			t.Run(tc.mode+"/"+source, func(t *testing.T) {
				s := newScholarly(t)
				s.failing(source, tc.mode)
				tl, _ := s.build(t, "timeout: 300ms")
				_, err := tooltest.Run(t, tl, map[string]any{"action": "search", "source": source, "query": "deep learning"})
				te := tooltest.ToolError(t, err, tc.code)
				if !strings.Contains(te.Message, name) || !strings.Contains(te.Message, tc.want) || te.Hint == "" || strings.Contains(te.Message, "127.0.0.1") {
					t.Fatalf("%+v", te)
				}
			})
		}
	}
}

func TestLiterature_OutboundGuard(t *testing.T) {
	s := newScholarly(t)
	d := tooltest.Deps(t) // nothing allowed: the fixture servers are loopback
	tooltest.ConfigSection(t, d, "literature_search", "openalex_url: "+s.oa.URL+"\ncrossref_url: "+s.cr.URL+"\narxiv_url: "+s.ax.URL)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "search", "query": "deep learning"})
	tooltest.ToolError(t, err, tool.CodeDenied)
	_, err = tooltest.Run(t, tl, map[string]any{"action": "get", "id": "10.1038/nature14539"})
	tooltest.ToolError(t, err, tool.CodeDenied)
	if n := len(s.order()); n != 0 {
		t.Fatalf("%d requests got through the guard", n)
	}
}
