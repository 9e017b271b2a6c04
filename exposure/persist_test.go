package exposure

import (
	"reflect"
	"testing"
)

// TestSessionPersist_RoundTrip: a state loaded into a fresh session (as
// another instance would) gives the same view, tier, intents, pins, counts
// and history, for a routed view, an extended one (built from the lexical
// evidence), views narrowed by calls and by core calls; bad state changes
// nothing.
func TestSessionPersist_RoundTrip(t *testing.T) {
	r := liveRouter(t, Config{})
	for _, drive := range []func(s *Session){
		func(s *Session) {
			s.Route("合并这三个PDF")
			s.CallStarted("pdf_tool", nil)
			s.CallStarted("file", nil)
		},
		func(s *Session) {
			s.Route("merge these PDFs")
			s.CallFinished("pdf_tool", false)
			s.CallFinished("pdf_tool", false)
		},
		func(s *Session) {
			for range 3 {
				s.CallStarted("calendar", map[string]any{"action": "list"})
			}
		},
		// Narrowed by one core call: the next core call (below) narrows
		// further only if the core run was kept.
		func(s *Session) { s.CallStarted("file", nil) },
		// Drift by calls: the run began outside the view.
		func(s *Session) {
			s.CallStarted("pdf_tool", nil)
			s.CallStarted("data_processor", nil)
		},
	} {
		a := r.NewSession(ModeTiered)
		drive(a)
		b, err := a.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		other := r.NewSession(ModeFull)
		changed, err := other.LoadState(b)
		if err != nil {
			t.Fatal(err)
		}
		want, got := a.State(), other.State()
		for i := range want.History { // JSON keeps the instant, not the monotonic reading or zone pointer
			want.History[i].Time = want.History[i].Time.UTC().Round(0)
			got.History[i].Time = got.History[i].Time.UTC()
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("loaded state differs:\nwant %+v\n got %+v", want, got)
		}
		if !changed && !reflect.DeepEqual(want.View, r.NewSession(ModeFull).View()) {
			t.Fatal("a changed view was reported unchanged")
		}
		// The loaded session goes on like the original.
		a.CallStarted("shell", nil)
		other.CallStarted("shell", nil)
		if !reflect.DeepEqual(a.State().View, other.State().View) || a.State().Calls != other.State().Calls {
			t.Fatal("the loaded session diverged on the next call")
		}
	}
	s := r.NewSession(ModeTiered)
	before := s.State()
	for _, bad := range []string{`{`, `{"mode":"bogus"}`} {
		if _, err := s.LoadState([]byte(bad)); err == nil {
			t.Fatalf("%s loaded", bad)
		}
	}
	if !reflect.DeepEqual(before, s.State()) {
		t.Fatal("bad state changed the session")
	}
}
