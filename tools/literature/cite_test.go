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
