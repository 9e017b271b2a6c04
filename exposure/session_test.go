package exposure

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func viewNames(v []ViewTool) []string { return names(v) }

func TestSessionTiered(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	// The first list of a tiered session is search's: core, find_tools
	// and call_tool (which reaches every other tool), not the full tier.
	if st := s.State(); st.Tier != TierFull || !slices.Equal(st.View, r.NewSession(ModeSearch).View()) || !slices.Contains(viewNames(st.View), CallTool) {
		t.Fatalf("initial state %+v", st)
	}

	d, changed := s.Route("合并这三个PDF")
	if !changed || d.Tier != TierRecommended {
		t.Fatalf("route: changed %v decision %+v", changed, d)
	}
	// The routed view comes in whole (the rewrite happens anyway), in
	// the canonical order.
	v := s.View()
	i := slices.IndexFunc(v, func(x ViewTool) bool { return x.Name == "pdf_tool" })
	if i < 0 || v[i].Tag != TagRecommended || len(v) > 14 {
		t.Fatalf("recommended view %+v", v)
	}
	if s.Lang() != "zh" {
		t.Fatalf("lang %s", s.Lang())
	}
	if got := Tag("PDF operations.", v[i].Tag, s.Lang()); got != "[推荐] PDF operations." {
		t.Fatalf("tagged %q", got)
	}

	// A success resets the failure count: fail, succeed, fail -> no upgrade.
	if s.CallFinished("pdf_tool", false) || s.CallFinished("pdf_tool", true) || s.CallFinished("pdf_tool", false) {
		t.Fatal("upgrade without two consecutive failures")
	}
	// Second consecutive failure: recommended -> extended, only as far as
	// the related intents' tools (document_assembly, data_analysis), not
	// the lexical ranker's fill up to ExtendedSize.
	recSize := len(s.View())
	if !s.CallFinished("pdf_tool", false) {
		t.Fatal("two failures did not widen the view")
	}
	if st := s.State(); st.Tier != TierExtended || len(st.View) <= recSize || len(st.View) >= 20 || st.Failures != 0 {
		t.Fatalf("after upgrade: tier %s, %d tools (recommended %d), failures %d", st.Tier, len(st.View), recSize, st.Failures)
	}
	for _, tool := range []string{"doc_generator", "data_processor", "data_visualization"} {
		if !inView(s, tool) {
			t.Errorf("related intent's tool %s not in the widened view", tool)
		}
	}
	// Two more: extended -> full; then nothing wider.
	s.CallFinished("pdf_tool", false)
	if !s.CallFinished("pdf_tool", false) || s.State().Tier != TierFull {
		t.Fatal("extended did not widen to full")
	}
	s.CallFinished("x", false)
	if s.CallFinished("x", false) {
		t.Fatal("full widened further")
	}

	// The list stays full after routing again: dropping 30 tools does not
	// pay back the rewrite within the requests this short session is
	// expected to have (ShrinkPays).
	s.Route("合并这三个PDF")
	if len(s.View()) <= len(catalogNames) {
		t.Fatalf("a shrink that does not pay was made: %d tools", len(s.View()))
	}
	// A new session routed, then a call of a tool outside the view: it
	// runs and is pinned.
	s = r.NewSession(ModeTiered)
	s.Route("合并这三个PDF")
	if slices.Contains(viewNames(s.View()), "weather") {
		t.Fatal("weather unexpectedly in the PDF view")
	}
	if !s.CallStarted("weather", nil) {
		t.Fatal("calling an unlisted tool did not change the view")
	}
	if !slices.Contains(viewNames(s.View()), "weather") || s.CallStarted("weather", nil) {
		t.Fatal("weather not pinned, or pinned twice")
	}
	st := s.State()
	if !slices.Equal(st.Pinned, []string{"weather"}) {
		t.Fatalf("pinned %v", st.Pinned)
	}
	// Pins survive a new routing.
	s.Route("做个思维导图")
	if !slices.Contains(viewNames(s.View()), "weather") {
		t.Fatal("pin lost on re-route")
	}
	// History has reasons for every transition (this session: route, pin, drift).
	h := s.State().History
	if len(h) < 3 {
		t.Fatalf("history %+v", h)
	}
	for _, tr := range h {
		if tr.Reason == "" || tr.Time.IsZero() {
			t.Fatalf("transition without reason or time: %+v", tr)
		}
	}
	// A vague request goes back to the full tier.
	if d, _ := s.Route("帮个忙"); d.Tier != TierFull || s.State().Tier != TierFull {
		t.Fatal("vague request did not give the full tier")
	}
}

func TestSessionModes(t *testing.T) {
	r := liveRouter(t, Config{})
	// search: core + find_tools + call_tool, constant.
	s := r.NewSession(ModeSearch)
	want := []string{"file", "shell", "search", "web_fetch", FindTools, CallTool}
	if got := viewNames(s.View()); !slices.Equal(got, want) {
		t.Fatalf("search view %v", got)
	}
	if _, changed := s.Route("合并这三个PDF"); changed || !slices.Equal(viewNames(s.View()), want) {
		t.Fatal("search view changed on route")
	}
	if s.CallStarted("pdf_tool", nil) || s.CallFinished("pdf_tool", false) || s.CallFinished("pdf_tool", false) {
		t.Fatal("search view changed on calls")
	}

	// full: every tool, one constant list: routing answers in find_tools,
	// it does not re-sort or re-tag the list a host has cached.
	s = r.NewSession(ModeFull)
	before, _, version := s.Snapshot()
	if dec, changed := s.Route("合并这三个PDF"); changed || !slices.Equal(s.View(), before) || len(dec.Tools) == 0 || dec.Tools[0].Name != "pdf_tool" {
		t.Fatalf("full mode changed its list on a route (changed %v), or the route found nothing: %v", changed, dec.Tools)
	}
	if v, _, after := s.Snapshot(); len(v) != len(catalogNames)+1 || after != version {
		t.Fatalf("full view has %d tools, version %d -> %d", len(v), version, after)
	}
	s.CallFinished("pdf_tool", false)
	if s.CallFinished("pdf_tool", false) || s.CallStarted("weather", nil) {
		t.Fatal("full mode view changed on calls")
	}
}

func TestSessionConcurrent(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	other := r.NewSession(ModeTiered)
	other.Route("明天北京天气怎么样")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				switch (i + j) % 4 {
				case 0:
					s.Route(fmt.Sprintf("合并第%d个PDF", j))
				case 1:
					s.CallStarted(catalogNames[j%len(catalogNames)], nil)
				case 2:
					s.CallFinished("pdf_tool", j%3 == 0)
				default:
					_ = s.View()
					_ = s.State()
				}
			}
		}()
	}
	wg.Wait()
	// Sessions keep separate views.
	if ov := other.View(); !slices.Contains(viewNames(ov), "weather") || slices.Contains(viewNames(ov), "pdf_tool") {
		t.Fatalf("other session's view changed: %v", viewNames(ov))
	}
}

func TestModeForClient(t *testing.T) {
	for _, c := range []struct{ client, configured, want string }{
		{"claude-code", "auto", ModeFull},
		{"Claude Code", "", ModeFull},
		{"gemini-cli-mcp-client", "auto", ModeSearch}, // re-reads two requests late
		{"Visual Studio Code", "auto", ModeTiered},
		{"vscode", "auto", ModeTiered},
		{"Cline", "auto", ModeTiered},
		{"claude-ai", "auto", ModeSearch}, // Claude Desktop's clientInfo name
		{"Claude Desktop", "auto", ModeSearch},
		{"cursor-vscode", "auto", ModeSearch}, // Cursor, not VS Code
		{"Cursor", "auto", ModeSearch},
		{"codex-mcp-client", "auto", ModeSearch},
		{"some-new-client", "auto", ModeTiered},
		{"", "auto", ModeTiered},
		{"claude-ai", "full", ModeFull},
		{"claude-code", "search", ModeSearch},
		{"cursor", "tiered", ModeTiered},
	} {
		if got := ModeForClient(c.client, c.configured); got != c.want {
			t.Errorf("ModeForClient(%q, %q) = %s, want %s", c.client, c.configured, got, c.want)
		}
	}
}

func TestGuidance(t *testing.T) {
	fams := Families()
	covered := map[string]bool{}
	for _, f := range fams {
		if f.Name == "" || f.Title == "" || FamilyGuide(f.Name) == "" {
			t.Errorf("family %+v lacks a name, title or guide", f)
		}
		for _, in := range f.Intents {
			if covered[in] {
				t.Errorf("intent %s in two families", in)
			}
			covered[in] = true
		}
	}
	for _, in := range IntentNames {
		if !covered[in] {
			t.Errorf("intent %s has no family", in)
		}
	}
	g := Guidance([]string{"document_processing", "data_analysis", "document_assembly"})
	for _, want := range []string{"pdf_tool", "ppt_generator", "data_visualization", "选择决策树"} {
		if !strings.Contains(g, want) {
			t.Errorf("guidance lacks %q", want)
		}
	}
	if n := strings.Count(g, "## "); n != 2 {
		t.Errorf("guidance has %d sections, want 2 (documents, data)", n)
	}
	if all := Guidance(nil); strings.Count(all, "## ") != len(fams) {
		t.Error("vague guidance should hold every family")
	}
	// Every catalog tool appears in some guide.
	all := Guidance(nil)
	for _, n := range catalogNames {
		if !strings.Contains(all, n) {
			t.Errorf("no guide mentions %s", n)
		}
	}
}

// TestSessionTiered_CalledToolBackWhenOfferedAgain: a downstream tool the
// session called by name is listed; held (no longer offered), it leaves
// the list; offered again, it comes back at once and the client is told,
// with no routing to name it.
func TestSessionTiered_CalledToolBackWhenOfferedAgain(t *testing.T) {
	tools := githubLike()
	r := externalRouter(t, tools)
	s := r.NewSession(ModeTiered)
	listed := func() bool {
		return slices.ContainsFunc(s.View(), func(v ViewTool) bool { return v.Name == "github__list_commits" })
	}
	if listed() {
		t.Fatal("a downstream tool in the first list")
	}
	if !s.CallStarted("github__list_commits", nil) || !listed() {
		t.Fatalf("a tool called by name is not listed: %v", viewNames(s.View()))
	}
	r.SetExternal(slices.DeleteFunc(slices.Clone(tools), func(e ExternalTool) bool { return e.Name == "github__list_commits" }))
	if !s.Refresh() || listed() {
		t.Fatalf("a tool no longer offered stays listed: %v", viewNames(s.View()))
	}
	r.SetExternal(tools)
	if !s.Refresh() || !listed() {
		t.Fatalf("the called tool did not come back when offered again: %v", viewNames(s.View()))
	}
}
