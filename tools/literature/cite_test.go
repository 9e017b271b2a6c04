package literature

import (
	"strings"
	"testing"
)

// TestCite_HandCheckedStrings: eight works (journal article, two authors
// with a name particle, conference paper, preprint, book chapter, book,
// a 23-author article, a Chinese-language article) in every style.
func TestCite_HandCheckedStrings(t *testing.T) {
	for key, w := range citeWorks {
		for _, s := range Styles {
			want, ok := wantCites[key+"/"+s]
			if !ok {
				t.Fatalf("no expected string for %s/%s", key, s)
			}
			if got := Cite(w, s, "2024-05-01"); got != want {
				t.Errorf("%s/%s:\n got %s\nwant %s", key, s, got, want)
			}
		}
	}
	if !strings.Contains(wantCites["many_authors/apa"], manyAPA) {
		t.Error("APA 7: 21+ authors are the first 19, an ellipsis and the last")
	}
}

// TestCite_ChineseNamesStayWhole: a Chinese name is never cut into
// initials or reordered, whichever way the source splits it.
func TestCite_ChineseNamesStayWhole(t *testing.T) {
	for _, a := range []Author{fromParts("晓明", "王"), splitName("王晓明"), splitName("王 晓明")} {
		if a.Full != "王晓明" || !a.CJK() || apaName(a) != "王晓明" {
			t.Errorf("%+v", a)
		}
	}
	if g := gbt(citeWorks["chinese"], ""); !strings.Contains(g, "张伟, 等.") {
		t.Errorf("GB/T: a Chinese work uses 等: %s", g)
	}
}

func TestParseID_Forms(t *testing.T) {
	for in, want := range map[string]ident{
		"10.1038/nature14539": {"doi", "10.1038/nature14539"}, "https://doi.org/10.1038/NATURE14539": {"doi", "10.1038/nature14539"},
		"arXiv:1810.04805v2": {"arxiv", "1810.04805"}, "https://arxiv.org/abs/2303.08774": {"arxiv", "2303.08774"},
		"10.48550/arXiv.1810.04805": {"arxiv", "1810.04805"}, "W2741809807": {"openalex", "W2741809807"},
		"https://openalex.org/W2741809807": {"openalex", "W2741809807"}, "hep-th/9901001": {"arxiv", "hep-th/9901001"},
	} {
		if got, err := parseID(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if _, err := parseID("not an id"); err == nil {
		t.Error("garbage accepted")
	}
}

func TestOpenAlex_AbstractFromInvertedIndex(t *testing.T) {
	idx := map[string][]int{"Despite": {0}, "the": {1, 5}, "success": {2}, "of": {3}, "LLMs,": {4}, "hallucinations": {6}, "persist.": {7}}
	if got := abstractFromIndex(idx); got != "Despite the success of LLMs, the hallucinations persist." {
		t.Fatal(got)
	}
}

// TestCite_MLAInclusivePageNumbers: MLA 9 gives the second number in full
// through 99, else its last two digits unless more are needed.
func TestCite_MLAInclusivePageNumbers(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"2", "3"}: "3", {"21", "48"}: "48", {"89", "111"}: "111", {"96", "101"}: "101", {"103", "104"}: "04", {"395", "401"}: "401",
		{"923", "1003"}: "1003", {"1003", "1005"}: "05", {"1608", "1774"}: "774", {"436", "444"}: "44", {"e12", "e19"}: "e19",
	} {
		if got := mlaLastPage(in[0], in[1]); got != want {
			t.Errorf("%s–%s: got %s, want %s", in[0], in[1], got, want)
		}
	}
}

// TestCite_GBTInitialsSpaced: GB/T 7714 writes family names in capitals and
// each given-name part as a capital initial without a point, spaced.
func TestCite_GBTInitialsSpaced(t *testing.T) {
	w := Work{Title: "T", Type: "article", Venue: "J", Year: 2020, Authors: names("Aidan N. Gomez", "Ming-Wei Chang", "David J. Des Marais")}
	if got := gbtAuthors(w); got != "GOMEZ A N, CHANG M W, DES MARAIS D J" {
		t.Fatal(got)
	}
	w.Authors = []Author{fromParts("David J.", "Des Marais")}
	if got := gbtAuthors(w); got != "DES MARAIS D J" {
		t.Fatal(got)
	}
}

// TestBibTeX_EscapingKeepsBracesBalanced: TeX specials are escaped; an
// unbalanced brace in a title would end the field early, so it is dropped.
func TestBibTeX_EscapingKeepsBracesBalanced(t *testing.T) {
	w := Work{Title: "50% of R&D costs_in $ {DNA} #1 ~ ^ \\ and a stray } brace", Authors: names("Ann Lee"), Year: 2021, Type: "article", Venue: "A & B"}
	b := bibtex(w, bibKey(w))
	if !strings.Contains(b, `title = {{50\% of R\&D costs\_in \$ DNA \#1 \textasciitilde{} \textasciicircum{} \textbackslash{} and a stray  brace}}`) ||
		!strings.Contains(b, `journal = {A \& B}`) || strings.Count(b, "{") != strings.Count(b, "}") || !strings.HasPrefix(b, "@article{lee2021rd,") {
		t.Fatal(b)
	}
	w.Title = "The {DNA} of {LLM}s"
	if b := bibtex(w, "k"); !strings.Contains(b, "title = {{The {DNA} of {LLM}s}}") {
		t.Fatal(b)
	}
}
