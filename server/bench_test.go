package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// benchSession is a minimal initialized client session.
type benchSession struct {
	id string
	ch chan mcp.JSONRPCNotification
}

func (b *benchSession) Initialize()                                         {}
func (b *benchSession) Initialized() bool                                   { return true }
func (b *benchSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return b.ch }
func (b *benchSession) SessionID() string                                   { return b.id }

var listMsg = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)

// BenchmarkListTools compares tools/list with a per-session view (routed to
// a PDF task) against a static list of the same registered tools.
func BenchmarkListTools(b *testing.B) {
	s := registryServer(b, "tiered")
	sess := &benchSession{id: "bench", ch: make(chan mcp.JSONRPCNotification, 1024)}
	ctx := s.mcp.WithContext(context.Background(), sess)
	s.sessions.get("bench", "bench", kindConnection).exp.Route("合并这三个PDF")
	b.Run("session_view", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.mcp.HandleMessage(ctx, listMsg)
		}
	})
	static := mcpserver.NewMCPServer("static", "1", mcpserver.WithToolCapabilities(true))
	for _, t := range s.order {
		static.AddTool(mcpTool(t), s.handle)
	}
	sctx := static.WithContext(context.Background(), sess)
	b.Run("static_list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			static.HandleMessage(sctx, listMsg)
		}
	})
}

// BenchmarkTierTokens reports the tools/list payload of each tier, in
// estimated cl100k tokens, for the same registry.
func BenchmarkTierTokens(b *testing.B) {
	s := registryServer(b, "tiered")
	payload := func(view []exposure.ViewTool) int {
		raw, _ := json.Marshal(mcp.ListToolsResult{Tools: s.viewTools(view)})
		return exposure.EstimateTokens(string(raw))
	}
	dec := s.router.Route("合并这三个PDF")
	tiers := map[string][]exposure.ViewTool{
		"full":        s.router.Offered(s.router.ViewAt(exposure.TierFull, dec.Detection), exposure.TierFull),
		"extended":    s.router.Offered(s.router.ViewAt(exposure.TierExtended, dec.Detection), exposure.TierExtended),
		"recommended": s.router.Offered(s.router.ViewAt(exposure.TierRecommended, dec.Detection), exposure.TierRecommended),
	}
	for name, view := range tiers {
		b.Run(name, func(b *testing.B) {
			var n int
			for b.Loop() {
				n = payload(view)
			}
			b.ReportMetric(float64(n), "tokens")
			b.ReportMetric(float64(len(view)), "tools")
		})
	}
}

// BenchmarkNew is the server's share of a cold start: the registry adapted,
// the router and its index built, the store's tables migrated.
func BenchmarkNew(b *testing.B) {
	d := tooltest.Deps(b)
	reg, err := tools.All(d)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Tools: reg, Log: zerolog.Nop(), Version: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
