package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/exposure"
	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jsonltest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Routing over an aggregated catalog: the native registered tools plus the
// downstream tools of every manifest in fixtures/bridge/manifests (the
// bridge's Manifest JSON, as cached in <data_dir>/bridge), published as
// tools from the cache without starting anything. Routing hints per server
// come from fixtures/bridge/hints.json. The labelled requests are
// exposure/testdata/bridge_routing.jsonl: {"id","q","tools"} with the tools
// a request needs (native or <server>__<tool>).

const (
	aggManifests = "../fixtures/bridge/manifests"
	aggHints     = "../fixtures/bridge/hints.json"
	aggRequests  = "../exposure/testdata/bridge_routing.jsonl"  // the rules were tuned on its misses
	aggBlind     = "../exposure/testdata/bridge_routing2.jsonl" // written blind after that; its misses were read in the second round
	aggBlind3    = "../exposure/testdata/bridge_routing3.jsonl" // written blind after the rules of sets 1 and 2; its misses were then read
	aggBlind4    = "../exposure/testdata/bridge_routing4.jsonl" // written blind after the third round, scored once; its misses were then read
	aggBlind5    = "../exposure/testdata/bridge_routing5.jsonl" // written blind before the fourth round landed, scored once after it
)

type aggRequest struct {
	ID    string   `json:"id"`
	Q     string   `json:"q"`
	Tools []string `json:"tools"`
}

// aggregatedServer is the real registry with the fixture manifests'
// servers published as tools.
func aggregatedServer(tb testing.TB) *Server {
	tb.Helper()
	hints := map[string]serverHints{}
	if b, err := os.ReadFile(aggHints); err == nil {
		if err := json.Unmarshal(b, &hints); err != nil {
			tb.Fatalf("%s: %v", aggHints, err)
		}
	}
	return manifestServer(tb, aggManifests, hints)
}

// serverHints are a downstream server's routing hints in its config.
type serverHints struct {
	Intents  []string `json:"intents"`
	Keywords []string `json:"keywords"`
}

// manifestServer is the real registry, tiered, with the servers of the
// bridge manifests in dir published as tools from the cache: nothing is
// started, routing needs only the manifests (and the hints given).
func manifestServer(tb testing.TB, dir string, hints map[string]serverHints) *Server {
	tb.Helper()
	d := tooltest.Deps(tb)
	d.Config.Exposure.Mode = "tiered"
	files, _ := filepath.Glob(filepath.Join(dir, "*.manifest.json"))
	if len(files) == 0 {
		tb.Fatalf("no manifests in %s", dir)
	}
	cache := filepath.Join(d.Config.DataDir, "bridge")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		tb.Fatal(err)
	}
	var servers []config.BridgeServer
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var man downstream.Manifest
		if err := json.Unmarshal(b, &man); err != nil || man.Server == "" {
			tb.Fatalf("%s: not a bridge manifest: %v", f, err)
		}
		if err := os.WriteFile(filepath.Join(cache, man.Server+".manifest.json"), b, 0o600); err != nil {
			tb.Fatal(err)
		}
		h := hints[man.Server]
		servers = append(servers, config.BridgeServer{Name: man.Server, Command: "false", Intents: h.Intents, Keywords: h.Keywords})
	}
	m := bridgeOn(tb, d, config.Bridge{Servers: servers, StartTimeout: time.Second, CallTimeout: time.Second, IdleStop: time.Hour})
	s, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Bridge: m, Tools: allTools(tb, d), Log: zerolog.Nop(), Version: "bench"})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func readAggRequests(tb testing.TB, path string) []aggRequest {
	tb.Helper()
	return jsonltest.Read[aggRequest](tb, path)
}

// aggScore is what TestBridgeRouting_Aggregated reports.
type aggScore struct {
	tools, requests      int
	recall, firstRec     float64
	fullTokens           int
	meanTokens, meanSize float64
	misses               []string
}

func scoreAggregated(s *Server, reqs []aggRequest) aggScore {
	all := slices.Concat(registeredNames(s), s.router.External())
	sc := aggScore{tools: len(all), requests: len(reqs), fullTokens: s.ViewTokens(all)}
	for _, r := range reqs {
		dec := s.router.Route(r.Q)
		view := s.router.Offered(dec.Tools, dec.Tier)
		names := make([]string, len(view))
		for i, v := range view {
			names[i] = v.Name
		}
		hit := 0
		for _, t := range r.Tools {
			if slices.Contains(names, t) {
				hit++
			}
		}
		sc.recall += float64(hit) / float64(len(r.Tools))
		if slices.ContainsFunc(view, func(v exposure.ViewTool) bool { return v.Name == r.Tools[0] && v.Tag == exposure.TagRecommended }) {
			sc.firstRec++
		} else {
			sc.misses = append(sc.misses, r.ID+" "+r.Tools[0]+" not recommended in "+string(dec.Tier)+" "+strings.Join(dec.Recommended(), ","))
		}
		sc.meanTokens += float64(s.ViewTokens(names))
		sc.meanSize += float64(len(names))
	}
	n := float64(len(reqs))
	sc.recall, sc.firstRec, sc.meanTokens, sc.meanSize = sc.recall/n, sc.firstRec/n, sc.meanTokens/n, sc.meanSize/n
	return sc
}

func registeredNames(s *Server) []string {
	out := make([]string, 0, len(s.order))
	for _, t := range s.order {
		out = append(out, t.Name)
	}
	return out
}

// TestBridgeRouting_Aggregated reports recall, first_rec (the first needed
// tool tagged recommended), the tokens of the full aggregated tools/list
// and of the mean routed view, and their ratio. The goals (ratio under
// 15%, recall at least 0.95) are checked once the catalog reaches 100
// tools: below that the full list is too small for the ratio to mean much.
func TestBridgeRouting_Aggregated(t *testing.T) {
	s := aggregatedServer(t)
	if len(s.router.External()) == 0 {
		t.Fatal("no downstream tool was published from the fixture manifests")
	}
	// The goal is recall 0.95. The bounds are what the rules reach today,
	// so a change that loses ground fails here. The first set's misses were
	// read while writing the rules (0.597 at first, 0.874 after the
	// vocabulary and named-server rules, 0.971 after the verb/object reading
	// of tool names, typo tolerance and per-server ranking): it is not
	// blind. The second was written blind after that and scored 0.859
	// (first_rec 0.798, view 7.1%); its misses were then read and fixed
	// by class (an action on a numbered thing, nouns used as verbs, paths
	// and globs as objects, a server's initials, the second action of a
	// request, more glossary): 0.975, first_rec 0.961, view 6.9%. It is no
	// longer blind either. The third was written blind after both rounds
	// and scored once: recall 0.921, first_rec 0.881, view 8.6%; a third
	// round then read its misses and fixed them by class (owner/name is a
	// repository and its bare #N an issue or PR, questions about what was
	// done read, verbs inside nouns such as 修改时间, more glossary):
	// 0.944, first_rec 0.940, view 7.3%. It is no longer blind either.
	// The fourth was written blind after the third round and scored once:
	// recall 0.888, first_rec 0.775, view 7.5% — on unseen requests the
	// rules stayed below the goal. A fourth round read its misses and
	// fixed their causes (a confident native detection no longer hides a
	// downstream tool whose objects the native intents never speak of;
	// objects one or two servers' names hold imply those servers; a
	// sending from one server to another reads the source; content for a
	// document; shell commands, review and profile words, typos of hint
	// keywords, more glossary): 0.967, first_rec 0.971, view 7.3%. It is
	// no longer blind either: its blind figure is 0.888. The fifth (158
	// requests) was written blind while that round was under way and
	// scored once after it: recall 0.975, first_rec 0.892, view 8.4%
	// (13.6 tools) — the first unseen set over the goal. Its misses have
	// not been read for tuning; the bound was its blind score.
	// Issue 31 replaced the rules' gate with one ranking model (rank.go,
	// measured on public benchmarks) in which these rules are evidence and
	// a view holds at most 13 tools besides find_tools and call_tool: sets
	// 1-5 went 0.988/0.983/0.956/0.964/0.975 -> 0.983/0.987/0.947/0.967/
	// 0.965; the bounds of sets 3 and 5 are those figures. Decisions that
	// configured servers' tools lead became unsure (extended tier), as the
	// public sets asked: 0.983/0.994/0.945/0.978/0.965 (set 3 lost two
	// native tools crowded out of the view by the named server's others).
	for _, set := range []struct {
		path  string
		bound float64
	}{{aggRequests, 0.98}, {aggBlind, 0.98}, {aggBlind3, 0.94}, {aggBlind4, 0.96}, {aggBlind5, 0.96}} {
		t.Run(filepath.Base(set.path), func(t *testing.T) {
			reqs := readAggRequests(t, set.path)
			sc := scoreAggregated(s, reqs)
			ratio := sc.meanTokens / float64(sc.fullTokens)
			t.Logf("tools=%d requests=%d recall=%.3f first_rec=%.3f full_tokens=%d mean_view_tokens=%.0f ratio=%.3f mean_size=%.1f",
				sc.tools, sc.requests, sc.recall, sc.firstRec, sc.fullTokens, sc.meanTokens, ratio, sc.meanSize)
			for _, m := range sc.misses {
				t.Log("miss: " + m)
			}
			for _, r := range reqs {
				for _, n := range r.Tools {
					if _, ok := s.lookupTool(n); !ok {
						t.Errorf("%s needs %s, which is neither registered nor published", r.ID, n)
					}
				}
			}
			if sc.tools < 100 {
				t.Logf("fewer than 100 tools loaded: the goals are not checked")
				return
			}
			if sc.recall < set.bound {
				t.Errorf("recall %.3f below the bound %.2f (goal 0.95)", sc.recall, set.bound)
			} else if sc.recall < 0.95 {
				t.Logf("recall %.3f: the goal 0.95 is not met on this set", sc.recall)
			}
			if ratio >= 0.15 {
				t.Errorf("mean view is %.1f%% of the full list's tokens; the goal is under 15%%", 100*ratio)
			}
		})
	}
}

// BenchmarkBridgeRouting is one routing decision over the aggregated
// catalog, with the figures of TestBridgeRouting_Aggregated as metrics.
func BenchmarkBridgeRouting(b *testing.B) {
	s := aggregatedServer(b)
	reqs := readAggRequests(b, aggRequests)
	sc := scoreAggregated(s, reqs)
	i := 0
	for b.Loop() {
		r := reqs[i%len(reqs)]
		s.router.Offered(s.router.Route(r.Q).Tools, exposure.TierRecommended)
		i++
	}
	// After the loop: b.Loop resets the timer, which drops metrics reported before it.
	b.ReportMetric(sc.recall, "recall")
	b.ReportMetric(sc.firstRec, "first_rec")
	b.ReportMetric(float64(sc.fullTokens), "full_tokens")
	b.ReportMetric(sc.meanTokens/float64(sc.fullTokens), "view_ratio")
}

// TestBridgeRouting_NativeRequestsStayNative: with the eight servers'
// tools loaded, requests labelled with native tools only (the held-out
// native sets) rarely get a downstream tool recommended. 18 of 160 did
// before the fourth routing round, 9 after it (some of them name a
// server: "ping the #ops channel on Slack"); the bound keeps it there.
func TestBridgeRouting_NativeRequestsStayNative(t *testing.T) {
	s := aggregatedServer(t)
	n, total := 0, 0
	for _, f := range []string{"heldout.jsonl", "heldout2.jsonl", "heldout3.jsonl"} {
		for _, r := range readAggRequests(t, filepath.Join("../exposure/testdata", f)) {
			if slices.ContainsFunc(r.Tools, func(n string) bool { return strings.Contains(n, "__") }) {
				continue
			}
			total++
			if rec := s.router.Route(r.Q).Recommended(); slices.ContainsFunc(rec, func(n string) bool { return strings.Contains(n, "__") }) {
				n++
				t.Logf("%s %q: %v", r.ID, r.Q, rec)
			}
		}
	}
	t.Logf("%d of %d native requests got a downstream tool recommended", n, total)
	if n > 10 {
		t.Errorf("%d of %d native requests got a downstream tool recommended; the bound is 10", n, total)
	}
}
