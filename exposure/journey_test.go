package exposure

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jsonltest"
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

// The journeys are replayed in each of these modes: the product's three,
// a static full list that never changes (the baseline) and an oracle that
// knew the session's tools from the start and never changed its list.
//
// A third bound, foresight, is the best a server can do: the server sees
// nothing of the task before the model's first request, so its first list
// is search's; at the first step that needs a tool outside it (a routing
// or a call), the list becomes everything the session will use, once.
// The gap between the oracle and foresight is that one rewrite, which no
// policy avoids.
const (
	benchStatic    = "static"
	benchOracle    = "oracle"
	benchForesight = "foresight"
)

var benchModes = []string{ModeTiered, ModeSearch, ModeFull, benchStatic, benchOracle, benchForesight}

// History sizes, in tokens, each step appends: the user's request, the
// model's tool call, and the call's result. Results are a fixed realistic
// size per tool (what the tools answer for a typical call: a file read or
// a page is long, a generator's answer is a path and a summary).
const (
	requestTokens = 30
	callTokens    = 50
)

func resultTokens(tool string) int {
	switch tool {
	case "web_fetch", "browser", "browser_use", "literature_search", "knowledge_rag":
		return 1500 // a page's text or outline, a set of passages
	case "file", "coding_assistant":
		return 1000 // a file's content, a diff
	case "search":
		return 900 // ten results with snippets
	case "shell", "python_runner", "db_query", "data_processor", "system", "ocr", "speech":
		return 600 // a command's output, a table's head, extracted text
	case FindTools:
		return 400 // the routed tools, their tags and one line each
	default:
		return 300 // a generator's or a service's answer: a path, an id, a summary
	}
}

// costSettings are the three prices the goals are stated for.
var costSettings = []struct {
	Name    string
	System  int
	Pricing Pricing
}{
	{"anthropic_3k", 3000, AnthropicPricing},
	{"anthropic_15k", 15000, AnthropicPricing},
	{"openai_3k", 3000, OpenAIPricing},
}

// replay is one journey replayed in one mode.
type replay struct {
	Reqs      []CostRequest
	Announced int // list_changed the session sent
	// Calls whose tool was not in the list the model held; those the
	// journey had called before; those the last routing had named.
	Misses, UsedMisses, RoutedMisses []string
}

func loadJourneyFile(t testing.TB, name string) []journey {
	t.Helper()
	return jsonltest.Read[journey](t, filepath.Join("testdata", name))
}

// loadJourneys returns the bench's journeys: the short ones and the long
// coding-agent sessions (the held-out long sessions are scored apart).
func loadJourneys(t testing.TB) []journey {
	return append(loadJourneyFile(t, "journeys.jsonl"), loadJourneyFile(t, "journeys_long.jsonl")...)
}

func listKey(v []ViewTool) string {
	var b strings.Builder
	for _, t := range v {
		b.WriteString(t.Name + ":" + t.Tag + ",")
	}
	return b.String()
}

// replayJourney replays j in mode. Each step is one model request carrying
// the list the client holds: the session's list after the previous step's
// events, or relist requests later for a client that re-reads it in the
// background. The step then appends its request, the call and its result
// to the history.
func replayJourney(r *Router, j journey, mode string, relist int) replay {
	var res replay
	var steps []int
	for i, st := range j.Steps {
		if st.Call != "" && !r.IsRegistered(st.Call) {
			continue // a tool this server does not have
		}
		steps = append(steps, i)
	}
	var fixed []ViewTool // the list of the static and oracle modes
	var s *Session
	switch mode {
	case benchStatic:
		fixed = r.NewSession(ModeFull).View()
	case benchOracle, benchForesight:
		for _, i := range steps {
			st := j.Steps[i]
			name := st.Call
			if st.Route != "" {
				name = FindTools
			}
			if !slices.ContainsFunc(fixed, func(v ViewTool) bool { return v.Name == name }) {
				fixed = append(fixed, ViewTool{Name: name})
			}
		}
	default:
		s = r.NewSession(mode)
	}
	var first []ViewTool // foresight's list until the first need
	if mode == benchForesight {
		first = r.NewSession(ModeSearch).View()
	}
	current := func() []ViewTool {
		if first != nil {
			return first
		}
		if s == nil {
			return fixed
		}
		return s.View()
	}
	v0 := current()
	held := [][]ViewTool{v0} // held[k]: the list after k steps
	history := 0
	var used, routed []string
	for n, i := range steps {
		st := j.Steps[i]
		list := held[max(0, n-relist)]
		names := viewNames(list)
		res.Reqs = append(res.Reqs, CostRequest{ListKey: listKey(list), List: r.EstimateViewTokens(names), History: history})
		tool := st.Call
		changed := false
		if st.Route != "" {
			tool = FindTools
			if s != nil {
				var d Decision
				d, changed = s.Route(st.Route)
				// The tools the routing named: a full-tier decision
				// (no evidence) names none in particular.
				routed = routed[:0]
				if d.Tier != TierFull {
					for _, v := range r.Offered(d.Tools, d.Tier) {
						routed = append(routed, v.Name)
					}
				}
			}
		} else {
			if !slices.Contains(names, tool) {
				res.Misses = append(res.Misses, tool)
				if slices.Contains(used, tool) {
					res.UsedMisses = append(res.UsedMisses, tool)
				}
				if slices.Contains(routed, tool) {
					res.RoutedMisses = append(res.RoutedMisses, tool)
				}
			}
			if s != nil {
				changed = s.CallStarted(tool, st.Args)
				changed = s.CallResult(tool, !st.Fail, resultTokens(tool)) || changed
			}
			used = append(used, tool)
		}
		if first != nil && !slices.Contains(viewNames(first), tool) {
			first = nil // foresight: the session's tools from the next request on
			changed = true
		}
		if changed {
			res.Announced++
		}
		v := current()
		held = append(held, v)
		history += requestTokens + callTokens + resultTokens(tool)
	}
	return res
}

// benchTotals sums a mode's replays over journeys.
type benchTotals struct {
	Journeys, Steps, Changes, Announced int
	Misses, UsedMisses, RoutedMisses    int
	Cost                                []float64 // per costSettings
}

func (t *benchTotals) add(rp replay) {
	t.Journeys++
	t.Steps += len(rp.Reqs)
	t.Announced += rp.Announced
	t.Misses += len(rp.Misses)
	t.UsedMisses += len(rp.UsedMisses)
	t.RoutedMisses += len(rp.RoutedMisses)
	if t.Cost == nil {
		t.Cost = make([]float64, len(costSettings))
	}
	for k, c := range costSettings {
		cost, changes := SessionCost(rp.Reqs, c.System, c.Pricing)
		t.Cost[k] += cost
		if k == 0 {
			t.Changes += changes
		}
	}
}

// benchJourneys replays every journey in every mode; the result maps a
// mode to its totals.
func benchJourneys(r *Router, js []journey, relist int) map[string]*benchTotals {
	out := map[string]*benchTotals{}
	for _, mode := range benchModes {
		tot := &benchTotals{}
		for _, j := range js {
			tot.add(replayJourney(r, j, mode, relist))
		}
		out[mode] = tot
	}
	return out
}

// ratios are a mode's costs over the static list's, per costSettings.
func ratios(all map[string]*benchTotals, mode string) []float64 {
	var out []float64
	for k := range costSettings {
		out = append(out, all[mode].Cost[k]/all[benchStatic].Cost[k])
	}
	return out
}

func benchTable(all map[string]*benchTotals) string {
	var b strings.Builder
	b.WriteString("mode     anthropic_3k anthropic_15k openai_3k  changes announced misses used routed\n")
	for _, mode := range benchModes {
		t, q := all[mode], ratios(all, mode)
		fmt.Fprintf(&b, "%-8s %11.2fx %12.2fx %8.2fx %8d %9d %6d %4d %6d\n", mode, q[0], q[1], q[2],
			t.Changes, t.Announced, t.Misses, t.UsedMisses, t.RoutedMisses)
	}
	return b.String()
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

// TestJourneys replays the journeys in every mode and reports each mode's
// cost against the static list (Anthropic at system 3k and 15k,
// OpenAI-style at 3k; the client re-reads the list at once, relist 0) and
// an oracle. It holds that full and search never change their list (full
// costs what the static list does), and that no call of a tool the
// session used, nor of one its last routing named, falls outside the
// tiered list. Issue 28's cost
// goals (tiered ≤ 0.45/0.62/0.40, search ≤ 0.25/0.50/0.24, full 1.00) are
// not met yet: the figures are in the log and in make bench.
func TestJourneys(t *testing.T) {
	for _, set := range []string{"journeys.jsonl", "journeys_long.jsonl"} {
		js := loadJourneyFile(t, set)
		for name, r := range journeyRouters(t) {
			all := benchJourneys(r, js, 0)
			t.Logf("%s %s, %d journeys, %d steps, relist 0:\n%s", set, name, len(js), all[benchStatic].Steps, benchTable(all))
			checkCostGoals(t, name, all)
		}
	}
}

func checkCostGoals(t *testing.T, name string, all map[string]*benchTotals) {
	t.Helper()
	if c := all[ModeTiered]; c.UsedMisses != 0 || c.RoutedMisses != 0 {
		t.Errorf("%s tiered: %d calls of a used tool and %d of a routed tool outside the list", name, c.UsedMisses, c.RoutedMisses)
	}
	for _, mode := range []string{ModeFull, ModeSearch} {
		if c := all[mode].Changes; c != 0 {
			t.Errorf("%s %s: the list changed %d times; it must never change", name, mode, c)
		}
	}
}

// TestJourneys_HeldOut scores the held-out long sessions
// (testdata/journeys_heldout.jsonl: scored once, before and after the
// policy work on branch cost; do not tune on it) with the same checks.
func TestJourneys_HeldOut(t *testing.T) {
	js := loadJourneyFile(t, "journeys_heldout.jsonl")
	for name, r := range journeyRouters(t) {
		all := benchJourneys(r, js, 0)
		t.Logf("%s held-out, %d journeys, %d steps, relist 0:\n%s", name, len(js), all[benchStatic].Steps, benchTable(all))
		checkCostGoals(t, name, all)
	}
}

// BenchmarkJourneys reports the journey figures (make bench): cost over the
// static list's per mode and price, at relist 0 and 1.
func BenchmarkJourneys(b *testing.B) {
	js := loadJourneys(b)
	for _, name := range []string{"registered", "catalog"} {
		r := journeyRouters(b)[name]
		for _, relist := range []int{0, 1, 2} {
			b.Run(fmt.Sprintf("%s/relist%d", name, relist), func(b *testing.B) {
				var all map[string]*benchTotals
				for b.Loop() {
					all = benchJourneys(r, js, relist)
				}
				for _, mode := range []string{ModeTiered, ModeSearch, ModeFull, benchOracle} {
					for k, q := range ratios(all, mode) {
						b.ReportMetric(q, mode+"_"+costSettings[k].Name+"_x")
					}
				}
				b.ReportMetric(float64(all[ModeTiered].Changes), "tiered_changes")
				b.ReportMetric(float64(all[ModeTiered].UsedMisses), "tiered_used_misses")
				b.Logf("%s relist %d: %d journeys, %d steps\n%s", name, relist, len(js), all[benchStatic].Steps, benchTable(all))
			})
		}
	}
}

// TestAutoMode_CostsLeast holds AutoMode's rule for a client that re-reads
// the list, on the journeys at the client's relist: the cheapest mode that
// keeps every used and routed tool in the list when the model calls it,
// if one costs less than the static list (at a 3k system prompt, Anthropic
// and OpenAI-style prices); otherwise search, the cheapest, whose calls go
// through call_tool. At a 15k system prompt every growth rewrites 15k
// tokens and tiered costs about what the static list does (foresight
// too): the server cannot see the prompt's size, so that is logged.
func TestAutoMode_CostsLeast(t *testing.T) {
	r := journeyRouters(t)["catalog"]
	js := loadJourneys(t)
	for relist := range 3 {
		all := benchJourneys(r, js, relist)
		want := ModeSearch
		tiered := all[ModeTiered]
		if q := ratios(all, ModeTiered); tiered.UsedMisses == 0 && tiered.RoutedMisses == 0 && q[0] < 1 && q[2] < 1 {
			want = ModeTiered
		}
		if q, s := ratios(all, ModeTiered), ratios(all, ModeSearch); want == ModeSearch && q[0] < s[0] {
			t.Errorf("relist %d: tiered costs less than search (%.2f < %.2f) but loses the contract; the rule needs a look", relist, q[0], s[0])
		}
		got := ClientRule{Match: "x", ListChanged: true, Relist: relist}.AutoMode()
		t.Logf("relist %d: tiered %.2fx (15k %.2fx; misses used %d, routed %d), search %.2fx: %s", relist,
			ratios(all, ModeTiered)[0], ratios(all, ModeTiered)[1], tiered.UsedMisses, tiered.RoutedMisses, ratios(all, ModeSearch)[0], want)
		if got != want {
			t.Errorf("relist %d: AutoMode gives %s; the journeys say %s", relist, got, want)
		}
	}
	if got := (ClientRule{Match: "x"}).AutoMode(); got != ModeSearch {
		t.Errorf("a client that never re-reads gets %s, want search", got)
	}
	if got := (ClientRule{Match: "x", ListChanged: true, Relist: 1, DefersSchemas: true}).AutoMode(); got != ModeFull {
		t.Errorf("a client that defers schemas gets %s, want full", got)
	}
}
