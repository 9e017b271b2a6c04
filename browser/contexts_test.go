package browser

import (
	"testing"

	"github.com/clawbridge/clawbridge/fixtures/site"
)

// TestOpenContexts_FollowSessions: a session's context counts from its first
// operation until CloseSession, which the server's
// clawbridge_browser_contexts_open gauge reports.
func TestOpenContexts_FollowSessions(t *testing.T) {
	needBrowser(t)
	srv := site.Start(t)
	ctx := ctxT(t)
	base := testMgr.OpenContexts()
	a, b := testMgr.Session("ctx-a"), testMgr.Session("ctx-b")
	defer testMgr.CloseSession("ctx-a")
	defer testMgr.CloseSession("ctx-b")
	if n := testMgr.OpenContexts(); n != base {
		t.Fatalf("sessions that never ran an operation hold %d contexts, want %d", n, base)
	}
	for _, s := range []*Session{a, b, a} {
		navigate(ctx, t, s, srv.At("/cookie"))
	}
	if n := testMgr.OpenContexts(); n != base+2 {
		t.Fatalf("two sessions that navigated: %d contexts, want %d", n, base+2)
	}
	testMgr.CloseSession("ctx-a")
	testMgr.CloseSession("ctx-a") // twice: counted once
	if n := testMgr.OpenContexts(); n != base+1 {
		t.Fatalf("after closing one: %d contexts, want %d", n, base+1)
	}
	testMgr.CloseSession("ctx-b")
	if n := testMgr.OpenContexts(); n != base {
		t.Fatalf("after closing both: %d contexts, want %d", n, base)
	}
}
