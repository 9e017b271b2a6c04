package exposure

import (
	"slices"
	"testing"
)

func tagOf(v []ViewTool, name string) (string, bool) {
	for _, t := range v {
		if t.Name == name {
			return t.Tag, true
		}
	}
	return "", false
}

func TestRouteTiersAndOrder(t *testing.T) {
	r := liveRouter(t, Config{})
	d := r.Route("合并这三个PDF")
	if d.Tier != TierRecommended || d.Lang != "zh" || d.Primary != "document_processing" {
		t.Fatalf("decision %+v", d)
	}
	if d.Tools[0] != (ViewTool{"pdf_tool", TagRecommended}) {
		t.Fatalf("first tool %+v, want pdf_tool recommended", d.Tools[0])
	}
	if n := len(d.Tools); n < 6 || n > 12 {
		t.Fatalf("recommended view has %d tools: %v", n, d.Names())
	}
	// Order: recommended, then alternatives, then core; every core tool is there.
	rank := map[string]int{TagRecommended: 0, TagAlternative: 1, TagCore: 2}
	for i := 1; i < len(d.Tools); i++ {
		if rank[d.Tools[i].Tag] < rank[d.Tools[i-1].Tag] {
			t.Fatalf("view out of order: %+v", d.Tools)
		}
	}
	for _, c := range []string{"file", "shell", "search", "web_fetch"} {
		if tag, ok := tagOf(d.Tools, c); !ok || (tag != TagCore && tag != TagRecommended) {
			t.Errorf("core %s: tag %q present %v", c, tag, ok)
		}
	}
	// The other tools of the intent are alternatives.
	if tag, _ := tagOf(d.Tools, "format_converter"); tag != TagAlternative {
		t.Errorf("format_converter tag %q", tag)
	}

	// Dependencies: doc_generator pulls in what it assembles.
	d = r.Route("生成一份项目周报的Word文档")
	for _, dep := range []string{"image_generator", "data_visualization"} {
		if _, ok := tagOf(d.Tools, dep); !ok {
			t.Errorf("dependency %s missing from %v", dep, d.Names())
		}
	}

	// Extended: about 20; full: all.
	det := r.Detector().Detect("合并这三个PDF")
	ext := r.ViewAt(TierExtended, det)
	if len(ext) < 15 || len(ext) > 20 {
		t.Errorf("extended view has %d tools", len(ext))
	}
	for _, v := range r.ViewAt(TierRecommended, det) {
		if tag, ok := tagOf(ext, v.Name); !ok || tag != v.Tag {
			t.Errorf("extended view lacks %+v of the recommended view", v)
		}
	}
	full := r.ViewAt(TierFull, det)
	if len(full) != len(catalogNames) || full[0].Name != "pdf_tool" {
		t.Errorf("full view: %d tools, first %v", len(full), full[0])
	}
}

func TestTierThresholds(t *testing.T) {
	r := liveRouter(t, Config{RecommendedAt: 0.9, ExtendedAt: 0.6})
	for c, want := range map[float64]Tier{0.95: TierRecommended, 0.9: TierRecommended, 0.89: TierExtended, 0.6: TierExtended, 0.59: TierFull, 0: TierFull} {
		if got := r.TierFor(c); got != want {
			t.Errorf("TierFor(%v) = %s, want %s", c, got, want)
		}
	}
	if _, err := NewRouter(Config{RecommendedAt: 0.5, ExtendedAt: 0.7}); err == nil {
		t.Error("extended above recommended accepted")
	}
	if _, err := NewRouter(Config{Core: []string{"file", "teleport"}}); err == nil {
		t.Error("unknown core tool accepted")
	}
}

func TestOfferedOnlyRegistered(t *testing.T) {
	r := liveRouter(t, Config{Registered: []string{"file", "shell", "search", "pdf_tool", "my_plugin"}})
	d := r.Route("合并这三个PDF")
	// Routing is over the catalog...
	if _, ok := tagOf(d.Tools, "format_converter"); !ok {
		t.Fatal("routing should be computed over the whole catalog")
	}
	// ...the offered view only holds registered tools.
	got := names(r.Offered(d.Tools, d.Tier))
	if !slices.Equal(got, []string{"pdf_tool", "file", "shell", "search"}) {
		t.Fatalf("offered %v", got)
	}
	full := names(r.Offered(r.ViewAt(TierFull, d.Detection), TierFull))
	if !slices.Contains(full, "my_plugin") || slices.Contains(full, "weather") {
		t.Fatalf("offered full %v", full)
	}
}

func TestTag(t *testing.T) {
	desc := "Merge, split and encrypt PDFs."
	for _, c := range []struct{ tag, lang, want string }{
		{TagRecommended, "en", "[recommended] " + desc},
		{TagAlternative, "en", "[alternative] " + desc},
		{TagCore, "en", "[core] " + desc},
		{TagRecommended, "zh", "[推荐] " + desc},
		{TagAlternative, "zh", "[备选] " + desc},
		{TagCore, "zh", "[核心] " + desc},
		{"", "zh", desc},
		{"bogus", "en", desc},
	} {
		if got := Tag(desc, c.tag, c.lang); got != c.want {
			t.Errorf("Tag(%q,%q) = %q", c.tag, c.lang, got)
		}
	}
	if desc != "Merge, split and encrypt PDFs." {
		t.Fatal("input mutated")
	}
}

// The recommended tier's payload is at most 30% of the full tier's.
func TestRecommendedPayloadShare(t *testing.T) {
	r := liveRouter(t, Config{})
	full := r.EstimateViewTokens(catalogNames)
	for _, q := range []string{"合并这三个PDF", "plot a pie chart of the budget split", "生成一份项目总结的Word文档", "查一下杭州今天的天气，然后在钉钉群里通知大家带伞"} {
		d := r.Route(q)
		if d.Tier != TierRecommended {
			t.Errorf("%q: tier %s", q, d.Tier)
			continue
		}
		rec := r.EstimateViewTokens(d.Names())
		t.Logf("%q: %d tools, %d tokens (%.0f%% of %d)", q, len(d.Tools), rec, 100*float64(rec)/float64(full), full)
		if float64(rec) > 0.3*float64(full) {
			t.Errorf("%q: recommended payload %d > 30%% of %d", q, rec, full)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abcd": 1, "abcde": 2, "合并PDF": 3, "合并这三个": 5} {
		if got := EstimateTokens(s); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", s, got, want)
		}
	}
}

// The detector is compiled on first use; the embedded tables must compile
// (the server relies on this test rather than compiling them at start).
func TestRouterReady_EmbeddedTablesCompile(t *testing.T) {
	r, err := NewRouter(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Ready(); err != nil {
		t.Fatalf("embedded tables do not compile: %v", err)
	}
	if d := r.Route("合并这三个PDF"); len(d.Intents) == 0 {
		t.Errorf("a routed request found no intent after a lazy compile: %+v", d)
	}
}
