package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/config"
	bridgetool "github.com/clawbridge/clawbridge/tools/bridge"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// BenchmarkBridgeCallOverhead: the same downstream call (the real
// server-everything's echo over stdio) made three ways: directly with
// mcp-go's stdio client, through the bridge's Manager.Call, and as
// `mcp_bridge call` through clawbridge's whole pipeline (audit, loop guard,
// concurrency cap, level check, result shaping) with an in-process mcp-go
// client. Each reports median_µs and p99_µs per call; the last two report
// their overhead over the direct call at the median and p99 (goal: under
// 2 ms at the median). The server is at level read, so no confirmation is
// asked; confirmation is a person's time, not overhead.
func BenchmarkBridgeCallOverhead(b *testing.B) {
	js := bridgetest.Script(b, "server-everything")
	var direct []time.Duration
	echo := func(i int) map[string]any { return map[string]any{"message": fmt.Sprintf("ping %d", i)} }

	b.Run("direct_stdio", func(b *testing.B) {
		c, err := client.NewStdioMCPClient("node", nil, js, "stdio")
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		if _, err := bridgetest.Initialize(context.Background(), c, mcp.ProtocolVersion20250618, "bridge-bench"); err != nil {
			b.Fatal(err)
		}
		direct = timeCalls(b, func(i int) error {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "echo", echo(i)
			res, err := c.CallTool(context.Background(), req)
			return callErr(res, err, fmt.Sprintf("ping %d", i))
		})
		reportLatency(b, direct, nil)
	})

	m := benchManager(b, js)
	b.Run("manager_call", func(b *testing.B) {
		if _, err := m.Tools(context.Background(), "everything"); err != nil { // started outside the timing
			b.Fatal(err)
		}
		reportLatency(b, timeCalls(b, func(i int) error {
			res, err := m.Call(context.Background(), "everything", "echo", echo(i), nil)
			return callErr(res, err, fmt.Sprintf("ping %d", i))
		}), direct)
	})

	b.Run("pipeline_mcp_bridge", func(b *testing.B) {
		d := tooltest.Deps(b)
		d.Log = zerolog.Nop() // the audit line would cost the same as its write to a file, not to a terminal
		d.Bridge = bridgetool.Downstream(m)
		s, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Bridge: m, Tools: allTools(b, d), Log: d.Log, Version: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		c := inProcessClient(b, s.mcp)
		ctx := context.Background()
		reportLatency(b, timeCalls(b, func(i int) error {
			req := mcp.CallToolRequest{}
			req.Params.Name = "mcp_bridge"
			req.Params.Arguments = map[string]any{"action": "call", "server": "everything", "tool": "echo", "arguments": echo(i)}
			res, err := c.CallTool(ctx, req)
			return callErr(res, err, fmt.Sprintf("ping %d", i))
		}), direct)
	})
}

func benchManager(b *testing.B, js string) *bridge.Manager {
	cfg := config.Bridge{StartTimeout: 30 * time.Second, CallTimeout: time.Minute, IdleStop: time.Hour,
		Servers: []config.BridgeServer{{Name: "everything", Command: "node", Args: []string{js, "stdio"}, Level: "read", Publish: "bridge_only"}}}
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	d := tooltest.Deps(b)
	m, err := bridge.New(bridge.Options{Config: cfg, DataDir: b.TempDir(), Guard: d.Guard, Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(m.Close)
	return m
}

// timeCalls runs call in the benchmark loop and returns each call's time.
func timeCalls(b *testing.B, call func(i int) error) []time.Duration {
	var times []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := call(i); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		i++
	}
	return times
}

// callErr fails a call whose result is an error or lost the echoed text.
func callErr(res *mcp.CallToolResult, err error, want string) error {
	if err != nil {
		return err
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || !strings.Contains(text.String(), want) {
		return fmt.Errorf("result %q lacks %q (isError %v)", text.String(), want, res.IsError)
	}
	return nil
}

// reportLatency reports median and p99 µs, and their difference from base
// when there is one.
func reportLatency(b *testing.B, times, base []time.Duration) {
	p50, p99 := percentile(times, 50), percentile(times, 99)
	b.ReportMetric(p50, "median_µs")
	b.ReportMetric(p99, "p99_µs")
	if len(base) > 0 {
		b.ReportMetric(p50-percentile(base, 50), "overhead_median_µs")
		b.ReportMetric(p99-percentile(base, 99), "overhead_p99_µs")
	}
}

func percentile(times []time.Duration, p int) float64 {
	if len(times) == 0 {
		return 0
	}
	s := slices.Clone(times)
	slices.Sort(s)
	return float64(s[(len(s)-1)*p/100].Nanoseconds()) / 1e3
}
