package coldstart

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkStdioCall is the single-session per-call cost as a stdio client
// sees it (the "a single stdio session"): the built binaries over
// pipes, one call after another — clawbridge's `file stat` against the
// reference's trivial echo — reporting the median and p99 µs of each and
// clawbridge's median as a multiple of the reference's.
func BenchmarkStdioCall(b *testing.B) {
	cb := build(b, "github.com/clawbridge/clawbridge")
	ref := build(b, "github.com/clawbridge/clawbridge/e2e/coldstart/testdata/refserver")
	env := isolated(b)
	ws := ""
	for _, kv := range env {
		if v, ok := cutPrefix(kv, "CLAWBRIDGE_WORKSPACE="); ok {
			ws = v
		}
	}
	if err := os.MkdirAll(ws, 0o700); err != nil {
		b.Fatal(err)
	}
	// Twenty files in turn: the loop guard refuses the same call repeated.
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("notes%d.txt", i)), []byte("hello\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	var refMedian float64
	b.Run("reference_trivial", func(b *testing.B) {
		refMedian = callLoop(b, ref, os.Environ(), nil, "echo", func(i int) map[string]any { return map[string]any{"text": fmt.Sprintf("notes%d.txt", i%20)} })
	})
	b.Run("clawbridge_file_stat", func(b *testing.B) {
		m := callLoop(b, cb, env, []string{"serve"}, "file", func(i int) map[string]any {
			return map[string]any{"action": "stat", "path": fmt.Sprintf("notes%d.txt", i%20)}
		})
		if refMedian > 0 {
			b.ReportMetric(m/refMedian, "x_reference")
		}
	})
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}

// callLoop starts bin over stdio, warms it with 50 calls, then times each
// of b.N calls; it returns the median in µs.
func callLoop(b *testing.B, bin string, env, args []string, name string, arguments func(i int) map[string]any) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := stdioSession(ctx, b, bin, env, args, mcp.ProtocolVersion20250618, "stdiocall-bench")
	defer c.Close()
	i := 0
	call := func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, arguments(i)
		i++
		if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
			b.Fatalf("call %s: %v %v", name, err, res)
		}
	}
	for range 50 {
		call()
	}
	var ds []time.Duration
	for b.Loop() {
		t0 := time.Now()
		call()
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	med := float64(ds[len(ds)/2].Nanoseconds()) / 1000
	b.ReportMetric(med, "median_µs")
	b.ReportMetric(float64(ds[len(ds)*99/100].Nanoseconds())/1000, "p99_µs")
	return med
}
