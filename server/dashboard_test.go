package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// uiDo sends one dashboard request with the given credential headers and
// cookie, never following redirects.
func uiDo(t *testing.T, method, url, body string, hdr map[string]string, cookie *http.Cookie) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if body != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func uiGetJSON(t *testing.T, url string, cookie *http.Cookie, into any) {
	t.Helper()
	res := uiDo(t, http.MethodGet, url, "", nil, cookie)
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET %s: %s %s", url, res.Status, b)
	}
	if err := json.NewDecoder(res.Body).Decode(into); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// ui serves f over HTTP with the token tok-ui and logs in to the
// dashboard: it returns the MCP URL, the base URL and the cookie.
func (f *fixture) ui(t *testing.T) (url, base string, ck *http.Cookie) {
	t.Helper()
	f.s.cfg.HTTP.Token = "tok-ui"
	url = f.http(t)
	base = strings.TrimSuffix(url, "/mcp")
	return url, base, uiLogin(t, base, "tok-ui")
}

// uiLogin opens /ui?token= and returns the cookie it sets.
func uiLogin(t *testing.T, base, token string) *http.Cookie {
	t.Helper()
	res := uiDo(t, http.MethodGet, base+"/ui?token="+token, "", nil, nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/ui" {
		t.Fatalf("/ui?token=: %s to %q, want 303 to /ui", res.Status, res.Header.Get("Location"))
	}
	for _, c := range res.Cookies() {
		if c.Name == uiCookie {
			return c
		}
	}
	t.Fatal("no dashboard cookie set")
	return nil
}

var uiEndpoints = []struct{ method, path, body string }{
	{http.MethodGet, "/ui", ""},
	{http.MethodGet, "/ui/", ""},
	{http.MethodGet, "/ui/api/sessions", ""},
	{http.MethodGet, "/ui/api/calls", ""},
	{http.MethodGet, "/ui/api/calls/0123456789abcdef", ""},
	{http.MethodGet, "/ui/api/tools", ""},
	{http.MethodGet, "/ui/api/pending", ""},
	{http.MethodPost, "/ui/api/decide", `{"id":"x","approve":true}`},
	{http.MethodPost, "/ui/api/route", `{"request":"merge two PDF files"}`},
}

// TestDashboard_Unauthorized401: without the token, with a wrong one, with
// the token where only the cookie counts, or with a cookie that is not the
// one the server set, the page and every data endpoint answer 401; the
// dashboard cookie opens nothing outside /ui.
func TestDashboard_Unauthorized401(t *testing.T) {
	f := newFixture(t, "token", 3)
	_, base, good := f.ui(t)
	for _, e := range uiEndpoints {
		for name, try := range map[string]struct {
			query  string
			hdr    map[string]string
			cookie *http.Cookie
		}{
			"nothing":              {},
			"wrong bearer":         {hdr: bearerHeader("tok-uix")},
			"wrong query token":    {query: "?token=tok-uiX"},
			"raw token as cookie":  {cookie: &http.Cookie{Name: uiCookie, Value: "tok-ui"}},
			"forged cookie":        {cookie: &http.Cookie{Name: uiCookie, Value: uiCookieValue("other")}},
			"query token off page": {query: "?token=tok-ui"},
		} {
			if name == "query token off page" && (e.path == "/ui") {
				continue // the page is where the query token is accepted
			}
			res := uiDo(t, e.method, base+e.path+try.query, e.body, try.hdr, try.cookie)
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s with %s: %s, want 401", e.method, e.path, name, res.Status)
			}
		}
		// With the cookie, every endpoint answers (decide: 404 for the unknown id).
		res := uiDo(t, e.method, base+e.path, e.body, nil, good)
		if res.StatusCode == http.StatusUnauthorized {
			t.Errorf("%s %s with the cookie: 401", e.method, e.path)
		}
	}
	for _, p := range []string{"/mcp", "/metrics"} {
		if res := uiDo(t, http.MethodGet, base+p, "", nil, good); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s with the dashboard cookie: %s, want 401", p, res.Status)
		}
		if res := uiDo(t, http.MethodGet, base+p+"?token=tok-ui", "", nil, nil); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s?token=: %s, want 401", p, res.Status)
		}
	}
}

// TestDashboard_TokenCookie: ?token= on the page sets an HttpOnly,
// SameSite=Strict cookie scoped to /ui that is not the token, and redirects
// to the bare /ui; the page then loads with a CSP that allows no external
// asset. A bearer header works on the data endpoints as on /metrics.
func TestDashboard_TokenCookie(t *testing.T) {
	f := newFixture(t, "token", 3)
	_, base, c := f.ui(t)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/ui" || c.Value == "tok-ui" || strings.Contains(c.Value, "tok-ui") {
		t.Fatalf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/ui, not the token", c)
	}
	res := uiDo(t, http.MethodGet, base+"/ui", "", nil, &http.Cookie{Name: c.Name, Value: c.Value})
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !bytes.Equal(body, dashboardPage) {
		t.Fatalf("/ui: %s %s", res.Status, res.Header.Get("Content-Type"))
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Fatalf("CSP %q", csp)
	}
	for _, ext := range []string{"http://", "https://", "//cdn", "src=\"/"} {
		if bytes.Contains(body, []byte(ext)) {
			t.Errorf("the page refers to an external asset (%q)", ext)
		}
	}
	var sess []uiSession
	res = uiDo(t, http.MethodGet, base+"/ui/api/sessions", "", bearerHeader("tok-ui"), nil)
	if res.StatusCode != http.StatusOK || json.NewDecoder(res.Body).Decode(&sess) != nil {
		t.Fatalf("sessions with the bearer: %s", res.Status)
	}
}

// TestDashboard_Data drives a real streamable-HTTP client and reads what
// the page shows: the session with its client, transport, protocol, tier
// change and history; the calls with redacted arguments; per-tool usage;
// the routing playground.
func TestDashboard_Data(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "token", 3, db.Open(t))
		url, base, ck := f.ui(t)
		c := dial(t, url, mcp.ProtocolVersion20251125, bearerHeader("tok-ui"))
		call(t, c, "echo", map[string]any{"text": "one"})
		call(t, c, "echo", map[string]any{})
		call(t, c, "danger", map[string]any{"text": "x", "password": "hunter2"})
		if r := call(t, c, exposure.FindTools, map[string]any{"request": "merge these three PDF files into one"}); r.IsError {
			t.Fatalf("find_tools: %s", text(r))
		}

		var sessions []uiSession
		uiGetJSON(t, base+"/ui/api/sessions", ck, &sessions)
		if len(sessions) != 1 {
			t.Fatalf("sessions: %+v", sessions)
		}
		s := sessions[0]
		st := f.s.sessions.m
		var key string
		for k := range st {
			key = k
		}
		if s.Client != "session-test" || s.ClientVersion != "1" || s.Transport != "streamable_http" || s.Protocol != mcp.ProtocolVersion20251125 ||
			s.ID == "" || strings.Contains(s.ID, key) || s.Calls < 3 || s.ViewSize == 0 || s.ViewTokens == 0 || len(s.History) == 0 {
			t.Fatalf("session %+v", s)
		}
		if s.Tier == exposure.TierFull || s.History[len(s.History)-1].From != exposure.TierFull {
			t.Fatalf("the find_tools tier change is not shown: tier %s, history %+v", s.Tier, s.History)
		}

		var calls []uiCall
		uiGetJSON(t, base+"/ui/api/calls", ck, &calls)
		statuses := map[string]string{}
		for _, cl := range calls {
			if cl.Session != s.ID || cl.TraceID == "" || cl.At == "" {
				t.Errorf("call %+v: want session %s, a trace id and a time", cl, s.ID)
			}
			statuses[cl.Tool+"/"+cl.Status] = string(cl.Args)
		}
		for _, want := range []string{"echo/ok", "echo/error", "danger/confirm", "find_tools/ok"} {
			if _, ok := statuses[want]; !ok {
				t.Errorf("calls lack %s: %v", want, statuses)
			}
		}
		if a := statuses["danger/confirm"]; strings.Contains(a, "hunter2") || !strings.Contains(a, `"text":"x"`) {
			t.Errorf("danger's arguments %s: want redacted", a)
		}

		var usage []uiToolUsage
		uiGetJSON(t, base+"/ui/api/tools", ck, &usage)
		got := map[string]uiToolUsage{}
		for _, u := range usage {
			got[u.Tool] = u
		}
		if e := got["echo"]; e.Calls != 2 || e.Errors != 1 {
			t.Errorf("echo usage %+v: want 2 calls, 1 error", e)
		}
		if d := got["danger"]; d.Calls != 1 || d.Errors != 0 {
			t.Errorf("danger usage %+v: a confirmation preview is not an error", d)
		}

		for _, tc := range []struct {
			body string
			code int
		}{
			{`{"request":"merge these three PDF files into one"}`, http.StatusOK},
			{`{"request":"把这三个PDF合并成一个"}`, http.StatusOK},
			{`{"request":"   "}`, http.StatusBadRequest},
			{`{"request":"` + strings.Repeat("a", 2001) + `"}`, http.StatusBadRequest},
			{`not json`, http.StatusBadRequest},
		} {
			res := uiDo(t, http.MethodPost, base+"/ui/api/route", tc.body, nil, ck)
			var out map[string]any
			json.NewDecoder(res.Body).Decode(&out)
			if res.StatusCode != tc.code {
				t.Errorf("route %.40s: %s %v", tc.body, res.Status, out)
				continue
			}
			if tc.code == http.StatusOK && (out["tier"] == nil || out["view_tokens"].(float64) <= 0 || len(out["tools"].([]any)) == 0) {
				t.Errorf("route %.40s: %v", tc.body, out)
			}
			if tc.code != http.StatusOK && out["error"] == nil {
				t.Errorf("route %.40s: no error object", tc.body)
			}
		}
		if res := uiDo(t, http.MethodPost, base+"/ui/api/route", `{"request":"x"}`, map[string]string{"Content-Type": "text/plain"}, ck); res.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("a non-JSON POST (a cross-site form): %s, want 415", res.Status)
		}
		if after := f.s.sessions.m[key].exp.State(); after.Tier != s.Tier || len(after.History) != len(s.History) {
			t.Errorf("the playground changed a session: %+v", after)
		}
	})
}

// TestDashboard_ApproveQueue: a high call under the approve policy shows in
// /ui/api/pending with its redacted preview; approving it there runs it
// once; a second decision on the same id is 404 and runs nothing.
func TestDashboard_ApproveQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "approve", 3, db.Open(t))
		url, base, ck := f.ui(t)
		c := dial(t, url, mcp.ProtocolVersion20251125, bearerHeader("tok-ui"))

		for _, approve := range []bool{true, false} {
			before := f.runs.Load()
			ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "deploy", "password": "hunter2"})
			waitPending(t, f)
			var p struct {
				Policy  string        `json:"policy"`
				Pending []PendingCall `json:"pending"`
			}
			uiGetJSON(t, base+"/ui/api/pending", ck, &p)
			if p.Policy != "approve" || len(p.Pending) != 1 || !strings.Contains(p.Pending[0].Preview, "deploy") || strings.Contains(p.Pending[0].Preview, "hunter2") {
				t.Fatalf("pending %+v", p)
			}
			body, _ := json.Marshal(map[string]any{"id": p.Pending[0].ID, "approve": approve})
			if res := uiDo(t, http.MethodPost, base+"/ui/api/decide", string(body), nil, ck); res.StatusCode != http.StatusOK {
				t.Fatalf("decide: %s", res.Status)
			}
			r := <-ch
			if approve && (r.IsError || f.runs.Load() != before+1) {
				t.Fatalf("approved from the dashboard: %s (runs %d)", text(r), f.runs.Load())
			}
			if !approve && (!r.IsError || f.runs.Load() != before) {
				t.Fatalf("rejected from the dashboard: %s", text(r))
			}
			if res := uiDo(t, http.MethodPost, base+"/ui/api/decide", string(body), nil, ck); res.StatusCode != http.StatusNotFound {
				t.Fatalf("a second decision: %s, want 404", res.Status)
			}
		}
		if res := uiDo(t, http.MethodPost, base+"/ui/api/decide", `{"id":"abc"}`, nil, ck); res.StatusCode != http.StatusBadRequest {
			t.Errorf("decide without approve: %s, want 400", res.Status)
		}
	})
}
