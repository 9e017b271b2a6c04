package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// stdioRun serves s over pipes; it returns the client's ends, a channel of
// decoded output lines and one with ServeStdio's result.
func stdioRun(t *testing.T, ctx context.Context, s *Server) (*io.PipeWriter, <-chan map[string]any, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, inR, outW); outW.Close() }()
	// ServeStdio cannot interrupt a Read of its input: a test that stops it
	// by its context must end the input too, or the reader goroutine leaks.
	t.Cleanup(func() { inW.Close() })
	lines := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout carried a non-JSON line: %q", sc.Text())
				continue
			}
			lines <- m
		}
		close(lines)
	}()
	send := func(s string) { fmt.Fprintln(inW, s) }
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	waitID(t, lines, 0)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return inW, lines, done
}

// waitID returns the response to request id, skipping anything else.
func waitID(t *testing.T, lines <-chan map[string]any, id float64) map[string]any {
	t.Helper()
	return bridgetest.Answer(t, lines, id, 20*time.Second)
}

// giantLine streams a JSON-RPC request of n bytes without building it.
type giantLine struct {
	head []byte
	n    int
	sent int
}

func (g *giantLine) Read(p []byte) (int, error) {
	if g.sent >= g.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && g.sent < g.n {
		switch {
		case g.sent < len(g.head):
			p[k] = g.head[g.sent]
		case g.sent == g.n-1:
			p[k] = '\n'
		default:
			p[k] = 'x'
		}
		k++
		g.sent++
	}
	return k, nil
}

// TestStdioSizeCap: a line over the cap (40 MB here) gets a JSON-RPC error
// with its id, is never held in memory, and the next line is served.
func TestStdioSizeCap(t *testing.T) {
	s := hardServer(t, func(c *config.Config) { c.HTTP.MaxBodyBytes = 1 << 20 })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, lines, done := stdioRun(t, ctx, s)

	// The id nested in params must not be taken for the request's.
	head := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"id":99,"text":"`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := io.Copy(in, &giantLine{head: []byte(head), n: 40 << 20}); err != nil {
		t.Fatal(err)
	}
	m := waitID(t, lines, 7)
	runtime.ReadMemStats(&after)
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"].(float64) != -32600 || !strings.Contains(e["message"].(string), "too large") {
		t.Fatalf("oversized line: %v", m)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("a 40 MB line allocated %d MB: it was read into memory", grew>>20)
	}
	// One without a readable id is answered with id null.
	io.Copy(in, &giantLine{head: []byte(`{"params":{"x":"`), n: 2 << 20})
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"next"}}}`)
	sawNull := false
	for m := range lines {
		if m["id"] == nil && m["error"] != nil {
			sawNull = true
		}
		if id, _ := m["id"].(float64); id == 8 {
			if !strings.Contains(fmt.Sprint(m["result"]), "next") {
				t.Fatalf("the line after the giant ones: %v", m)
			}
			break
		}
	}
	if !sawNull {
		t.Error("a giant line without id got no error")
	}
	in.Close()
	if err := <-done; err != nil {
		t.Fatalf("stdin EOF: %v, want nil (exit 0)", err)
	}
}

func sleepTool() tool.Tool {
	t := echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		d, _ := time.ParseDuration(c.Args.String("text"))
		select {
		case <-time.After(d):
			return &tool.Result{Summary: "slept " + d.String()}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	t.Actions[0].Timeout = tool.Slow
	return t
}

// serverReturned waits up to limit for a serve loop's result on done: an
// error fails t, and so does no result (with why).
func serverReturned(t *testing.T, done <-chan error, limit time.Duration, why string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the server returned %v, want nil", err)
		}
	case <-time.After(limit):
		t.Fatal(why)
	}
}

// TestGracefulShutdown_Stdio: on SIGTERM (ctx cancelled) a call in flight
// is answered and ServeStdio returns nil; new requests are refused; a call
// longer than the grace is cut and ServeStdio still returns.
func TestGracefulShutdown_Stdio(t *testing.T) {
	s := hardServer(t, func(c *config.Config) { c.ShutdownGrace = 2 * time.Second }, sleepTool())
	ctx, cancel := context.WithCancel(context.Background())
	in, lines, done := stdioRun(t, ctx, s)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"700ms"}}}`)
	time.Sleep(200 * time.Millisecond)
	cancel()
	time.Sleep(100 * time.Millisecond)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m := waitID(t, lines, 2)
	if m["error"] == nil || !strings.Contains(fmt.Sprint(m["error"]), "shutting down") {
		t.Errorf("a request after the signal: %v", m)
	}
	m = waitID(t, lines, 1)
	if !strings.Contains(fmt.Sprint(m["result"]), "slept 700ms") {
		t.Fatalf("call in flight at shutdown: %v", m)
	}
	serverReturned(t, done, 5*time.Second, "ServeStdio did not return after the call finished")

	// Longer than the grace: cut, and still out.
	s = hardServer(t, func(c *config.Config) { c.ShutdownGrace = 300 * time.Millisecond }, sleepTool())
	ctx, cancel = context.WithCancel(context.Background())
	in, lines, done = stdioRun(t, ctx, s)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"1m"}}}`)
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	cancel()
	serverReturned(t, done, 8*time.Second, "a call longer than the grace kept the server up")
	if time.Since(start) > 4*time.Second {
		t.Errorf("took %v with a 300ms grace", time.Since(start))
	}
	// The cut call must not be reported as done.
	for m := range lines {
		if m["id"] == 1.0 && strings.Contains(fmt.Sprint(m["result"]), "slept") {
			t.Errorf("a call cut at the grace was answered as finished: %v", m)
		}
	}
}

// TestGracefulShutdown_StdinEOF: a request followed by the end of stdin is
// still answered (echo request | clawbridge), then ServeStdio returns nil.
func TestGracefulShutdown_StdinEOF(t *testing.T) {
	s := hardServer(t, nil, sleepTool())
	in, lines, done := stdioRun(t, context.Background(), s)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"300ms"}}}`)
	in.Close()
	if m := waitID(t, lines, 3); !strings.Contains(fmt.Sprint(m["result"]), "slept") {
		t.Fatalf("answer after stdin EOF: %v", m)
	}
	if err := <-done; err != nil {
		t.Fatalf("stdin EOF: %v", err)
	}
}
