package exposure

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A journey is a scripted session taken from a realistic task: requests
// routed through find_tools (or the task prompt) and tool calls, some of
// which fail. Many sessions never route; their calls are the evidence.
type journey struct {
	ID    string `json:"id"`
	Steps []struct {
		Route string         `json:"route"`
		Call  string         `json:"call"`
		Args  map[string]any `json:"args"` // the call's arguments, when the journey gives them
		Fail  bool           `json:"fail"`
	} `json:"steps"`
}

// journeyResult charges each step the tools/list the client holds when the
// model takes it: the client re-fetches on list_changed and sends its last
// list with every model turn. Static is a client holding the full list,
// Oracle one holding exactly the tools the journey calls from that step on.
type journeyResult struct {
	ID                     string
	Steps, Changes         int
	Tokens, Static, Oracle int
	Misses, UsedMisses     []string // calls whose tool was not in the view; those the journey had used before
}

func loadJourneys(t testing.TB) []journey {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "journeys.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var js []journey
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var j journey
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			t.Fatalf("journeys.jsonl: %v", err)
		}
		js = append(js, j)
	}
	return js
}

func runJourney(r *Router, j journey) journeyResult {
	res := journeyResult{ID: j.ID}
	s := r.NewSession(ModeTiered)
	var static []string
	for _, v := range r.Offered(r.ViewAt(TierFull, Detection{}), TierFull) {
		static = append(static, v.Name)
	}
	staticTokens := r.EstimateViewTokens(static)
	var used []string
	for i, st := range j.Steps {
		if st.Call != "" && !r.IsRegistered(st.Call) {
			continue // a tool this server does not have
		}
		res.Steps++
		view := viewNames(s.View())
		res.Tokens += r.EstimateViewTokens(view)
		res.Static += staticTokens
		var future []string
		for _, later := range j.Steps[i:] {
			if later.Call != "" && r.IsRegistered(later.Call) && !slices.Contains(future, later.Call) {
				future = append(future, later.Call)
			}
		}
		res.Oracle += r.EstimateViewTokens(future)
		changed := false
		if st.Route != "" {
			_, changed = s.Route(st.Route)
		} else {
			if !slices.Contains(view, st.Call) {
				res.Misses = append(res.Misses, st.Call)
				if slices.Contains(used, st.Call) {
					res.UsedMisses = append(res.UsedMisses, st.Call)
				}
			}
			changed = s.CallStarted(st.Call, st.Args)
			changed = s.CallFinished(st.Call, !st.Fail) || changed
			used = append(used, st.Call)
		}
		if changed {
			res.Changes++
		}
	}
	return res
}

// journeyRouters are the two settings the goals are stated for: the tools
// registered today, and every catalog tool (38).
func journeyRouters(t testing.TB) map[string]*Router {
	var reg []string
	for _, tx := range liveTexts(t) {
		reg = append(reg, tx.Name)
	}
	return map[string]*Router{
		"registered": liveRouter(t, Config{Registered: append(reg, FindTools)}),
		"catalog":    liveRouter(t, Config{}),
	}
}

type journeyTotals struct {
	tokens, static, oracle, steps, changes, misses, usedMisses int
}

func runJourneys(r *Router, js []journey, each func(journeyResult)) journeyTotals {
	var tot journeyTotals
	for _, j := range js {
		res := runJourney(r, j)
		if each != nil {
			each(res)
		}
		tot.tokens += res.Tokens
		tot.static += res.Static
		tot.oracle += res.Oracle
		tot.steps += res.Steps
		tot.changes += res.Changes
		tot.misses += len(res.Misses)
		tot.usedMisses += len(res.UsedMisses)
	}
	return tot
}

func (t journeyTotals) String() string {
	return fmt.Sprintf("steps=%d list_changed=%d tokens=%d static=%d (%.1f%%) oracle=%d (%.1f%%) misses=%d used_misses=%d",
		t.steps, t.changes, t.tokens, t.static, 100*float64(t.tokens)/float64(t.static), t.oracle,
		100*float64(t.oracle)/float64(t.static), t.misses, t.usedMisses)
}

// TestJourneys holds the journey figures: no call misses a tool the journey
// already used, and the lists' tokens stay under the goal with every
// catalog tool registered (40%). Measured when the run rules narrowed at a
// session's first call, widening after failures stopped at the related
// intents and agreeing follow-ups kept the recommended tier (46 journeys,
// 242 steps, all 38 tools registered): 39.2% of a static list's, 63
// list_changed, 7 misses, 0 used (38.8%, 64 list_changed, once the
// subject of a request stopped outweighing its task); before, with three calls to narrow and
// core calls never narrowing, 53.3%, 57 list_changed, 7 misses. Every journey's first step holds the full list
// (a client that ignores list_changed must see every tool): 19.4% of the
// static list on its own.
func TestJourneys(t *testing.T) {
	js := loadJourneys(t)
	if len(js) < 30 {
		t.Fatalf("%d journeys, want at least 30", len(js))
	}
	goal := map[string]float64{"registered": 0.40, "catalog": 0.40}
	for name, r := range journeyRouters(t) {
		tot := runJourneys(r, js, func(res journeyResult) {
			t.Logf("%s %s: steps=%d tokens=%d static=%d (%.0f%%) oracle=%d misses=%v", name, res.ID, res.Steps, res.Tokens,
				res.Static, 100*float64(res.Tokens)/float64(res.Static), res.Oracle, res.Misses)
		})
		t.Logf("%s total: %s", name, tot)
		if tot.usedMisses != 0 {
			t.Errorf("%s: %d calls missed a tool the journey had used", name, tot.usedMisses)
		}
		if ratio := float64(tot.tokens) / float64(tot.static); ratio >= goal[name] {
			t.Errorf("%s: tokens %.1f%% of the static list's, bound %.0f%%", name, 100*ratio, 100*goal[name])
		}
	}
}

// BenchmarkJourneys reports the journey figures (make bench).
func BenchmarkJourneys(b *testing.B) {
	js := loadJourneys(b)
	for _, name := range []string{"registered", "catalog"} {
		r := journeyRouters(b)[name]
		b.Run(name, func(b *testing.B) {
			var tot journeyTotals
			for b.Loop() {
				tot = runJourneys(r, js, nil)
			}
			b.ReportMetric(100*float64(tot.tokens)/float64(tot.static), "%static")
			b.ReportMetric(100*float64(tot.oracle)/float64(tot.static), "%oracle")
			b.ReportMetric(float64(tot.misses), "misses")
			b.ReportMetric(float64(tot.usedMisses), "used_misses")
			b.Logf("%s: %d journeys, %s", name, len(js), tot)
		})
	}
}
