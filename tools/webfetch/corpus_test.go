package webfetch

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"gopkg.in/yaml.v3"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// corpusDir is the readability test pages: $CLAWBRIDGE_CORPUS or
// <repo>/testdata/corpus (scripts/fetch-corpora.sh); the test is skipped
// without them.
func corpusDir(t *testing.T) string {
	root := os.Getenv("CLAWBRIDGE_CORPUS")
	if root == "" {
		root = filepath.Join("..", "..", "testdata", "corpus")
	}
	dir := filepath.Join(root, "readability", "test", "test-pages")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no readability corpus at %s (run scripts/fetch-corpora.sh)", dir)
	}
	return dir
}

// TestCorpus_Readability fetches every readability test page from a local
// server and compares the words of the Markdown with the words of
// readability's expected.html (as multisets): recall is the share of
// expected words returned, precision the share of returned words expected.
// It also cuts each page at 70% of its length and reports how close below
// max_chars the cut lands. Figures are logged; only errors fail.
func TestCorpus_Readability(t *testing.T) {
	dir := corpusDir(t)
	names, _ := os.ReadDir(dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.Clean("/"+r.URL.Path), "source.html"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write(data)
	}))
	defer srv.Close()
	tl := corpusTool(t)
	var recalls, precisions, fills []float64
	for _, e := range names {
		exp, err := os.ReadFile(filepath.Join(dir, e.Name(), "expected.html"))
		if err != nil {
			continue
		}
		want := words(htmlText(t, exp))
		if len(want) == 0 {
			continue
		}
		d := fetchOK(t, tl, map[string]any{"url": srv.URL + "/" + e.Name() + "/", "max_chars": 500000})
		got := words(mdText(d["markdown"].(string)))
		common := overlap(want, got)
		r, p := float64(common)/float64(total(want)), 0.0
		if total(got) > 0 {
			p = float64(common) / float64(total(got))
		}
		recalls, precisions = append(recalls, r), append(precisions, p)
		if r < 0.5 {
			t.Logf("low recall %s: %.2f (precision %.2f)", e.Name(), r, p)
		}
		if n := d["total_chars"].(int); n >= 2000 {
			limit := n * 7 / 10
			d := fetchOK(t, tl, map[string]any{"url": srv.URL + "/" + e.Name() + "/", "max_chars": limit})
			c := utf8.RuneCountInString(d["markdown"].(string))
			if c > limit {
				t.Errorf("%s: %d characters returned for max_chars %d", e.Name(), c, limit)
			}
			fills = append(fills, float64(c)/float64(limit))
			if float64(c) < 0.8*float64(limit) {
				t.Logf("cut far below the limit %s: %d of %d", e.Name(), c, limit)
			}
		}
	}
	t.Logf("corpus: web_fetch on %d readability pages: word recall mean %.3f median %.3f, >=0.9 on %d; precision mean %.3f median %.3f, >=0.9 on %d",
		len(recalls), mean(recalls), median(recalls), atLeast(recalls, 0.9), mean(precisions), median(precisions), atLeast(precisions, 0.9))
	t.Logf("corpus: web_fetch cut at 70%% of %d pages: returned/max_chars mean %.3f, min %.3f", len(fills), mean(fills), minOf(fills))
}

// corpusTool is web_fetch without the per-host interval: every page comes
// from the one local server.
func corpusTool(t *testing.T) tool.Tool {
	d := tooltest.Deps(t, "127.0.0.1")
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("min_interval: 0s"), &n); err != nil {
		t.Fatal(err)
	}
	d.Config.Tools = map[string]yaml.Node{"web_fetch": *n.Content[0]}
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func htmlText(t *testing.T, data []byte) string {
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}

// mdText drops link and image targets, which are not text.
var mdTarget = regexp.MustCompile(`\]\([^)]*\)`)

func mdText(md string) string { return mdTarget.ReplaceAllString(md, "]") }

func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[w]++
	}
	return m
}

func overlap(a, b map[string]int) int {
	n := 0
	for w, c := range a {
		n += min(c, b[w])
	}
	return n
}

func total(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func minOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func atLeast(xs []float64, v float64) int {
	n := 0
	for _, x := range xs {
		if x >= v {
			n++
		}
	}
	return n
}
