package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Idle sessions in the load child, measured from outside: VmRSS from
// /proc/<pid>/status after the child has collected and returned freed
// memory (loadChild.settle), and the child's goroutine count.

// openIdle opens n sessions at url that initialize and list tools, then
// stay idle. listening sessions also hold the standalone GET stream, as
// session-era clients that want list_changed do.
func openIdle(tb testing.TB, url string, n int, listening bool) []*client.Client {
	tb.Helper()
	var opts []transport.StreamableHTTPCOption
	if listening {
		//lint:ignore SA1019 the standalone GET stream is how pre-2026-07-28 clients get list_changed
		opts = append(opts, transport.WithContinuousListening())
	}
	out := make([]*client.Client, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c, err := loadClient(url, opts...)
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err = c.ListTools(ctx, mcp.ListToolsRequest{})
				cancel()
			}
			out[i], errs[i] = c, err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			closeAll(out)
			tb.Fatalf("opening %d idle sessions: %v", n, err)
		}
	}
	return out
}

// closeAll ends the sessions (DELETE /mcp) and closes the clients' idle
// keep-alive connections (mcp-go's transport uses http.DefaultTransport),
// whose server goroutines would otherwise wait for a next request until
// http.idle_timeout.
func closeAll(cs []*client.Client) {
	var wg sync.WaitGroup
	for _, c := range cs {
		if c != nil {
			wg.Go(func() { c.Close() })
		}
	}
	wg.Wait()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
}

// settleTo waits up to 10 s for the child's goroutines to come down to
// want or fewer, and returns the last count.
func settleTo(c *loadChild, want int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := c.settle()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// procRSS is a process's resident set in KB (VmRSS).
func procRSS(pid int) int {
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

// warmUp runs one session through what every session shares the first
// time it is used (the registry's rendered lists, the router), so that
// the baseline after it holds them.
func warmUp(tb testing.TB, url string) {
	cs := openIdle(tb, url, 1, false)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "find_tools", map[string]any{"request": "把这个CSV表格按月份汇总一下"}
	if res, err := cs[0].CallTool(ctx, req); err != nil || res.IsError {
		tb.Fatalf("warm-up find_tools: %v %v", err, res)
	}
	closeAll(cs)
}

// BenchmarkIdleSessionRSS: the server's RSS per idle session (200 that
// initialized and listed tools; then 200 more that also hold the GET
// stream) and its goroutines before, with, and after them. Run with
// -benchtime 1x.
func BenchmarkIdleSessionRSS(b *testing.B) {
	for b.Loop() {
		child := startLoadChild(b, "clawbridge")
		url := "http://" + child.addr + "/mcp"
		warmUp(b, url)
		child.settle()
		g0, rss0 := child.settle(), procRSS(child.pid)
		plain := openIdle(b, url, loadSessions, false)
		child.settle()
		g1, rss1 := child.settle(), procRSS(child.pid)
		listening := openIdle(b, url, loadSessions, true)
		time.Sleep(200 * time.Millisecond) // the GET streams are opened after initialize returns
		child.settle()
		g2, rss2 := child.settle(), procRSS(child.pid)
		closeAll(plain)
		closeAll(listening)
		g3 := settleTo(child, g0)
		b.ReportMetric(float64(rss0), "rss_base_kb")
		b.ReportMetric(float64(rss1-rss0)/loadSessions, "kb_per_idle_session")
		b.ReportMetric(float64(rss2-rss1)/loadSessions, "kb_per_listening_session")
		b.ReportMetric(float64(g0), "goroutines_base")
		b.ReportMetric(float64(g1-g0)/loadSessions, "goroutines_per_idle_session")
		b.ReportMetric(float64(g2-g1)/loadSessions, "goroutines_per_listening_session")
		b.ReportMetric(float64(g3-g0), "goroutines_left_after_close")
		child.stop()
	}
}
