package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/clustertest"
)

// mixedResult is one setting's figures from one mixed load run.
type mixedResult struct {
	errors      int // failed requests, a session that did not start counts all of its
	missed      int // find_tools calls after which no list_changed arrived within 10 s
	p50, p99    time.Duration
	callsPerSec float64
	firstErrs   []string // the first few failures and missed notifications, for the log
}

func (r *mixedResult) noteErr(why string) {
	if len(r.firstErrs) < 5 {
		r.firstErrs = append(r.firstErrs, why)
	}
}

// mixedStep is one request of a mixed session: a tools/call, or a
// tools/list after the list_changed the previous find_tools caused.
type mixedStep struct {
	list bool
	name string
	args map[string]any
}

// The two find_tools requests of a session, one per language; even
// sessions ask in Chinese first, odd ones in English.
var mixedFinds = [2][2]string{
	{"把这个CSV表格按月份汇总一下", "show this machine's memory and disk usage"},
	{"summarize this CSV table by month", "看看这台电脑的内存和磁盘"},
}

// mixedScript is session n's 20 requests: file stat/read/list, two
// find_tools (both languages) each followed by tools/list, system info and
// data_processor describe — nothing that needs the network.
func mixedScript(n int) []mixedStep {
	f := fmt.Sprintf("f%d.txt", n%loadCalls)
	file := func(action string) mixedStep {
		args := map[string]any{"action": action, "path": f}
		if action == "list" {
			args["path"] = "."
		}
		return mixedStep{name: "file", args: args}
	}
	find := func(q string) mixedStep { return mixedStep{name: "find_tools", args: map[string]any{"request": q}} }
	sys := mixedStep{name: "system", args: map[string]any{"action": "info"}}
	data := mixedStep{name: "data_processor", args: map[string]any{"action": "describe", "path": "data.csv"}}
	list := mixedStep{list: true}
	q := mixedFinds[n%2]
	return []mixedStep{
		find(q[0]), list, file("stat"), file("read"), file("list"), data, sys, file("stat"), file("read"), data,
		find(q[1]), list, file("stat"), file("list"), sys, file("read"), data, file("stat"), file("read"), sys,
	}
}

// mixedRun runs loadSessions concurrent sessions of mixedScript against
// url and returns the errors and latencies of their requests (tools/list
// timed from its request, not from the wait for list_changed). The
// sessions hold the GET stream, as clients that act on list_changed do: a
// notification the server sends after a POST's answer reaches them there.
func mixedRun(url string, opts ...transport.StreamableHTTPCOption) mixedResult {
	//lint:ignore SA1019 the standalone GET stream is how pre-2026-07-28 clients get list_changed
	opts = append(opts, transport.WithContinuousListening())
	var (
		mu     sync.Mutex
		lats   []time.Duration
		r      mixedResult
		wg     sync.WaitGroup
		script = len(mixedScript(0))
	)
	start := time.Now()
	for n := range loadSessions {
		wg.Go(func() {
			c, err := loadClient(url, opts...)
			if err != nil {
				mu.Lock()
				r.errors += script
				r.noteErr("start: " + err.Error())
				mu.Unlock()
				return
			}
			defer c.Close()
			changed := make(chan struct{}, 16)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == mcp.MethodNotificationToolsListChanged {
					select {
					case changed <- struct{}{}:
					default:
					}
				}
			})
			mine := make([]time.Duration, 0, script)
			errs, missed := 0, 0
			var why []string
			for k, st := range mixedScript(n) {
				if st.name == "find_tools" {
					for len(changed) > 0 { // only this call's notification counts
						<-changed
					}
				}
				if st.list {
					select {
					case <-changed:
					case <-time.After(10 * time.Second):
						missed++
						why = append(why, fmt.Sprintf("session %d: no list_changed before request %d", n, k))
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				t0 := time.Now()
				var fail string
				if st.list {
					res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
					if err != nil || len(res.Tools) == 0 {
						fail = fmt.Sprintf("tools/list: %v", err)
					}
				} else {
					req := mcp.CallToolRequest{}
					req.Params.Name, req.Params.Arguments = st.name, st.args
					res, err := c.CallTool(ctx, req)
					if err != nil {
						fail = fmt.Sprintf("%s: %v", st.name, err)
					} else if res.IsError {
						fail = fmt.Sprintf("%s: tool error %v", st.name, res.Content)
					}
				}
				mine = append(mine, time.Since(t0))
				cancel()
				if fail != "" {
					errs++
					why = append(why, fail)
				}
			}
			mu.Lock()
			lats = append(lats, mine...)
			r.errors += errs
			r.missed += missed
			for _, w := range why {
				r.noteErr(w)
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	r.callsPerSec = float64(len(lats)) / time.Since(start).Seconds()
	r.p50, r.p99 = percentiles(lats)
	return r
}

// BenchmarkLoadMixed: 200 concurrent streamable-HTTP sessions of 20 mixed
// requests (mixedScript) against one instance (SQLite, in a child process)
// and against two instances on PostgreSQL behind nginx (scripts/cluster.sh
// with two instances; nginx routes by Mcp-Session-Id), side by side in one
// run. The cluster half needs nginx, psql and scripts/start-postgres.sh;
// without them it is skipped and only the one-instance figures are
// reported. Run with -benchtime 1x.
func BenchmarkLoadMixed(b *testing.B) {
	for b.Loop() {
		child := startLoadChild(b, "clawbridge")
		one := mixedRun("http://" + child.addr + "/mcp")
		child.stop()
		b.ReportMetric(float64(one.errors), "one_errors")
		b.ReportMetric(float64(one.missed), "one_missed_list_changed")
		b.ReportMetric(ms(one.p50), "one_p50_ms")
		b.ReportMetric(ms(one.p99), "one_p99_ms")
		b.ReportMetric(one.callsPerSec, "one_req/s")
		if len(one.firstErrs) > 0 {
			b.Logf("one instance, first failures and missed notifications: %q", one.firstErrs)
		}

		cl := startBenchCluster(b, 2)
		if cl == nil {
			continue
		}
		two := mixedRun(cl.URL, transport.WithHTTPHeaders(bearerHeader(cl.Token)))
		served := cl.Upstreams(b)
		cl.Stop(b)
		b.ReportMetric(float64(two.errors), "two_errors")
		b.ReportMetric(float64(two.missed), "two_missed_list_changed")
		b.ReportMetric(ms(two.p50), "two_p50_ms")
		b.ReportMetric(ms(two.p99), "two_p99_ms")
		b.ReportMetric(two.callsPerSec, "two_req/s")
		b.ReportMetric(float64(len(served)), "two_instances_served")
		b.Logf("requests per instance (nginx's log): %v", served)
		if len(two.firstErrs) > 0 {
			b.Logf("two instances, first failures and missed notifications: %q", two.firstErrs)
		}
	}
}

// startBenchCluster starts n instances through internal/clustertest, with
// the files the mixed sessions use, or returns nil (the caller skips its
// cluster half) when nginx or PostgreSQL is not there.
func startBenchCluster(b *testing.B, n int) *clustertest.Cluster {
	if prog := clustertest.Missing(); prog != "" {
		b.Logf("cluster half skipped: %s is not installed", prog)
		return nil
	}
	dir := b.TempDir()
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := range loadCalls {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), []byte("x"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "data.csv"), []byte(loadCSV), 0o600); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "clawbridge")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	// The instances log at warn, as the one-instance child does; each
	// takes all the sessions, whatever the hash gives it.
	return clustertest.Start(b, clustertest.Options{Root: "..", Bin: bin, Dir: dir, Instances: n,
		MaxSessions: loadSessions * 2, Env: []string{"CLAWBRIDGE_LOG_LEVEL=warn"}})
}
