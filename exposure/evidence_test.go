package exposure

import (
	"slices"
	"strings"
	"testing"
)

// These tests hold the evidence rules: what the routing state asks the
// view to be (the ideal a tiered list moves towards when a change pays or
// a needed tool is missing; TestSessionList holds the list itself).
func inView(s *Session, tool string) bool {
	return slices.ContainsFunc(idealOf(s), func(v ViewTool) bool { return v.Name == tool })
}

func idealOf(s *Session) []ViewTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.build()
}

// idealStarted and idealFinished report whether the call changed the ideal.
func idealStarted(s *Session, tool string, args map[string]any) bool {
	before := idealOf(s)
	s.CallStarted(tool, args)
	return !slices.Equal(before, idealOf(s))
}

func idealFinished(s *Session, tool string, ok bool) bool {
	before := idealOf(s)
	s.CallFinished(tool, ok)
	return !slices.Equal(before, idealOf(s))
}

// A session that never routes narrows after NarrowAfterCalls consecutive
// calls within one family, with one transition and one change (here set
// to 3; the default, 1, is TestSessionEvidence_DefaultNarrowsAtFirstCall).
func TestSessionEvidence_NarrowsAfterCallsInOneFamily(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: 3})
	s := r.NewSession(ModeTiered)
	full := len(idealOf(s))
	// Core tools neither count nor break the run.
	for i, tool := range []string{"data_processor", "file", "data_visualization"} {
		if idealStarted(s, tool, nil) {
			t.Fatalf("call %d (%s) changed the full view", i, tool)
		}
	}
	if st := s.State(); st.Tier != TierFull || st.Streak != 2 || st.StreakFamily != "data" {
		t.Fatalf("before the third call: %+v", st)
	}
	hist := len(s.State().History)
	if !idealStarted(s, "data_processor", nil) {
		t.Fatal("third call in the data family did not narrow the view")
	}
	st := s.State()
	// Both called tools are data_analysis tools: the evidence agrees, so
	// the view is that intent's recommended tier.
	if st.Tier != TierRecommended || st.NarrowedTo != "data" || len(idealOf(s)) >= full {
		t.Fatalf("after narrowing: tier %s narrowed %q, %d tools (full %d)", st.Tier, st.NarrowedTo, len(idealOf(s)), full)
	}
	if len(st.History) != hist+1 || !strings.Contains(st.History[hist].Reason, "3 consecutive calls in family data") {
		t.Fatalf("want one transition with its reason, got %+v", st.History[hist:])
	}
	for _, tool := range []string{"data_processor", "data_visualization", "file"} {
		if !inView(s, tool) {
			t.Errorf("called tool %s not in the narrowed view", tool)
		}
	}
	if idealStarted(s, "data_visualization", nil) {
		t.Error("a call inside the narrowed view changed it again")
	}
}

// A call in another family breaks the run; find_tools takes precedence.
func TestSessionEvidence_RoutingTakesPrecedence(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: 3})
	s := r.NewSession(ModeTiered)
	idealStarted(s, "pdf_tool", nil)
	idealStarted(s, "data_processor", nil) // another family: the run restarts
	idealStarted(s, "pdf_tool", nil)
	if st := s.State(); st.Tier != TierFull {
		t.Fatalf("broken run narrowed: %+v", st)
	}
	s.Route("合并这三个PDF")
	before := s.State().Tier
	for range 5 {
		idealStarted(s, "data_processor", nil)
	}
	st := s.State()
	if st.Tier != before || st.NarrowedTo != "" || !st.ByRequest {
		t.Fatalf("calls overrode routing: tier %s -> %s, narrowed %q", before, st.Tier, st.NarrowedTo)
	}
	if !inView(s, "data_processor") {
		t.Fatal("called tool outside the routed view not pinned")
	}
}

// Disabled narrowing (negative) keeps the full view; calls still pin.
func TestSessionEvidence_NarrowingOff(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: -1})
	s := r.NewSession(ModeTiered)
	for range 6 {
		idealStarted(s, "pdf_tool", nil)
	}
	if st := s.State(); st.Tier != TierFull || st.NarrowedTo != "" {
		t.Fatalf("narrowed with narrowing off: %+v", st)
	}
}

// Drift: a routed request about another task replaces the intents; tools
// used in the last calls stay pinned for PinCalls calls, then drop.
func TestSessionEvidence_DriftReplacesIntentsPinsExpire(t *testing.T) {
	r := liveRouter(t, Config{PinCalls: 3})
	s := r.NewSession(ModeTiered)
	s.Route("合并这三个PDF")
	idealStarted(s, "pdf_tool", nil)
	s.Route("明天北京天气怎么样")
	st := s.State()
	if slices.Contains(st.Intents, "document_processing") || st.Primary != "daily_assistant" {
		t.Fatalf("intents piled up: %v", st.Intents)
	}
	if !strings.Contains(st.History[len(st.History)-1].Reason, "drift") {
		t.Errorf("drift not recorded: %q", st.History[len(st.History)-1].Reason)
	}
	if !inView(s, "pdf_tool") {
		t.Fatal("tool in progress lost its place after the drift")
	}
	idealStarted(s, "weather", nil)
	idealStarted(s, "weather", nil)
	if !inView(s, "pdf_tool") {
		t.Fatal("pin dropped before PinCalls calls")
	}
	hist := len(s.State().History)
	if !idealStarted(s, "weather", nil) || inView(s, "pdf_tool") {
		t.Fatal("pin not dropped after PinCalls calls without use")
	}
	if h := s.State().History; len(h) != hist+1 || !strings.Contains(h[hist].Reason, "unpinned pdf_tool") {
		t.Fatalf("unpin transition: %+v", h[hist:])
	}
}

// Each call's changes are one transition: pinning an outside tool and
// expiring another are reported together.
func TestSessionEvidence_OneTransitionPerCall(t *testing.T) {
	r := liveRouter(t, Config{PinCalls: 2})
	s := r.NewSession(ModeTiered)
	s.Route("合并这三个PDF")
	idealStarted(s, "weather", nil)
	idealStarted(s, "pdf_tool", nil)
	hist := len(s.State().History)
	if !idealStarted(s, "calendar", nil) {
		t.Fatal("outside call did not change the view")
	}
	h := s.State().History[hist:]
	if len(h) != 1 || !strings.Contains(h[0].Reason, "pinned calendar") || !strings.Contains(h[0].Reason, "unpinned weather") {
		t.Fatalf("want one transition naming both changes, got %+v", h)
	}
}

// A run within one family but across its intents narrows to the family's
// extended tier: the evidence does not agree on one intent.
func TestSessionEvidence_MixedIntentsNarrowToExtended(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: 3})
	s := r.NewSession(ModeTiered)
	for _, tool := range []string{"pdf_tool", "doc_generator", "pdf_tool"} {
		idealStarted(s, tool, nil)
	}
	st := s.State()
	if st.Tier != TierExtended || st.NarrowedTo != "documents" {
		t.Fatalf("tier %s narrowed %q, want extended documents", st.Tier, st.NarrowedTo)
	}
	if !strings.Contains(st.History[len(st.History)-1].Reason, "narrowed to its extended tier") {
		t.Fatalf("reason %q", st.History[len(st.History)-1].Reason)
	}
}

// narrowedToDocuments fails t unless s made one transition, for reason, to
// the recommended tier of the documents family: under half of full tools.
func narrowedToDocuments(t *testing.T, s *Session, full int, reason string) {
	t.Helper()
	st := s.State()
	if st.Tier != TierRecommended || st.NarrowedTo != "documents" || len(idealOf(s)) >= full/2 {
		t.Fatalf("tier %s narrowed %q, %d tools (full %d)", st.Tier, st.NarrowedTo, len(idealOf(s)), full)
	}
	if len(st.History) != 1 || !strings.Contains(st.History[0].Reason, reason) {
		t.Fatalf("want one transition with its reason: %+v", st.History)
	}
}

// A call's arguments are evidence like a request: a confident detection
// narrows a session that never routed at its first call, one transition
// and one change, the called tool recommended; further calls in the view
// change nothing.
func TestSessionEvidence_ArgumentsNarrowAtOnce(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	full := len(idealOf(s))
	if !idealStarted(s, "pdf_tool", map[string]any{"action": "merge", "paths": []any{"q1.pdf", "q2.pdf"}, "output": "all.pdf"}) {
		t.Fatal("a merge of pdfs did not narrow the view")
	}
	narrowedToDocuments(t, s, full, "arguments of pdf_tool")
	if v := idealOf(s)[0]; v.Name != "pdf_tool" || v.Tag != TagRecommended {
		t.Fatalf("called tool not first and recommended: %+v", idealOf(s)[:2])
	}
	if idealStarted(s, "pdf_tool", map[string]any{"action": "encrypt", "path": "all.pdf"}) {
		t.Fatal("a call inside the narrowed view changed it")
	}
}

// The arguments and the tool agree: a detection at the extended tier's
// confidence whose intent is the called tool's own narrows too; one at the
// same confidence pointing elsewhere, or no evidence at all, waits (the
// run rules are off here: only arguments are tested).
func TestSessionEvidence_ArgumentsMustAgreeOrBeConfident(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: -1})
	s := r.NewSession(ModeTiered)
	if idealStarted(s, "file", map[string]any{"action": "read", "path": "notes.txt"}) {
		t.Fatalf("a file read narrowed the view: %+v", s.State().History)
	}
	if idealStarted(s, "shell", map[string]any{"command": "ls -la"}) {
		t.Fatalf("ls narrowed the view: %+v", s.State().History)
	}
	if s.State().Tier != TierFull {
		t.Fatal("weak evidence left the full tier")
	}
}

// find_tools and the task prompt take precedence over arguments.
func TestSessionEvidence_ArgumentsDoNotOverrideRouting(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	s.Route("check the weather in Paris tomorrow")
	before := s.State()
	idealStarted(s, "pdf_tool", map[string]any{"action": "merge", "paths": []any{"a.pdf", "b.pdf"}})
	st := s.State()
	if st.Primary != before.Primary || st.Tier != before.Tier {
		t.Fatalf("arguments overrode routing: %s/%s -> %s/%s", before.Primary, before.Tier, st.Primary, st.Tier)
	}
	if !inView(s, "pdf_tool") {
		t.Fatal("a call outside the view was not pinned")
	}
}

// Secret fields are not evidence; nested lists and objects are, in key
// order (deterministic), bounded.
func TestSessionEvidence_ArgumentTextSkipsSecrets(t *testing.T) {
	got := argumentText(map[string]any{
		"path": "a.pdf", "user_password": "hunter2", "api_key": "k", "opts": map[string]any{"token": "t", "title": "Q3"},
		"paths": []any{"b.pdf", 3, true}, "n": 5,
	})
	if got != "Q3 a.pdf b.pdf" {
		t.Fatalf("argument text %q", got)
	}
	long := argumentText(map[string]any{"text": strings.Repeat("x", 5000)})
	if len(long) > maxArgumentText+len("…") {
		t.Fatalf("argument text not bounded: %d bytes", len(long))
	}
}

// The default narrows at a session's first call of a catalog tool outside
// the core: one call says which task the session is on as well as three
// do in the journeys (same misses, 39.2% against 49.5% of a static list's
// tokens), and a call outside the narrowed view still runs and is pinned.
func TestSessionEvidence_DefaultNarrowsAtFirstCall(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	full := len(idealOf(s))
	if !idealStarted(s, "pdf_tool", nil) {
		t.Fatal("the first pdf_tool call did not narrow the view")
	}
	narrowedToDocuments(t, s, full, "1 consecutive calls in family documents")
	if idealStarted(s, "pdf_tool", nil) || idealStarted(s, "format_converter", nil) {
		t.Fatal("a call inside the narrowed view changed it")
	}
}

// Drift by calls: a session narrowed by its calls follows a call outside
// its view to that tool's family, replacing the old intents; the tools in
// progress stay pinned, and calling a pinned tool again moves nothing.
func TestSessionEvidence_DriftByCallsReplacesFamily(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	idealStarted(s, "pdf_tool", nil)
	hist := len(s.State().History)
	if !idealStarted(s, "data_processor", nil) {
		t.Fatal("a call outside the narrowed view did not change it")
	}
	st := s.State()
	if st.NarrowedTo != "data" || st.Primary != "data_analysis" || slices.Contains(st.Intents, "document_processing") {
		t.Fatalf("drift did not replace the family: narrowed %q intents %v", st.NarrowedTo, st.Intents)
	}
	if h := st.History[hist:]; len(h) != 1 || !strings.Contains(h[0].Reason, "drift: replaces documents") {
		t.Fatalf("want one transition naming the drift: %+v", h)
	}
	for _, tool := range []string{"pdf_tool", "data_processor", "data_visualization"} {
		if !inView(s, tool) {
			t.Errorf("%s not in the view after the drift", tool)
		}
	}
	if idealStarted(s, "pdf_tool", nil) {
		t.Fatal("calling a pinned tool again moved the view")
	}
	if st := s.State(); st.NarrowedTo != "data" {
		t.Fatalf("pinned call re-narrowed to %q", st.NarrowedTo)
	}
}

// Core tools serve every task, so a session that only calls them is weak
// evidence: one call narrows to the extended tier of their intent (which
// still holds the related intents' tools), the next to its recommended
// tier; a non-core call then narrows to its own family, the core calls'
// tools kept.
func TestSessionEvidence_CoreCallsNarrowWeakly(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	full := len(idealOf(s))
	if !idealStarted(s, "file", nil) {
		t.Fatal("a first core call did not narrow")
	}
	st := s.State()
	if st.Tier != TierExtended || st.Primary != "file_operation" || len(idealOf(s)) >= full {
		t.Fatalf("after one core call: tier %s primary %s, %d tools", st.Tier, st.Primary, len(idealOf(s)))
	}
	for _, tool := range []string{"pdf_tool", "format_converter", "system"} {
		if !inView(s, tool) {
			t.Errorf("related tool %s not in the weak view", tool)
		}
	}
	if !idealStarted(s, "shell", nil) {
		t.Fatal("a second core call did not narrow further")
	}
	if st := s.State(); st.Tier != TierRecommended || st.Primary != "file_operation" {
		t.Fatalf("after two core calls: tier %s primary %s", st.Tier, st.Primary)
	}
	idealStarted(s, "data_processor", nil)
	st = s.State()
	if st.NarrowedTo != "data" || st.Tier != TierRecommended || !inView(s, "file") || !inView(s, "shell") {
		t.Fatalf("a non-core call after core calls: narrowed %q tier %s", st.NarrowedTo, st.Tier)
	}
}

// Widening after failures is not undone by the run rules: a core-narrowed
// view widened by two failures stays widened on the next core call.
func TestSessionEvidence_WideningAfterFailuresStays(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	idealStarted(s, "file", nil)
	idealStarted(s, "file", nil)
	idealFinished(s, "file", false)
	idealStarted(s, "file", nil)
	if !idealFinished(s, "file", false) {
		t.Fatal("two failures did not widen")
	}
	if st := s.State(); st.Tier != TierExtended {
		t.Fatalf("after two failures: tier %s", st.Tier)
	}
	if idealStarted(s, "file", nil) || s.State().Tier != TierExtended {
		t.Fatalf("a core call undid the widening: tier %s", s.State().Tier)
	}
}

// A core tool's arguments count by the artefacts they name: reading a .csv
// points at the data tools at once; words alone (a shell command) do not.
func TestSessionEvidence_CoreArgumentsCountByArtefact(t *testing.T) {
	r := liveRouter(t, Config{NarrowAfterCalls: -1})
	s := r.NewSession(ModeTiered)
	if !idealStarted(s, "file", map[string]any{"action": "read", "path": "sales_2024.csv"}) {
		t.Fatal("reading a csv did not narrow")
	}
	st := s.State()
	if st.Tier != TierRecommended || st.Primary != "data_analysis" || !inView(s, "data_processor") {
		t.Fatalf("tier %s primary %s view %v", st.Tier, st.Primary, st.View)
	}
	if !strings.Contains(st.History[0].Reason, "arguments of file") {
		t.Fatalf("reason %q", st.History[0].Reason)
	}
	s2 := r.NewSession(ModeTiered)
	if s2.CallStarted("shell", map[string]any{"command": "make report"}) {
		t.Fatalf("a shell command's words narrowed: %+v", s2.State().History)
	}
}

// A follow-up request at the extended tier's confidence whose primary
// intent is the one the session is on gets the recommended tier (the
// session's evidence agrees); the same request in a fresh session, or in
// one on another task, keeps the router's extended tier.
func TestSessionEvidence_AgreeingFollowUpStaysRecommended(t *testing.T) {
	r := liveRouter(t, Config{})
	const followUp = "再把合并后的文件转成word"
	if d := r.Route(followUp); d.Tier != TierExtended || d.Primary != "document_processing" {
		t.Skipf("the follow-up is routed %s/%s now: this case needs an extended one", d.Tier, d.Primary)
	}
	s := r.NewSession(ModeTiered)
	s.Route("合并这三个PDF")
	d, _ := s.Route(followUp)
	st := s.State()
	if d.Tier != TierRecommended || st.Tier != TierRecommended || !inView(s, "format_converter") || !inView(s, "pdf_tool") {
		t.Fatalf("agreeing follow-up: decision %s, session %s, view %v", d.Tier, st.Tier, viewNames(st.View))
	}
	if !slices.Equal(viewNames(d.Tools), viewNames(r.ViewAt(TierRecommended, d.Detection))) {
		t.Fatal("the decision's tools are not the recommended view find_tools reports")
	}
	if h := st.History[len(st.History)-1]; !strings.Contains(h.Reason, "the session is on document_processing") {
		t.Fatalf("reason %q", h.Reason)
	}
	for _, first := range []string{"", "明天北京天气怎么样"} {
		o := r.NewSession(ModeTiered)
		if first != "" {
			o.Route(first)
		}
		if d, _ := o.Route(followUp); d.Tier != TierExtended {
			t.Fatalf("after %q the follow-up got %s", first, d.Tier)
		}
	}
}

// A view widened to full after failures stays full whatever narrowed it
// before (a core run or a family run): the next calls only pin.
func TestSessionEvidence_FullAfterFailuresStaysFull(t *testing.T) {
	r := liveRouter(t, Config{})
	for _, first := range []string{"file", "pdf_tool"} {
		s := r.NewSession(ModeTiered)
		idealStarted(s, first, nil)
		for range 4 { // two failures per tier
			idealFinished(s, first, false)
		}
		if st := s.State(); st.Tier != TierFull {
			t.Fatalf("%s: four failures left tier %s", first, st.Tier)
		}
		idealStarted(s, "data_processor", nil)
		if st := s.State(); st.Tier != TierFull {
			t.Fatalf("%s: a call after the widening narrowed to %s %q", first, st.Tier, st.NarrowedTo)
		}
	}
}
