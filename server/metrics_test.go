package server

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
)

// scrape reads /metrics with the bearer token and parses it with the
// Prometheus text parser.
func scrape(t *testing.T, base, token string) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", res.Status)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("/metrics Content-Type %q, want the text format", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// sample is the value of the series of family name whose labels include
// want (a counter's or gauge's value, a histogram's count); 0 when absent.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	total := 0.0
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

type fakeBrowser struct{ open int }

func (fakeBrowser) CloseSession(string) {}
func (b fakeBrowser) OpenContexts() int { return b.open }

// TestMetrics_ScrapeAfterRealCalls drives calls through mcp-go's streamable
// HTTP client (a session-era session and a stateless principal), scrapes
// /metrics and checks that every family moved by what was done.
func TestMetrics_ScrapeAfterRealCalls(t *testing.T) {
	f := newFixture(t, "token", 3)
	f.s.deps.Sessions = fakeBrowser{open: 2}
	url, auth := f.httpWithToken(t, "tok-m")
	base := strings.TrimSuffix(url, "/mcp")

	c := dial(t, url, mcp.ProtocolVersion20251125, auth)
	var notified atomic.Int32
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			notified.Add(1)
		}
	})
	for _, s := range []string{"a", "b", "c"} {
		if r := call(t, c, "echo", map[string]any{"text": s}); r.IsError {
			t.Fatalf("echo: %s", text(r))
		}
	}
	if r := call(t, c, "echo", map[string]any{}); !r.IsError {
		t.Fatal("echo without text must fail")
	}
	// mcp-go refuses an unknown name itself; call_tool brings one to the pipeline.
	if r := call(t, c, exposure.CallTool, map[string]any{"name": "no_such_tool_" + strings.Repeat("x", 10)}); !r.IsError {
		t.Fatal("an unknown tool must fail")
	}
	for i := range breakerFailures {
		call(t, c, "flaky", map[string]any{"text": string(rune('a' + i))})
	}
	if r := call(t, c, "flaky", map[string]any{"text": "z"}); !r.IsError || !strings.Contains(text(r), "paused") {
		t.Fatalf("the breaker should have paused flaky: %s", text(r))
	}
	preview := call(t, c, "danger", map[string]any{"text": "x"})
	tok, _ := structured(t, preview)["confirm_token"].(string)
	if tok == "" {
		t.Fatalf("no confirmation token: %s", text(preview))
	}
	if r := call(t, c, "danger", map[string]any{"text": "x", confirmParam: tok}); r.IsError {
		t.Fatalf("confirmed danger: %s", text(r))
	}
	if r := call(t, c, "danger", map[string]any{"text": "x", confirmParam: tok}); !r.IsError {
		t.Fatal("a spent token must be refused")
	}
	if r := call(t, c, exposure.FindTools, map[string]any{"request": "merge these three PDF files into one"}); r.IsError {
		t.Fatalf("find_tools: %s", text(r))
	}
	stateless := dial(t, url, mcp.ProtocolVersion20260728, auth)
	if r := call(t, stateless, "echo", map[string]any{"text": "stateless"}); r.IsError {
		t.Fatalf("stateless echo: %s", text(r))
	}

	// list_changed: every one the server counts reaches the client.
	var fams map[string]*dto.MetricFamily
	deadline := time.Now().Add(10 * time.Second)
	for {
		fams = scrape(t, base, "tok-m")
		sent := sample(fams, "clawbridge_list_changed_sent_total", map[string]string{"via": "session"})
		if sent >= 1 && float64(notified.Load()) == sent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("list_changed: server counted %v, client received %d", sent, notified.Load())
		}
		time.Sleep(50 * time.Millisecond)
	}

	calls := "clawbridge_calls_total"
	for _, w := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"tool": "echo", "action": "", "status": "ok"}, 4}, // three, and the stateless one
		{map[string]string{"tool": "echo", "status": "error"}, 1},
		{map[string]string{"tool": "unknown", "action": "", "status": "error"}, 1}, // the invented name is not a label
		{map[string]string{"tool": "flaky", "status": "error"}, breakerFailures},
		{map[string]string{"tool": "flaky", "status": "refused"}, 1},
		{map[string]string{"tool": "danger", "status": "confirm"}, 1},
		{map[string]string{"tool": "danger", "status": "ok"}, 1},
		{map[string]string{"tool": "danger", "status": "refused"}, 1},
		{map[string]string{"tool": exposure.FindTools, "status": "ok"}, 1},
	} {
		if got := sample(fams, calls, w.labels); got != w.want {
			t.Errorf("%s%v = %v, want %v", calls, w.labels, got, w.want)
		}
	}
	if fam := fams[calls]; fam != nil {
		for _, m := range fam.Metric {
			for _, l := range m.Label {
				if strings.Contains(l.GetValue(), "no_such_tool") {
					t.Errorf("a client-chosen tool name became a label: %v", m.Label)
				}
			}
		}
	}
	if got := sample(fams, "clawbridge_call_duration_seconds", map[string]string{"tool": "echo"}); got != 5 {
		t.Errorf("echo latency observations = %v, want 5", got)
	}
	conf := "clawbridge_confirmations_total"
	for outcome, want := range map[string]float64{"preview": 1, "allowed": 1, "bad_token": 1, "denied": 0} {
		if got := sample(fams, conf, map[string]string{"policy": "token", "outcome": outcome}); got != want {
			t.Errorf("%s{outcome=%s} = %v, want %v", conf, outcome, got, want)
		}
	}
	if got := sample(fams, "clawbridge_routing_confidence", nil); got != 1 {
		t.Errorf("routing decisions = %v, want 1", got)
	}
	var sess *session
	for _, s := range f.s.sessions.m {
		if s.kind == kindConnection {
			sess = s
		}
	}
	if sess == nil {
		t.Fatal("no connection session held")
	}
	st := sess.exp.State()
	if got := sample(fams, "clawbridge_sessions", map[string]string{"transport": "streamable_http", "mode": st.Mode, "tier": string(st.Tier)}); got != 1 {
		t.Errorf("sessions{streamable_http,%s,%s} = %v, want 1", st.Mode, st.Tier, got)
	}
	if got := sample(fams, "clawbridge_sessions", map[string]string{"transport": "stateless"}); got != 1 {
		t.Errorf("stateless sessions = %v, want 1", got)
	}
	if got := sample(fams, "clawbridge_breakers", map[string]string{"tool": "flaky", "state": "open"}); got != 1 {
		t.Errorf("open breakers of flaky = %v, want 1", got)
	}
	if got := sample(fams, "clawbridge_browser_contexts_open", nil); got != 2 {
		t.Errorf("browser contexts = %v, want 2 (what the manager reports)", got)
	}
	if fams["go_goroutines"] == nil || fams["process_resident_memory_bytes"] == nil {
		t.Error("the Go and process collectors are missing")
	}
}

// TestMetrics_TokenRules: with a token configured, /metrics answers 401
// without it or with a wrong one, like /mcp; /healthz stays open.
func TestMetrics_TokenRules(t *testing.T) {
	f := newFixture(t, "token", 3)
	f.s.cfg.HTTP.Token = "tok-m"
	base := strings.TrimSuffix(f.http(t), "/mcp")
	for _, h := range []string{"", "Bearer wrong", "Basic dG9rLW0="} {
		req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		if h != "" {
			req.Header.Set("Authorization", h)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("/metrics with Authorization %q: %s, want 401 with WWW-Authenticate", h, res.Status)
		}
	}
	if fams := scrape(t, base, "tok-m"); fams["clawbridge_calls_total"] != nil && sample(fams, "clawbridge_calls_total", nil) != 0 {
		t.Error("a fresh server counted calls")
	}
}

// TestMetrics_PrivateRegistry: two servers in one process count their own
// calls (the registry is the server's, not the global default).
func TestMetrics_PrivateRegistry(t *testing.T) {
	a, b := newFixture(t, "token", 3), newFixture(t, "token", 3)
	a.s.Call(t.Context(), "echo", map[string]any{"text": "one"})
	ua, ub := strings.TrimSuffix(a.http(t), "/mcp"), strings.TrimSuffix(b.http(t), "/mcp")
	if got := sample(scrape(t, ua, ""), "clawbridge_calls_total", map[string]string{"tool": "echo"}); got != 1 {
		t.Errorf("server a: %v echo calls, want 1", got)
	}
	if got := sample(scrape(t, ub, ""), "clawbridge_calls_total", map[string]string{"tool": "echo"}); got != 0 {
		t.Errorf("server b counted a's call: %v", got)
	}
}

// TestMetrics_SSESessionAndDenyPolicy: an SSE session is counted under its
// own transport, and the deny policy's refusals as confirmation outcome
// denied (the call never ran).
func TestMetrics_SSESessionAndDenyPolicy(t *testing.T) {
	f := newFixture(t, "deny", 3)
	base := strings.TrimSuffix(f.http(t), "/mcp")
	tr, err := transport.NewSSE(base + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, client.NewClient(tr), mcp.ProtocolVersion20250618)
	if r := call(t, c, "danger", map[string]any{"text": "x"}); !r.IsError {
		t.Fatalf("deny policy ran danger: %s", text(r))
	}
	if r := call(t, c, "echo", map[string]any{"text": "sse"}); r.IsError {
		t.Fatalf("echo over SSE: %s", text(r))
	}
	fams := scrape(t, base, "")
	if got := sample(fams, "clawbridge_sessions", map[string]string{"transport": "sse"}); got != 1 {
		t.Errorf("SSE sessions = %v, want 1", got)
	}
	if got := sample(fams, "clawbridge_sessions", map[string]string{"transport": "streamable_http"}); got != 0 {
		t.Errorf("streamable sessions = %v, want 0", got)
	}
	if got := sample(fams, "clawbridge_confirmations_total", map[string]string{"policy": "deny", "outcome": "denied"}); got != 1 {
		t.Errorf("denied confirmations = %v, want 1", got)
	}
	if got := sample(fams, "clawbridge_calls_total", map[string]string{"tool": "danger", "status": "refused"}); got != 1 || f.runs.Load() != 0 {
		t.Errorf("danger refused %v times and ran %d times, want 1 and 0", got, f.runs.Load())
	}
}

// TestMetrics_BridgeServersByState: the downstream servers of mcp_bridge
// are counted by state; a configured server that never started is
// "configured".
func TestMetrics_BridgeServersByState(t *testing.T) {
	f := newFixture(t, "token", 3)
	m, err := bridge.New(bridge.Options{DataDir: t.TempDir(), Log: zerolog.Nop(),
		Config: config.Bridge{Servers: []config.BridgeServer{{Name: "a", Command: "true"}, {Name: "b", Command: "true"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	f.s.bridge = m
	base := strings.TrimSuffix(f.http(t), "/mcp")
	if got := sample(scrape(t, base, ""), "clawbridge_bridge_servers", map[string]string{"state": "configured"}); got != 2 {
		t.Errorf("bridge servers configured: %v, want 2", got)
	}
}
