package exposure

import (
	"slices"
	"strings"
	"testing"
)

func TestComposite_SplitClauses(t *testing.T) {
	n := &normalizer{t2s: sharedDefaultTables().T2S}
	for q, want := range map[string][]string{
		"把报告转成简报，顺便画个架构图":                                                {"把报告转成简报", "画个架构图"},
		"幫我把這份報告轉成簡報，順便畫個架構圖":                                            {"帮我把这份报告转成简报", "画个架构图"},
		"查天气然后在钉钉群里通知大家":                                                 {"查天气", "在钉钉群里通知大家"},
		"grab the table from https://a.example/x.html and then chart it": {"grab the table from https://a.example/x.html ", " chart it"},
		"merge a.pdf; split b.pdf":                                       {"merge a.pdf", " split b.pdf"},
		"standalone request":                                             {"standalone request"},
		"candy handout":                                                  {"candy handout"}, // "and" inside words does not cut
	} {
		norm := n.appendNormal(nil, q)
		var got []string
		for _, sp := range splitClauses(norm, nil) {
			got = append(got, string(norm[sp[0]:sp[1]]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("splitClauses(%q) = %q, want %q", q, got, want)
		}
	}
}

// Each task of a composite request gets its best tool, recommended, in
// both languages; the examples are the issue's, the mechanism is general.
func TestComposite_EveryClauseRecommended(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, want := range map[string][]string{
		"幫我把這份報告轉成簡報，順便畫個架構圖":                                               {"ppt_generator", "mind_map"},
		"把表格清洗一下去掉重复行，接着做个饼图，最后发邮件给老板":                                      {"data_processor", "data_visualization"},
		"transcribe the interview recording and then write a short summary": {"speech", "ai_writer"},
	} {
		d := r.Route(q)
		for _, w := range want {
			if !slices.Contains(d.Recommended(), w) {
				t.Errorf("%q: %s not recommended: %v (clauses %+v)", q, w, d.Recommended(), clauseList(d))
			}
		}
		if d.Tier != TierRecommended || len(d.Tools) > 12 {
			t.Errorf("%q: tier %s with %d tools, want recommended within the cap of 12", q, d.Tier, len(d.Tools))
		}
	}
}

// A clause that detects nothing adds nothing: the view is the one-task view.
func TestComposite_EmptyClauseAddsNothing(t *testing.T) {
	r := liveRouter(t, Config{})
	one, two := r.Route("合并这三个PDF"), r.Route("合并这三个PDF，谢谢啦，麻烦了")
	if !slices.Equal(one.Names(), two.Names()) || len(two.Detection.Clauses) != 0 {
		t.Errorf("vague clauses changed the view: %v vs %v (clauses %+v)", one.Names(), two.Names(), two.Detection.Clauses)
	}
	if d := r.Route("嗯，那个，然后呢，帮个忙"); d.Tier != TierFull {
		t.Errorf("vague clauses left the full tier: %s", d.Tier)
	}
}

// Artefacts point at tools: an output format at its producer, a file's
// extension at its readers, a URL at the web tools.
func TestComposite_ArtefactSignals(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, want := range map[string][]string{
		"search the web for hiking trails near Kyoto and make me a one-page pdf guide":                 {"format_converter"},
		"grab the pricing table from https://shop.example.com/pricing and turn it into an excel sheet": {"browser_use", "data_processor"},
		"把会议记录整理一下，做成word":                                                                             {"doc_generator"},
		"季度数据整理好以后导出ppt":                                                                               {"ppt_generator"},
		"what does 年报.pdf say about revenue":                                                           {"pdf_tool"},
		"summarise minutes.docx for me":                                                                {"format_converter"},
	} {
		d := r.Route(q)
		for _, w := range want {
			if !slices.Contains(d.Names(), w) {
				t.Errorf("%q: %s not in view %v (signals %v)", q, w, d.Names(), d.Detection.Signals)
			}
		}
	}
	// A format word inside a file's base name or a URL is not an artefact.
	d := liveDetect(t, "open https://example.com/chart-of-the-day and read sales_chart_notes.txt")
	if slices.Contains(d.Signals, "data_visualization") {
		t.Errorf("format word inside a URL or base name counted: %v", d.Signals)
	}
}

func clauseList(d Decision) string {
	var b strings.Builder
	for _, c := range d.Detection.Clauses {
		b.WriteString(c.Text + "->" + c.Tool + "; ")
	}
	return b.String()
}
