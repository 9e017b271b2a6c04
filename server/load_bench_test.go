package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The load benches run each server in a child process (this test binary,
// re-executed with loadServeEnv set) so that its CPU time, memory and
// goroutines are the server's alone, not the clients'. The child prints its
// address and, for clawbridge, its database path, then serves and answers
// lines on its stdin until it closes:
//
//	gc          collect and return freed memory to the OS (so that VmRSS,
//	            read from outside, is what is live), then print
//	            "goroutines N"
//	stacks      print the goroutine profile (grouped stacks), then "end"
const loadServeEnv = "CLAWBRIDGE_BENCH_SERVE"

const (
	loadSessions = 200
	loadCalls    = 20
)

// TestLoadServe is the child side of the load benches and of
// TestSessionLeak_; it skips otherwise.
func TestLoadServe(t *testing.T) {
	which := os.Getenv(loadServeEnv)
	if which == "" {
		t.Skip("only run as the load benches' server process")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler
	db := "-"
	switch which {
	case "clawbridge":
		s, dbPath := loadClawbridge(t)
		db = dbPath
		var closeStreams func(context.Context)
		h, closeStreams = s.httpHandler(ln.Addr().String())
		defer closeStreams(context.Background())
	case "reference":
		h = mcpserver.NewStreamableHTTPServer(referenceServer(), mcpserver.WithEndpointPath("/mcp"))
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	fmt.Printf("%s %s\n", ln.Addr(), db)
	in := bufio.NewScanner(os.Stdin) // the parent closes stdin when done
	for in.Scan() {
		switch in.Text() {
		case "gc":
			runtime.GC()
			debug.FreeOSMemory()
			fmt.Printf("goroutines %d\n", runtime.NumGoroutine())
		case "stacks":
			pprof.Lookup("goroutine").WriteTo(os.Stdout, 1)
			fmt.Println("end")
		}
	}
	srv.Close()
}

// loadChild is the parent's handle on a TestLoadServe process.
type loadChild struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	out      *bufio.Reader
	addr, db string
	pid      int
	busy     int // "database is locked" lines it logged; read after logDone
	logDone  chan struct{}
}

func startLoadChild(tb testing.TB, which string) *loadChild {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadServe$")
	cmd.Env = append(os.Environ(), loadServeEnv+"="+which)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &loadChild{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout), pid: cmd.Process.Pid, logDone: make(chan struct{})}
	go func() {
		defer close(c.logDone)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "database is locked") || strings.Contains(sc.Text(), "SQLITE_BUSY") {
				c.busy++
			}
		}
	}()
	line, err := c.out.ReadString('\n')
	if _, err2 := fmt.Sscan(line, &c.addr, &c.db); err != nil || err2 != nil {
		cmd.Process.Kill()
		tb.Fatalf("%s server did not start: %v %v", which, err, err2)
	}
	tb.Cleanup(c.stop)
	return c
}

// ask sends one command line and returns the first line of the answer.
func (c *loadChild) ask(cmd string) string {
	fmt.Fprintln(c.stdin, cmd)
	line, _ := c.out.ReadString('\n')
	return strings.TrimSpace(line)
}

// settle collects garbage in the child and returns its goroutine count.
func (c *loadChild) settle() int {
	n, _ := strconv.Atoi(strings.TrimPrefix(c.ask("gc"), "goroutines "))
	return n
}

// stacks is the child's goroutine profile, grouped by stack.
func (c *loadChild) stacks() string {
	fmt.Fprintln(c.stdin, "stacks")
	var b strings.Builder
	for {
		line, err := c.out.ReadString('\n')
		if err != nil || line == "end\n" {
			return b.String()
		}
		b.WriteString(line)
	}
}

// stop closes the child's stdin and waits for it; safe to call twice.
func (c *loadChild) stop() {
	if c.stdin != nil {
		c.stdin.Close()
		c.stdin = nil
		c.cmd.Wait()
		<-c.logDone
	}
}

// loadClawbridge is the full registry on a disk-backed data dir, with room
// for every bench session; the workspace holds the files the calls stat.
func loadClawbridge(t testing.TB) (*Server, string) {
	d := tooltest.Deps(t)
	d.Config.HTTP.MaxSessions = loadSessions * 2
	d.Log = zerolog.New(os.Stderr).Level(zerolog.WarnLevel)
	for i := range loadCalls {
		if err := os.WriteFile(filepath.Join(d.Config.Workspace[0], fmt.Sprintf("f%d.txt", i)), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.Config.Workspace[0], "data.csv"), []byte(loadCSV), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Tools: allTools(t, d), Log: d.Log, Version: "bench"})
	if err != nil {
		t.Fatal(err)
	}
	return s, storeOf(d).Path()
}

// loadCSV is the table the mixed load's data_processor calls describe.
const loadCSV = "month,region,amount\n2026-01,north,120.5\n2026-01,south,98\n2026-02,north,133\n2026-02,south,101.25\n2026-03,north,140\n2026-03,south,87\n"

// referenceServer is a minimal mcp-go server with one trivial tool.
func referenceServer() *mcpserver.MCPServer {
	ref := mcpserver.NewMCPServer("reference", "1", mcpserver.WithToolCapabilities(true))
	ref.AddTool(mcp.NewTool("stat", mcp.WithString("path")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("file " + req.GetString("path", "")), nil
	})
	return ref
}

// referenceStatServer is a minimal mcp-go server whose one tool does the
// work of clawbridge's `file stat` without its pipeline: it stats a file of
// root, reads its first bytes for the kind and encoding, and answers the
// same structuredContent with its text form (summary line, then the JSON),
// as MCP 2025-06-18 asks of a tool with an output schema. Against it,
// BenchmarkCallOverhead measures what the pipeline adds; against the
// trivial tool, what clawbridge's call costs in all (the stat syscalls and
// the six times larger result that the client decodes included).
func referenceStatServer(root string) *mcpserver.MCPServer {
	ref := mcpserver.NewMCPServer("reference", "1", mcpserver.WithToolCapabilities(true))
	ref.AddTool(mcp.NewTool("stat", mcp.WithString("path")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rel := req.GetString("path", "")
		abs := filepath.Join(root, filepath.Clean("/"+rel))
		info, err := os.Lstat(abs)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		data := map[string]any{"path": rel, "type": "file", "size": info.Size(), "mode": info.Mode().Perm().String(),
			"mtime": info.ModTime().UTC().Format(time.RFC3339), "in_trash": false}
		if f, err := os.Open(abs); err == nil {
			head := make([]byte, min(info.Size(), 64<<10))
			n, _ := io.ReadFull(f, head)
			f.Close()
			head = head[:n]
			data["mime"] = mime.TypeByExtension(filepath.Ext(abs))
			data["binary"] = bytes.IndexByte(head, 0) >= 0
			if utf8.Valid(head) {
				data["encoding"] = "utf-8"
			}
		}
		raw, _ := json.Marshal(data)
		res := mcp.NewToolResultText(fmt.Sprintf("%s: file, %d B\n%s", rel, info.Size(), raw))
		res.RawStructuredContent = raw
		return res, nil
	})
	return ref
}

// loadResult is one server's figures from one load run.
type loadResult struct {
	errors      int
	p50, p99    time.Duration
	cpu         time.Duration // the server process's user+system time during the run
	dbFDs       int           // descriptors open on the database files after the run
	threads     int           // OS threads of the server after the sessions closed
	busyWarning int           // "database is locked" lines the server logged
}

// BenchmarkLoad: 200 concurrent streamable-HTTP sessions × 20 `file stat`
// calls against clawbridge and against a minimal mcp-go server, side by
// side in one run. Run with -benchtime 1x.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		cb := loadRun(b, "clawbridge", "file", func(i int) map[string]any {
			return map[string]any{"action": "stat", "path": fmt.Sprintf("f%d.txt", i)}
		})
		ref := loadRun(b, "reference", "stat", func(i int) map[string]any {
			return map[string]any{"path": fmt.Sprintf("f%d.txt", i)}
		})
		b.ReportMetric(float64(cb.errors), "errors")
		b.ReportMetric(float64(ref.errors), "ref_errors")
		b.ReportMetric(ms(cb.p50), "p50_ms")
		b.ReportMetric(ms(cb.p99), "p99_ms")
		b.ReportMetric(ms(ref.p50), "ref_p50_ms")
		b.ReportMetric(ms(ref.p99), "ref_p99_ms")
		b.ReportMetric(cb.cpu.Seconds(), "cpu_s")
		b.ReportMetric(ref.cpu.Seconds(), "ref_cpu_s")
		b.ReportMetric(float64(cb.p99)/float64(max(ref.p99, 1)), "p99_ratio")
		b.ReportMetric(cb.cpu.Seconds()/max(ref.cpu.Seconds(), 0.01), "cpu_ratio")
		b.ReportMetric(float64(cb.dbFDs), "db_fds")
		b.ReportMetric(float64(cb.threads), "threads_after")
		b.ReportMetric(float64(cb.busyWarning), "busy_warnings")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func loadRun(b *testing.B, which, toolName string, args func(i int) map[string]any) loadResult {
	child := startLoadChild(b, which)
	base := "http://" + child.addr
	pid := child.pid

	var (
		mu   sync.Mutex
		lats []time.Duration
		errs int
		wg   sync.WaitGroup
	)
	cpu0 := procCPU(pid)
	for range loadSessions {
		wg.Go(func() {
			fail := func(n int) { mu.Lock(); errs += n; mu.Unlock() }
			c, err := loadClient(base + "/mcp")
			if err != nil {
				fail(loadCalls)
				return
			}
			defer c.Close()
			mine := make([]time.Duration, 0, loadCalls)
			for i := range loadCalls {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = toolName, args(i)
				start := time.Now()
				res, err := c.CallTool(ctx, req)
				mine = append(mine, time.Since(start))
				cancel()
				if err != nil || res.IsError {
					fail(1)
				}
			}
			mu.Lock()
			lats = append(lats, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	cpu := procCPU(pid) - cpu0
	time.Sleep(200 * time.Millisecond) // let the server finish closing sessions
	r := loadResult{errors: errs, cpu: cpu, threads: procThreads(pid)}
	if child.db != "-" {
		r.dbFDs = procFDsOn(pid, child.db)
	}
	child.stop()
	r.busyWarning = child.busy
	r.p50, r.p99 = percentiles(lats)
	return r
}

// percentiles sorts lats and returns its p50 and p99.
func percentiles(lats []time.Duration) (p50, p99 time.Duration) {
	slices.Sort(lats)
	if len(lats) == 0 {
		return 0, 0
	}
	return lats[len(lats)/2], lats[len(lats)*99/100]
}

// loadClient opens and initialises a 2025-06-18 streamable-HTTP session at
// url (the /mcp endpoint).
func loadClient(url string, opts ...transport.StreamableHTTPCOption) (*client.Client, error) {
	quiet := transport.WithHTTPLogger(slog.New(slog.DiscardHandler)) // failures come back as errors
	tr, err := transport.NewStreamableHTTP(url, append([]transport.StreamableHTTPCOption{quiet}, opts...)...)
	if err != nil {
		return nil, err
	}
	c := client.NewClient(tr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Start's context is the GET stream's too (with WithContinuousListening):
	// it must outlive this function.
	if err := c.Start(context.Background()); err != nil {
		return nil, err
	}
	if _, err := bridgetest.Initialize(ctx, c, mcp.ProtocolVersion20250618, "load-bench"); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// processCPU is this process's user+system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is a process's user+system time from /proc/<pid>/stat (in clock
// ticks of 10 ms, the Linux USER_HZ).
func procCPU(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 on
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

func procThreads(pid int) int {
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// procFDsOn counts a process's descriptors open on db or its -wal/-shm.
func procFDsOn(pid int, db string) int {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, _ := os.ReadDir(dir)
	n := 0
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(target, db) {
			n++
		}
	}
	return n
}

// BenchmarkCallOverhead: one session's `file stat` through clawbridge's
// whole pipeline against two minimal mcp-go servers, all through mcp-go's
// in-process client (the same transport and client for all three): the
// reference's trivial tool (the yardstick), and a tool that does
// the same stat and answers the same result (referenceStatServer), so that
// the pipeline's own cost shows. The references run first; clawbridge's
// line reports its ns/op as a multiple of each (x_reference: the trivial
// inProcessClient is an initialized mcp-go in-process client of srv,
// closed when the test or benchmark ends.
func inProcessClient(tb testing.TB, srv *mcpserver.MCPServer) *client.Client {
	tb.Helper()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	if _, err := bridgetest.Initialize(ctx, c, mcp.ProtocolVersion20250618, "load-bench"); err != nil {
		tb.Fatal(err)
	}
	return c
}

// tool; x_reference_stat: the same work).
func BenchmarkCallOverhead(b *testing.B) {
	s, _ := loadClawbridge(b)
	s.log, s.deps.Log = zerolog.Nop(), zerolog.Nop() // the audit line would cost the same as its write to a file, not to a terminal
	var refPerOp, refStatPerOp, refCPU, refStatCPU float64
	// run reports wall time (ns/op) and the process's CPU time per call
	// (cpu_µs/op: client, server, GC and the trace appender together),
	// which a shared machine disturbs far less than the wall time.
	run := func(b *testing.B, srv *mcpserver.MCPServer, toolName string, args func(i int) map[string]any) (wall, cpu float64) {
		c := inProcessClient(b, srv)
		ctx := context.Background()
		i := 0
		b.ReportAllocs()
		cpu0 := processCPU()
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = toolName, args(i%loadCalls)
			i++
			if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
				b.Fatalf("call: %v %v", err, res)
			}
		}
		cpu = float64((processCPU() - cpu0).Microseconds()) / float64(b.N)
		b.ReportMetric(cpu, "cpu_µs/op")
		return float64(b.Elapsed()) / float64(b.N), cpu
	}
	b.Run("reference_trivial", func(b *testing.B) {
		refPerOp, refCPU = run(b, referenceServer(), "stat", func(i int) map[string]any { return map[string]any{"path": fmt.Sprintf("f%d.txt", i)} })
	})
	b.Run("reference_same_stat", func(b *testing.B) {
		refStatPerOp, refStatCPU = run(b, referenceStatServer(s.cfg.Workspace[0]), "stat", func(i int) map[string]any { return map[string]any{"path": fmt.Sprintf("f%d.txt", i)} })
	})
	b.Run("clawbridge_file_stat", func(b *testing.B) {
		perOp, cpu := run(b, s.mcp, "file", func(i int) map[string]any { return map[string]any{"action": "stat", "path": fmt.Sprintf("f%d.txt", i)} })
		if refPerOp > 0 {
			b.ReportMetric(perOp/refPerOp, "x_reference")
			b.ReportMetric(cpu/refCPU, "x_reference_cpu")
		}
		if refStatPerOp > 0 {
			b.ReportMetric(perOp/refStatPerOp, "x_reference_stat")
			b.ReportMetric(cpu/refStatCPU, "x_reference_stat_cpu")
		}
	})
}
