package exposure

import (
	"slices"
	"strings"
	"testing"
)

func inView(s *Session, tool string) bool {
	return slices.ContainsFunc(s.View(), func(v ViewTool) bool { return v.Name == tool })
}

// A session that never routes narrows after NarrowAfterCalls consecutive
// calls within one family, with one transition and one change.
func TestSessionEvidence_NarrowsAfterCallsInOneFamily(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	full := len(s.View())
	// Core tools neither count nor break the run.
	for i, tool := range []string{"data_processor", "file", "data_visualization"} {
		if s.CallStarted(tool) {
			t.Fatalf("call %d (%s) changed the full view", i, tool)
		}
	}
	if st := s.State(); st.Tier != TierFull || st.Streak != 2 || st.StreakFamily != "data" {
		t.Fatalf("before the third call: %+v", st)
	}
	hist := len(s.State().History)
	if !s.CallStarted("data_processor") {
		t.Fatal("third call in the data family did not narrow the view")
	}
	st := s.State()
	if st.Tier != TierExtended || st.NarrowedTo != "data" || len(st.View) >= full {
		t.Fatalf("after narrowing: tier %s narrowed %q, %d tools (full %d)", st.Tier, st.NarrowedTo, len(st.View), full)
	}
	if len(st.History) != hist+1 || !strings.Contains(st.History[hist].Reason, "3 consecutive calls in family data") {
		t.Fatalf("want one transition with its reason, got %+v", st.History[hist:])
	}
	for _, tool := range []string{"data_processor", "data_visualization", "file"} {
		if !inView(s, tool) {
			t.Errorf("called tool %s not in the narrowed view", tool)
		}
	}
	if s.CallStarted("data_visualization") {
		t.Error("a call inside the narrowed view changed it again")
	}
}

// A call in another family breaks the run; find_tools takes precedence.
func TestSessionEvidence_RoutingTakesPrecedence(t *testing.T) {
	r := liveRouter(t, Config{})
	s := r.NewSession(ModeTiered)
	s.CallStarted("pdf_tool")
	s.CallStarted("data_processor") // another family: the run restarts
	s.CallStarted("pdf_tool")
	if st := s.State(); st.Tier != TierFull {
		t.Fatalf("broken run narrowed: %+v", st)
	}
	s.Route("合并这三个PDF")
	before := s.State().Tier
	for range 5 {
		s.CallStarted("data_processor")
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
		s.CallStarted("pdf_tool")
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
	s.CallStarted("pdf_tool")
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
	s.CallStarted("weather")
	s.CallStarted("weather")
	if !inView(s, "pdf_tool") {
		t.Fatal("pin dropped before PinCalls calls")
	}
	hist := len(s.State().History)
	if !s.CallStarted("weather") || inView(s, "pdf_tool") {
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
	s.CallStarted("weather")
	s.CallStarted("pdf_tool")
	hist := len(s.State().History)
	if !s.CallStarted("calendar") {
		t.Fatal("outside call did not change the view")
	}
	h := s.State().History[hist:]
	if len(h) != 1 || !strings.Contains(h[0].Reason, "pinned calendar") || !strings.Contains(h[0].Reason, "unpinned weather") {
		t.Fatalf("want one transition naming both changes, got %+v", h)
	}
}
