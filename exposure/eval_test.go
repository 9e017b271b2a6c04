package exposure

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jsonltest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// evalRow is one labelled query of shared/eval or testdata/heldout.jsonl.
type evalRow struct {
	ID         string   `json:"id"`
	Q          string   `json:"q"`
	Tools      []string `json:"tools"`
	ExpectTier string   `json:"expect_tier"`
}

// metrics are those of shared/eval/score_routing.py.
type metrics struct {
	Recall, FirstRec, VagueFull, MeanSize, MeanTokens float64
	N                                                 int
	Misses                                            []string
}

func loadRows(t testing.TB, path string) []evalRow {
	t.Helper()
	return jsonltest.Read[evalRow](t, path)
}

// score runs RouteJSONL over rows and scores the output like
// score_routing.py.
func score(t testing.TB, router *Router, rows []evalRow) metrics {
	return scoreWith(t, router, router.Route, rows)
}

func scoreWith(t testing.TB, router *Router, route func(string) Decision, rows []evalRow) metrics {
	t.Helper()
	var in bytes.Buffer
	for _, r := range rows {
		b, _ := json.Marshal(map[string]string{"id": r.ID, "q": r.Q})
		in.Write(b)
		in.WriteByte('\n')
	}
	var out bytes.Buffer
	if err := routeJSONL(&in, &out, router, route, nil); err != nil {
		t.Fatal(err)
	}
	got := map[string]RouteLine{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var l RouteLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		got[l.ID] = l
	}
	var m metrics
	hit, first, vague, vagueOK := 0, 0, 0, 0
	var sizes, tokens float64
	for _, g := range rows {
		d, ok := got[g.ID]
		if !ok {
			t.Fatalf("%s: no decision", g.ID)
		}
		if g.ExpectTier == "full" {
			vague++
			if d.Tier == TierFull {
				vagueOK++
			} else {
				m.Misses = append(m.Misses, g.ID+": vague query got tier "+string(d.Tier)+" q="+g.Q)
			}
			continue
		}
		m.N++
		exposed := map[string]bool{}
		for _, n := range d.Tools {
			exposed[n] = true
		}
		all := true
		var missing []string
		for _, n := range g.Tools {
			if !exposed[n] {
				all = false
				missing = append(missing, n)
			}
		}
		if all {
			hit++
		} else {
			m.Misses = append(m.Misses, g.ID+": missing "+strings.Join(missing, ",")+" tier="+string(d.Tier)+" q="+g.Q)
		}
		rec := false
		for _, n := range d.Recommended {
			if len(g.Tools) > 0 && n == g.Tools[0] {
				rec = true
			}
		}
		if rec {
			first++
		} else if all {
			m.Misses = append(m.Misses, g.ID+": first not recommended "+g.Tools[0]+" rec="+strings.Join(d.Recommended, ",")+" q="+g.Q)
		}
		sizes += float64(len(d.Tools))
		tokens += float64(d.Tokens)
	}
	if m.N > 0 {
		m.Recall = float64(hit) / float64(m.N)
		m.FirstRec = float64(first) / float64(m.N)
		m.MeanSize = sizes / float64(m.N)
		m.MeanTokens = tokens / float64(m.N)
	}
	m.VagueFull = 1
	if vague > 0 {
		m.VagueFull = float64(vagueOK) / float64(vague)
	}
	return m
}

// findEval walks up from the package directory to find shared/eval (a
// sibling of the clone in CI, /work/shared in development).
func findEval(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		for _, c := range []string{filepath.Join(dir, "shared", "eval"), filepath.Join(dir, "..", "shared", "eval")} {
			if _, err := os.Stat(filepath.Join(c, "routing_dev.jsonl")); err == nil {
				return c
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func report(t *testing.T, name string, m metrics) {
	t.Logf("%s: recall=%.3f first_rec=%.3f vague_full=%.3f mean_size=%.1f mean_tokens=%.0f n=%d",
		name, m.Recall, m.FirstRec, m.VagueFull, m.MeanSize, m.MeanTokens, m.N)
	for _, miss := range m.Misses {
		t.Log("  ", miss)
	}
}

func checkTargets(t *testing.T, m metrics) {
	if m.Recall < 0.97 || m.FirstRec < 0.85 || m.MeanSize > 12 || m.VagueFull < 1 {
		t.Errorf("targets: recall %.3f (>=0.97), first_rec %.3f (>=0.85), mean_size %.1f (<=12), vague_full %.3f (=1)",
			m.Recall, m.FirstRec, m.MeanSize, m.VagueFull)
	}
}

func TestRoutingDevSet(t *testing.T) {
	dir := findEval(t)
	if dir == "" {
		tooltest.Missing(t, "shared/eval/routing_dev.jsonl not found above the package directory")
	}
	router := liveRouter(t, Config{})
	m := score(t, router, loadRows(t, filepath.Join(dir, "routing_dev.jsonl")))
	report(t, "dev", m)
	checkTargets(t, m)
}

func TestRoutingHeldOut(t *testing.T) {
	router := liveRouter(t, Config{})
	var all []evalRow
	for _, name := range []string{"heldout.jsonl", "heldout2.jsonl", "heldout3.jsonl", "heldout4.jsonl", "heldout5.jsonl", "heldout6.jsonl"} {
		rows := loadRows(t, filepath.Join("testdata", name))
		report(t, name, score(t, router, rows))
		all = append(all, rows...)
	}
	m := score(t, router, all)
	report(t, "heldout (both)", m)
	checkTargets(t, m)
}

// compositeSets are the issue-13 held-out sets of requests naming two or
// three tasks (testdata/heldout/README.md has their blind scores).
// composite2, composite3 and composite4 were each written after the last
// change of their time and scored once (composite3's misses were then
// read); they are reported, not held to the targets.
var compositeSets = []string{"composite1.jsonl", "composite2.jsonl", "composite3.jsonl", "composite4.jsonl"}

func TestRoutingComposite(t *testing.T) {
	router := liveRouter(t, Config{})
	for _, name := range compositeSets {
		m := score(t, router, loadRows(t, filepath.Join("testdata", "heldout", name)))
		report(t, name, m)
		if name == "composite1.jsonl" {
			checkTargets(t, m)
		}
	}
}

// TestSeedReference keeps the seed's algorithm as the reference: it still
// runs, finds the seed's own examples, and scores below the real detector.
func TestSeedReference(t *testing.T) {
	for _, c := range []struct{ q, intent string }{
		{"帮我做个PPT", "document_processing"},
		{"生成租赁合同", "professional_docs"},
		{"做个柱状图", "data_analysis"},
		{"做个思维导图", "creative_content"},
		{"出10道数学选择题", "education"},
	} {
		if d := DetectSeed(c.q); d.Primary != c.intent {
			t.Errorf("DetectSeed(%q) = %q, want %q", c.q, d.Primary, c.intent)
		}
	}
	if d := DetectSeed("嗯...那个...帮我弄一下那个"); d.Confidence != 0 || len(d.Intents) != 0 {
		t.Errorf("vague: %+v", d)
	}
	router := liveRouter(t, Config{})
	sets := map[string]string{"heldout": filepath.Join("testdata", "heldout.jsonl"), "heldout2": filepath.Join("testdata", "heldout2.jsonl"), "heldout3": filepath.Join("testdata", "heldout3.jsonl"), "heldout4": filepath.Join("testdata", "heldout4.jsonl"), "heldout5": filepath.Join("testdata", "heldout5.jsonl"), "heldout6": filepath.Join("testdata", "heldout6.jsonl")}
	if dir := findEval(t); dir != "" {
		sets["dev"] = filepath.Join(dir, "routing_dev.jsonl")
	}
	for name, path := range sets {
		rows := loadRows(t, path)
		seed := scoreWith(t, router, router.RouteSeed, rows)
		ours := score(t, router, rows)
		t.Logf("%s seed: recall=%.3f first_rec=%.3f vague_full=%.3f mean_size=%.1f mean_tokens=%.0f",
			name, seed.Recall, seed.FirstRec, seed.VagueFull, seed.MeanSize, seed.MeanTokens)
		if ours.FirstRec <= seed.FirstRec || ours.MeanSize >= seed.MeanSize {
			t.Errorf("%s: detector does not beat the seed: first_rec %.3f vs %.3f, size %.1f vs %.1f",
				name, ours.FirstRec, seed.FirstRec, ours.MeanSize, seed.MeanSize)
		}
	}
}

// TestCalibration checks the evidence behind the default thresholds (0.8,
// 0.5) over a grid. On the dev set, where they were chosen, no grid point
// beats them (as good recall and first recommendation with a smaller list).
// On the dev and the held-out sets the defaults meet the targets, and the
// list only grows as either threshold rises, since a higher bar sends more
// queries to a wider tier. Run with -v to see the grid.
func TestCalibration(t *testing.T) {
	dir := findEval(t)
	if dir == "" {
		tooltest.Missing(t, "shared/eval/routing_dev.jsonl not found above the package directory")
	}
	var heldout []evalRow
	for _, name := range []string{"heldout.jsonl", "heldout2.jsonl", "heldout3.jsonl", "heldout4.jsonl", "heldout5.jsonl", "heldout6.jsonl"} {
		heldout = append(heldout, loadRows(t, filepath.Join("testdata", name))...)
	}
	recs := []float64{0.7, 0.75, 0.8, 0.85, 0.9}
	exts := []float64{0.4, 0.5, 0.6}
	for name, rows := range map[string][]evalRow{"dev": loadRows(t, filepath.Join(dir, "routing_dev.jsonl")), "heldout": heldout} {
		t.Run(name, func(t *testing.T) {
			grid := map[[2]float64]metrics{}
			for _, rec := range recs {
				for _, ext := range exts {
					m := score(t, liveRouter(t, Config{RecommendedAt: rec, ExtendedAt: ext}), rows)
					grid[[2]float64{rec, ext}] = m
					t.Logf("recommended_at=%.2f extended_at=%.2f: recall=%.3f first_rec=%.3f mean_size=%.2f vague_full=%.3f",
						rec, ext, m.Recall, m.FirstRec, m.MeanSize, m.VagueFull)
				}
			}
			def := grid[[2]float64{0.8, 0.5}]
			checkTargets(t, def)
			const eps = 1e-9
			for k, m := range grid {
				if name != "dev" {
					break // held out: not what the defaults were chosen on
				}
				if m.Recall >= def.Recall-eps && m.FirstRec >= def.FirstRec-eps && m.VagueFull >= def.VagueFull-eps && m.MeanSize < def.MeanSize-0.05 {
					t.Errorf("recommended_at=%.2f extended_at=%.2f beats the defaults: size %.2f < %.2f at recall %.3f first_rec %.3f",
						k[0], k[1], m.MeanSize, def.MeanSize, m.Recall, m.FirstRec)
				}
			}
			for i, rec := range recs {
				for j, ext := range exts {
					m := grid[[2]float64{rec, ext}]
					if i > 0 && m.MeanSize < grid[[2]float64{recs[i-1], ext}].MeanSize-eps {
						t.Errorf("raising recommended_at to %.2f (extended_at %.2f) shrank the list: %.2f < %.2f", rec, ext, m.MeanSize, grid[[2]float64{recs[i-1], ext}].MeanSize)
					}
					if j > 0 && m.MeanSize < grid[[2]float64{rec, exts[j-1]}].MeanSize-eps {
						t.Errorf("raising extended_at to %.2f (recommended_at %.2f) shrank the list: %.2f < %.2f", ext, rec, m.MeanSize, grid[[2]float64{rec, exts[j-1]}].MeanSize)
					}
				}
			}
			// The grid spans a real trade-off, so the checks above measure
			// something: the strictest bar exposes more than the defaults.
			if top := grid[[2]float64{0.9, 0.6}]; top.MeanSize <= def.MeanSize {
				t.Errorf("recommended_at 0.90 exposes %.2f tools, no more than the defaults' %.2f: the grid does not test the threshold", top.MeanSize, def.MeanSize)
			}
		})
	}
}
