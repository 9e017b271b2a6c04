package server

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The cached tools/list of a session must be exactly what rendering its
// current view afresh gives, after every kind of view change (routing,
// language, pins, failures, mode), and an unchanged view must reuse it.

// registryServer is a server over every native tool in exposure mode mode.
func registryServer(tb testing.TB, mode string) *Server {
	tb.Helper()
	d := tooltest.Deps(tb)
	d.Config.Exposure.Mode = mode
	return newServer(tb, d, allTools(tb, d)...)
}

func listNames(t *testing.T, c *client.Client) ([]string, string) {
	t.Helper()
	res, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names, descs []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		descs = append(descs, tl.Description)
	}
	return names, strings.Join(descs, "\n")
}

// onlySession returns the one kept session of s.
func onlySession(t *testing.T, s *Server) *session {
	t.Helper()
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	if len(s.sessions.m) != 1 {
		t.Fatalf("%d sessions kept, want 1", len(s.sessions.m))
	}
	for _, sess := range s.sessions.m {
		return sess
	}
	return nil
}

// assertFresh checks that what the session is served equals a fresh render.
func assertFresh(t *testing.T, s *Server, sess *session, step string) {
	t.Helper()
	view, _, _ := sess.exp.Snapshot()
	want := s.viewTools(view)
	got := s.listFor(sess)
	if len(got) != len(want) {
		t.Fatalf("%s: cached list has %d tools, a fresh render %d", step, len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Description != want[i].Description {
			t.Fatalf("%s: tool %d is %s %q in the cache, %s %q fresh", step, i, got[i].Name, got[i].Description, want[i].Name, want[i].Description)
		}
	}
}

func TestViewCache_ListFollowsEveryViewChange(t *testing.T) {
	s := registryServer(t, exposure.ModeTiered)
	url := (&fixture{s: s}).http(t)
	c := dial(t, url, mcp.ProtocolVersion20251125, nil)

	first, _ := listNames(t, c)
	sess := onlySession(t, s)
	assertFresh(t, s, sess, "initial")
	// The first list is search's: core, find_tools and call_tool.
	if !slices.Contains(first, exposure.FindTools) || !slices.Contains(first, exposure.CallTool) || slices.Contains(first, "pdf_tool") {
		t.Fatalf("initial list %v, want search's (core, find_tools, call_tool)", first)
	}

	// Routing brings the routed tools in; their tags are English whatever
	// the request's language.
	call(t, c, exposure.FindTools, map[string]any{"request": "合并这三个PDF"})
	zh, zhText := listNames(t, c)
	assertFresh(t, s, sess, "routed zh")
	if len(zh) <= len(first) || !slices.Contains(zh, "pdf_tool") || strings.Contains(zhText, "[推荐]") || !strings.Contains(zhText, "[recommended]") {
		t.Fatalf("after routing a PDF request the list is %v (English tags: %v)", zh, strings.Contains(zhText, "[recommended]"))
	}

	// The same request in English: the same view is the same text, byte
	// for byte (a client's cached prefix survives the change of language).
	call(t, c, exposure.FindTools, map[string]any{"request": "merge these three PDF files"})
	en, enText := listNames(t, c)
	assertFresh(t, s, sess, "routed en")
	if slices.Equal(en, zh) && enText != zhText {
		t.Fatalf("the same view in another language is another text")
	}

	// A call outside the view pins the tool into the next list.
	outside := ""
	for _, v := range s.router.NewSession(exposure.ModeFull).View() {
		if n := v.Name; !slices.Contains(en, n) && n != exposure.FindTools {
			outside = n
			break
		}
	}
	if outside == "" {
		t.Fatal("every tool is in the routed view; the pin step proves nothing")
	}
	call(t, c, outside, map[string]any{"action": "no_such_action"})
	pinned, _ := listNames(t, c)
	assertFresh(t, s, sess, "pinned")
	if !slices.Contains(pinned, outside) {
		t.Fatalf("%s called outside the view is not in the next list %v", outside, pinned)
	}

	// Failures in a row widen the tier.
	before := len(pinned)
	for range s.cfg.Exposure.FailuresToUpgrade {
		call(t, c, "file", map[string]any{"action": "stat", "path": "../../outside-the-jail"})
	}
	wider, _ := listNames(t, c)
	assertFresh(t, s, sess, "widened")
	if len(wider) <= before {
		t.Fatalf("after %d failures the list has %d tools, before %d", s.cfg.Exposure.FailuresToUpgrade, len(wider), before)
	}
}

func TestViewCache_UnchangedViewReusesList(t *testing.T) {
	s := registryServer(t, exposure.ModeTiered)
	a := s.sessions.get("a", "test", kindConnection)
	b := s.sessions.get("b", "test", kindConnection)
	first := s.listFor(a)
	if unsafe.SliceData(s.listFor(a)) != unsafe.SliceData(first) {
		t.Error("an unchanged view was rendered again")
	}
	if unsafe.SliceData(s.listFor(b)) != unsafe.SliceData(first) {
		t.Error("a second session in the same view did not share the rendered list")
	}
	a.exp.Route("合并这三个PDF")
	routed := s.listFor(a)
	if unsafe.SliceData(routed) == unsafe.SliceData(first) || len(routed) == len(first) {
		t.Fatal("a routed view served the old list")
	}
	if unsafe.SliceData(s.listFor(b)) != unsafe.SliceData(first) || len(s.listFor(b)) != len(first) {
		t.Error("routing one session changed another's list")
	}
	// A route that changes nothing keeps the version, so the list is reused.
	v := a.exp.Version()
	a.exp.Route("合并这三个PDF")
	if a.exp.Version() != v || unsafe.SliceData(s.listFor(a)) != unsafe.SliceData(routed) {
		t.Error("routing the same request again invalidated an unchanged view")
	}
}

// Sessions in different modes share the content-keyed cache but never each
// other's list: a tiered session's first list is search's, the same
// bytes; full lists every tool; a routing moves the tiered list only.
func TestViewCache_ModesKeepTheirOwnLists(t *testing.T) {
	s := registryServer(t, exposure.ModeAuto)
	search := s.sessions.get("desk", "claude-ai", kindConnection) // Claude Desktop's client name: search mode
	tiered := s.sessions.get("vsc", "Visual Studio Code", kindConnection)
	full := s.sessions.get("code", "claude-code", kindConnection)
	if search.exp.Mode() != exposure.ModeSearch || tiered.exp.Mode() != exposure.ModeTiered || full.exp.Mode() != exposure.ModeFull {
		t.Fatalf("modes %s/%s/%s; the test needs search, tiered and full", search.exp.Mode(), tiered.exp.Mode(), full.exp.Mode())
	}
	for _, sess := range []*session{search, tiered, full, search} {
		assertFresh(t, s, sess, sess.exp.Mode())
	}
	if unsafe.SliceData(s.listFor(search)) != unsafe.SliceData(s.listFor(tiered)) {
		t.Error("a tiered session's first list is not search's")
	}
	if len(s.listFor(search)) >= len(s.listFor(full)) {
		t.Errorf("search list (%d tools) is not smaller than full's (%d)", len(s.listFor(search)), len(s.listFor(full)))
	}
	searchList, fullList := s.listFor(search), s.listFor(full)
	for _, sess := range []*session{search, tiered, full} {
		sess.exp.Route("合并这三个PDF")
		assertFresh(t, s, sess, sess.exp.Mode()+" routed")
	}
	if unsafe.SliceData(s.listFor(search)) != unsafe.SliceData(searchList) || unsafe.SliceData(s.listFor(full)) != unsafe.SliceData(fullList) {
		t.Error("a routing changed the search or full list")
	}
	if len(s.listFor(tiered)) <= len(searchList) {
		t.Error("a routing did not bring the routed tools into the tiered list")
	}
}
