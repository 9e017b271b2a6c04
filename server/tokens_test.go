package server

import (
	"sort"
	"testing"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/jsonltest"
)

// tokenRequests are the fixed requests (10 Chinese, 10 English) over which
// the schema token cost is measured; they are not from the routing dev set.
func tokenRequests(t testing.TB) []string {
	t.Helper()
	var qs []string
	for _, r := range jsonltest.Read[struct{ Q string }](t, "testdata/token_requests.jsonl") {
		qs = append(qs, r.Q)
	}
	if len(qs) != 20 {
		t.Fatalf("token_requests.jsonl has %d requests, want 20", len(qs))
	}
	return qs
}

// schemaTokens is the token cost of the views over the fixed requests, as
// `clawbridge route` counts it (Server.ViewTokens: the JSON of registered
// tools, the catalog estimate for the others).
type schemaTokens struct {
	recMean, recMin, recMax float64 // the recommended-tier view, as route reports it
	publishedMean           float64 // the same view, registered tools only (what tools/list sends)
	full                    int     // every registered tool
	tools                   int     // registered tools
	full19                  int     // the 19 tools tools/list held when issue 12 was filed
}

// issue12Tools are the tools tools/list held when issue 12 was filed
// (4fd5b1a: the 18 registered tools and find_tools), whose full list the
// issue's goal bounds as more tools join.
var issue12Tools = []string{
	"browser", "browser_use", "web_fetch", "file", "shell", "screen", "system",
	"pdf_tool", "format_converter", "ppt_generator", "doc_generator", "contract_generator",
	"resume_builder", "mind_map", "data_processor", "data_visualization", "financial_report",
	"db_query", exposure.FindTools,
}

func measureSchemaTokens(t testing.TB, s *Server) schemaTokens {
	qs := tokenRequests(t)
	var m schemaTokens
	m.recMin = 1e9
	for _, q := range qs {
		det := s.router.Route(q).Detection
		view := s.router.ViewAt(exposure.TierRecommended, det)
		var all, published []string
		for _, v := range view {
			all = append(all, v.Name)
		}
		for _, v := range s.router.Offered(view, exposure.TierRecommended) {
			published = append(published, v.Name)
		}
		n := float64(s.ViewTokens(all))
		m.recMean += n / float64(len(qs))
		m.recMin, m.recMax = min(m.recMin, n), max(m.recMax, n)
		m.publishedMean += float64(s.ViewTokens(published)) / float64(len(qs))
	}
	var names []string
	for _, t := range s.order {
		names = append(names, t.Name)
	}
	m.full, m.tools = s.ViewTokens(names), len(names)
	m.full19 = s.ViewTokens(issue12Tools)
	return m
}

// Bounds at what the schemas cost now (issue 12): a change that makes the
// views heavier fails here. The issue's goal for the recommended view is
// 3,500 (3,490 now: saying which action takes which parameter, issue 27,
// cost 33 tokens over 3,457); for the full list of its 19 tools, 11,000.
const (
	recMeanBound = 3500
	full19Bound  = 11000
)

// TestSchemaTokens_Report logs the schema token cost over the fixed requests.
func TestSchemaTokens_Report(t *testing.T) {
	s := registryServer(t, "tiered")
	m := measureSchemaTokens(t, s)
	t.Logf("schema tokens over %d requests: recommended view mean %.0f (min %.0f, max %.0f), published %.0f; full list %d tokens, %d tools; issue 12's 19 tools %d",
		20, m.recMean, m.recMin, m.recMax, m.publishedMean, m.full, m.tools, m.full19)
	if m.tools < 18 {
		t.Fatalf("only %d tools registered; the budget is for 18+", m.tools)
	}
	if m.recMean > recMeanBound {
		t.Errorf("recommended view mean %.0f tokens, bound %d", m.recMean, recMeanBound)
	}
	if m.full19 > full19Bound {
		t.Errorf("full list of issue 12's 19 tools %d tokens, bound %d", m.full19, full19Bound)
	}
	// Per tool: its own cost, how many of the recommended views hold it and
	// its share of the mean, largest share first — where trimming pays.
	type row struct {
		name          string
		tokens, views int
	}
	var rows []row
	for _, tl := range s.order {
		r := row{name: tl.Name, tokens: s.ViewTokens([]string{tl.Name})}
		for _, q := range tokenRequests(t) {
			for _, v := range s.router.ViewAt(exposure.TierRecommended, s.router.Route(q).Detection) {
				if v.Name == tl.Name {
					r.views++
				}
			}
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i].tokens*rows[i].views, rows[j].tokens*rows[j].views
		if a != b {
			return a > b
		}
		return rows[i].tokens > rows[j].tokens
	})
	for _, r := range rows {
		t.Logf("%-20s %5d tokens, in %2d/20 views, %4.0f of the mean", r.name, r.tokens, r.views, float64(r.tokens*r.views)/20)
	}
}

// BenchmarkSchemaTokens reports the same figures in `make bench`.
func BenchmarkSchemaTokens(b *testing.B) {
	s := registryServer(b, "tiered")
	var m schemaTokens
	for b.Loop() {
		m = measureSchemaTokens(b, s)
	}
	b.ReportMetric(m.recMean, "rec_mean_tokens")
	b.ReportMetric(m.recMax, "rec_max_tokens")
	b.ReportMetric(m.publishedMean, "rec_published_tokens")
	b.ReportMetric(float64(m.full), "full_tokens")
	b.ReportMetric(float64(m.tools), "tools")
	b.ReportMetric(float64(m.full19), "full19_tokens")
}
