package e2e

import (
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestMetrics_ServeBinary: the real binary with a token serves /metrics on
// its HTTP listener: 401 without the token; with it, a parsed scrape that
// counts the client's call and carries the browser manager's gauge.
func TestMetrics_ServeBinary(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_TOKEN=tok-metrics-e2e")
	_, urls := serveBanner(t, e, []string{"streamable HTTP", "metrics"}, "serve", "--http", "127.0.0.1:0")
	metricsURL := urls["metrics"]
	auth := map[string]string{"Authorization": "Bearer tok-metrics-e2e"}
	c := started(t)(client.NewStreamableHttpClient(urls["streamable HTTP"], transport.WithHTTPHeaders(auth)))
	initialize(t, c, mcp.ProtocolVersion20251125)
	if r := callTool(t, c, "shell", map[string]any{"argv": []any{"echo", "metrics"}}); r.IsError {
		t.Fatalf("shell echo: %s", text(r))
	}

	res, err := http.Get(metricsURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %s, want 401", res.Status)
	}
	req, _ := http.NewRequest(http.MethodGet, metricsURL, nil)
	req.Header.Set("Authorization", auth["Authorization"])
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	ok := 0.0
	for _, m := range fams["clawbridge_calls_total"].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["tool"] == "shell" && labels["status"] == "ok" {
			ok += m.GetCounter().GetValue()
		}
	}
	if ok != 1 {
		t.Errorf("clawbridge_calls_total{tool=shell,status=ok} = %v, want 1", ok)
	}
	if b := fams["clawbridge_browser_contexts_open"]; b == nil || len(b.Metric) != 1 || b.Metric[0].GetGauge().GetValue() != 0 {
		t.Errorf("browser contexts gauge missing or not 0 before any browser use: %v", b)
	}
}
