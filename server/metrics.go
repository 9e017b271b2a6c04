package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Metrics: every collector of /metrics is here, on a registry of the
// server's own (not the global default, so two servers in one test process
// do not share counters). Counters are bumped where the pipeline already
// records the same fact (the audit line, the routing decision, the
// confirmation stage, the list_changed send); gauges read the state that is
// already kept (sessions, breakers, the browser's contexts) when /metrics is
// scraped, so nothing is counted twice. Label values come from fixed sets or
// from registered names only: a client cannot grow the series by inventing
// tool or action names.
type metrics struct {
	reg          *prometheus.Registry
	calls        *prometheus.CounterVec   // tool, action, status
	latency      *prometheus.HistogramVec // tool
	listChanged  *prometheus.CounterVec   // via
	routing      *prometheus.HistogramVec // tier; observes the confidence
	confirmation *prometheus.CounterVec   // policy, outcome
}

const metricsNS = "clawbridge"

func newMetrics(s *Server) (*metrics, error) {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: metricsNS, Name: "calls_total",
			Help: "Tool calls by tool, action and status (ok, error, refused, confirm, timeout, panic)."}, []string{"tool", "action", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: metricsNS, Name: "call_duration_seconds",
			Help:    "Tool call latency through the whole pipeline, by tool.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"tool"}),
		listChanged: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: metricsNS, Name: "list_changed_sent_total",
			Help: "notifications/tools/list_changed sent: on a session (SSE, streamable HTTP, stdio) or on a stateless principal's listen stream."}, []string{"via"}),
		routing: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: metricsNS, Name: "routing_confidence",
			Help:    "Routing decisions (find_tools, the task prompt) by resulting tier; the buckets are the detector's confidence.",
			Buckets: []float64{.1, .2, .3, .4, .5, .6, .7, .8, .9, 1}}, []string{"tier"}),
		confirmation: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: metricsNS, Name: "confirmations_total",
			Help: "Confirmations of high-risk calls by policy and outcome (allowed, preview, denied, bad_token, error)."}, []string{"policy", "outcome"}),
	}
	for _, c := range []prometheus.Collector{m.calls, m.latency, m.listChanged, m.routing, m.confirmation,
		&stateCollector{s: s},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		if err := m.reg.Register(c); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	return m, nil
}

// handler serves the registry in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// called records one audited call. name and action are reduced to
// registered names first.
func (s *Server) called(name, action, status string, d time.Duration) {
	if _, ok := s.publishedTool(name); !ok {
		name, action = "unknown", ""
	} else if t, ok := s.lookupTool(name); ok {
		if a, ok := t.Action(action); ok {
			action = a.Name
		} else {
			action = "unknown"
		}
	} else {
		action = "" // meta tools have no actions
	}
	s.metrics.calls.WithLabelValues(name, action, status).Inc()
	s.metrics.latency.WithLabelValues(name).Observe(d.Seconds())
}

// routed records one routing decision.
func (s *Server) routed(dec exposure.Decision) {
	s.metrics.routing.WithLabelValues(string(dec.Tier)).Observe(dec.Confidence)
}

// confirmed records the confirmation stage's outcome: nil ran the call, a
// result answered it (a token preview, or a refusal by its error code).
func (s *Server) confirmed(r *mcp.CallToolResult) {
	outcome := "allowed"
	switch {
	case r == nil:
	case !r.IsError:
		outcome = "preview"
	default:
		outcome = "error"
		if sc, ok := r.StructuredContent.(map[string]any); ok {
			if e, ok := sc["error"].(*tool.Error); ok {
				switch e.Code {
				case tool.CodeDenied:
					outcome = "denied"
				case tool.CodeConfirm:
					outcome = "bad_token"
				}
			}
		}
	}
	s.metrics.confirmation.WithLabelValues(s.confirmer.policy, outcome).Inc()
}

// BrowserContexts is what a browser manager reports for the
// clawbridge_browser_contexts_open gauge; the server finds it on
// Deps.Sessions, so it needs no import of the browser package.
type BrowserContexts interface {
	OpenContexts() int
}

// stateCollector reads the state the server keeps anyway at scrape time:
// sessions by transport, mode and tier; circuit breakers by tool and state;
// the browser's open contexts.
type stateCollector struct{ s *Server }

var (
	sessionsDesc = prometheus.NewDesc(metricsNS+"_sessions", "Sessions held by the server by transport (streamable_http, sse, stdio, stateless, local, scheduled), exposure mode and tier.",
		[]string{"transport", "mode", "tier"}, nil)
	breakersDesc = prometheus.NewDesc(metricsNS+"_breakers", "Circuit breakers (one per session and network tool) by tool and state (open: calls paused; closed).",
		[]string{"tool", "state"}, nil)
	browserDesc = prometheus.NewDesc(metricsNS+"_browser_contexts_open", "Browser contexts open (one per session that used the browser).", nil, nil)
	bridgeDesc  = prometheus.NewDesc(metricsNS+"_bridge_servers", "Downstream MCP servers of mcp_bridge by state (configured, manifest known, running, failed).",
		[]string{"state"}, nil)
)

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- sessionsDesc
	ch <- breakersDesc
	ch <- browserDesc
	ch <- bridgeDesc
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	type sessKey struct{ transport, mode, tier string }
	type breakerKey struct{ tool, state string }
	bySess := map[sessKey]int{}
	byBreaker := map[breakerKey]int{}
	now := time.Now()
	s.sessions.mu.Lock()
	held := make([]*session, 0, len(s.sessions.m))
	for _, sess := range s.sessions.m {
		held = append(held, sess)
	}
	s.sessions.mu.Unlock()
	for _, sess := range held {
		st := sess.exp.State()
		bySess[sessKey{s.transportOf(sess), st.Mode, string(st.Tier)}]++
		sess.mu.Lock()
		for name, b := range sess.breakers {
			b.mu.Lock()
			state := "closed"
			if now.Before(b.openUntil) {
				state = "open"
			}
			b.mu.Unlock()
			byBreaker[breakerKey{name, state}]++
		}
		sess.mu.Unlock()
	}
	for k, n := range bySess {
		gauge(ch, sessionsDesc, n, k.transport, k.mode, k.tier)
	}
	for k, n := range byBreaker {
		gauge(ch, breakersDesc, n, k.tool, k.state)
	}
	if bc, ok := s.deps.Sessions.(BrowserContexts); ok {
		gauge(ch, browserDesc, bc.OpenContexts())
	}
	if s.bridge != nil {
		byState := map[string]int{}
		for _, st := range s.bridge.Status() {
			byState[string(st.State)]++
		}
		for state, n := range byState {
			gauge(ch, bridgeDesc, n, state)
		}
	}
}

// gauge sends one gauge sample; the descriptors above are fixed, so a
// mismatch is a bug, and the sample is dropped rather than the scrape.
func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, n int, labels ...string) {
	if m, err := prometheus.NewConstMetric(d, prometheus.GaugeValue, float64(n), labels...); err == nil {
		ch <- m
	}
}

// transportOf names a session's transport for the sessions gauge.
func (s *Server) transportOf(sess *session) string {
	switch sess.kind {
	case kindConnection:
		if s.live.known(sess.key) {
			return "streamable_http"
		}
		return "sse"
	case kindStdio:
		return "stdio"
	case kindPrincipal, kindAnonymous:
		return "stateless"
	case kindLocal:
		return "local"
	case kindScheduled:
		return "scheduled"
	}
	return "unknown"
}
