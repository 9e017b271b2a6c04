package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// hardServer builds a server with config changes applied before New.
func hardServer(t *testing.T, mut func(*config.Config), tools ...tool.Tool) *Server {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Confirm = "auto"
	if mut != nil {
		mut(d.Config)
	}
	if err := d.Config.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tools) == 0 {
		tools = []tool.Tool{echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
			return &tool.Result{Summary: c.Args.String("text")}, nil
		})}
	}
	s := newServer(t, d, tools...)
	return s
}

// listen runs ListenAndServe on a free loopback port until the test ends;
// it returns the address and a channel that yields ListenAndServe's result.
func listen(t *testing.T, s *Server) (string, context.CancelFunc, <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addr <- a.String() }) }()
	t.Cleanup(cancel)
	select {
	case a := <-addr:
		return a, cancel, done
	case err := <-done:
		t.Fatal(err)
	}
	return "", cancel, done
}

// closedWithin reports whether the server closes conn within d while the
// client keeps trickling one byte of what every 50 ms.
func closedWithin(conn net.Conn, what string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	readErr := make(chan struct{})
	go func() {
		conn.SetReadDeadline(deadline)
		io.Copy(io.Discard, conn) // ends when the server closes the connection
		close(readErr)
	}()
	for i := 0; time.Now().Before(deadline); i++ {
		select {
		case <-readErr:
			return time.Now().Before(deadline)
		case <-time.After(50 * time.Millisecond):
		}
		conn.Write([]byte{what[i%len(what)]})
	}
	return false
}

// TestHTTPTimeouts_TricklingHeaders: 20 clients sending their headers byte
// by byte are all cut off after read_header_timeout.
func TestHTTPTimeouts_TricklingHeaders(t *testing.T) {
	s := hardServer(t, func(c *config.Config) { c.HTTP.ReadHeaderTimeout = 300 * time.Millisecond })
	addr, _, _ := listen(t, s)
	var wg sync.WaitGroup
	var mu sync.Mutex
	held := 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			conn.Write([]byte("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
			if !closedWithin(conn, "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", 5*time.Second) {
				mu.Lock()
				held++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if held > 0 {
		t.Fatalf("%d of 20 trickling connections were still open after 5s (read_header_timeout 300ms)", held)
	}
}

// rawConn is a TCP connection to a listening hardServer(t, mut), closed
// when the test ends.
func rawConn(t *testing.T, mut func(*config.Config)) net.Conn {
	t.Helper()
	addr, _, _ := listen(t, hardServer(t, mut))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestHTTPTimeouts_TricklingBody: a body sent byte by byte is cut off after
// body_timeout with 408, and the connection is closed.
func TestHTTPTimeouts_TricklingBody(t *testing.T) {
	conn := rawConn(t, func(c *config.Config) { c.HTTP.BodyTimeout = 300 * time.Millisecond })
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	got := make(chan string, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		got <- fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	start := time.Now()
	for {
		select {
		case g := <-got:
			if !strings.HasPrefix(g, "408") || !strings.Contains(g, "body_timeout") {
				t.Fatalf("trickled body: %q, want 408 naming http.body_timeout", g)
			}
			if time.Since(start) > 3*time.Second {
				t.Fatalf("cut after %v", time.Since(start))
			}
			return
		case <-time.After(50 * time.Millisecond):
			if time.Since(start) > 5*time.Second {
				t.Fatal("a trickled body held the connection for 5s")
			}
			conn.Write([]byte(" "))
		}
	}
}

// TestHTTPTimeouts_IdleKeepAlive: an idle keep-alive connection is closed.
func TestHTTPTimeouts_IdleKeepAlive(t *testing.T) {
	conn := rawConn(t, func(c *config.Config) { c.HTTP.IdleTimeout = 300 * time.Millisecond })
	fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	start := time.Now()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v after %v, want EOF from the server", err, time.Since(start))
	}
}

// streamClient opens and initialises a 2025-06-18 streamable-HTTP session.
func streamClient(t *testing.T, base string) (*client.Client, error) {
	t.Helper()
	return loadClient(base + "/mcp")
}

// callEcho calls the echo tool (sleepTool takes its text as a duration).
func callEcho(c *client.Client, text string) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": text}
	return c.CallTool(ctx, req)
}

// TestSessionCap: beyond http.max_sessions a new session (streamable or
// SSE) gets 503 with a message, the existing ones keep working, and a
// session that ends or idles out frees its slot.
func TestSessionCap(t *testing.T) {
	s := hardServer(t, func(c *config.Config) {
		c.HTTP.MaxSessions = 3
		c.HTTP.SessionIdleTTL = time.Second
	})
	addr, _, _ := listen(t, s)
	base := "http://" + addr
	var open []*client.Client
	for i := 0; i < 3; i++ {
		c, err := streamClient(t, base)
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		defer c.Close()
		open = append(open, c)
	}
	if _, err := streamClient(t, base); err == nil || !strings.Contains(err.Error(), "503") && !strings.Contains(err.Error(), "too many sessions") {
		t.Fatalf("4th session: %v, want 503 too many sessions", err)
	}
	// The refusal is a plain HTTP 503 with a message, for SSE too.
	resp, err := http.Get(base + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "max_sessions") {
		t.Fatalf("SSE beyond the cap: %d %s", resp.StatusCode, b)
	}
	for i, c := range open {
		if r, err := callEcho(c, "still here"); err != nil || r.IsError {
			t.Fatalf("existing session %d broken by the cap: %v %v", i+1, r, err)
		}
	}
	// Ending a session (DELETE) frees its slot.
	open[0].Close()
	c, err := streamClient(t, base)
	if err != nil {
		t.Fatalf("after a DELETE the slot is still taken: %v", err)
	}
	defer c.Close()
	// Sessions that idle out free theirs: keep one busy, let the others idle.
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; ; i++ {
		callEcho(c, fmt.Sprint("busy ", i))
		if nc, err := streamClient(t, base); err == nil {
			nc.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("idle sessions never freed their slots")
		}
		time.Sleep(300 * time.Millisecond)
	}
	if r, err := callEcho(c, "still busy"); err != nil || r.IsError {
		t.Fatalf("the busy session was swept: %v %v", r, err)
	}
}

// TestDeleteSession_Unknown404: DELETE of a session that does not exist or
// has ended answers 404; without a session id, 400.
func TestDeleteSession_Unknown404(t *testing.T) {
	s := hardServer(t, nil)
	addr, _, _ := listen(t, s)
	base := "http://" + addr
	del := func(id string) int {
		req, _ := http.NewRequest(http.MethodDelete, base+"/mcp", nil)
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
		}
		req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion20250618)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := del("mcp-session-00000000000000000000000000000000"); got != 404 {
		t.Errorf("unknown session: %d, want 404", got)
	}
	if got := del("anything"); got != 404 {
		t.Errorf("malformed session id: %d, want 404", got)
	}
	if got := del(""); got != 400 {
		t.Errorf("no session id: %d, want 400", got)
	}
	c, err := streamClient(t, base)
	if err != nil {
		t.Fatal(err)
	}
	id := c.GetSessionId()
	if got := del(id); got != 200 {
		t.Errorf("live session: %d, want 200", got)
	}
	if got := del(id); got != 404 {
		t.Errorf("ended session: %d, want 404", got)
	}
	c.Close()
}

// TestOriginAllowList_Port: the server's own origin and configured ones are
// admitted with their port only; other ports and hosts get 403.
func TestOriginAllowList_Port(t *testing.T) {
	s := hardServer(t, func(c *config.Config) {
		c.HTTP.AllowedOrigins = []string{"http://localhost:6274", "https://app.example"}
	})
	h := testHandler(t, s, "127.0.0.1:8765")
	cases := []struct {
		origin string
		want   int
	}{
		{"", 200},
		{"http://localhost:8765", 200},
		{"http://127.0.0.1:8765", 200},
		{"http://[::1]:8765", 200},
		{"http://localhost:9999", 403},
		{"http://127.0.0.1:3000", 403},
		{"https://localhost:8765", 403},
		{"http://localhost:6274", 200},
		{"http://localhost:6275", 403},
		{"https://app.example", 200},
		{"https://app.example:8443", 403},
		{"http://app.example", 403},
		{"https://evil.example", 403},
		{"null", 403},
		{"http://localhost:8765.evil.example", 403},
	}
	srv := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	for _, c := range cases {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/healthz", nil)
		req.Host = "127.0.0.1:8765"
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Origin %q: %d, want %d (%s)", c.origin, resp.StatusCode, c.want, b)
		}
		if c.want == 403 && !strings.Contains(string(b), "allowed_origins") {
			t.Errorf("Origin %q: refusal does not say what to do: %s", c.origin, b)
		}
	}
}

// TestGracefulShutdown_HTTP: on shutdown calls in flight over streamable
// HTTP and SSE get their results, new connections are refused, and
// ListenAndServe returns; a call longer than the grace is cut.
func TestGracefulShutdown_HTTP(t *testing.T) {
	s := hardServer(t, func(c *config.Config) { c.ShutdownGrace = 10 * time.Second }, sleepTool())
	addr, stop, done := listen(t, s)
	base := "http://" + addr
	stream, err := streamClient(t, base)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	sseT, err := transport.NewSSE(base + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	sse := client.NewClient(sseT)
	if err := sse.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer sse.Close()
	if _, err := bridgetest.Initialize(context.Background(), sse, mcp.ProtocolVersion20250618, "transport-test"); err != nil {
		t.Fatal(err)
	}
	results := make(chan string, 2)
	for _, c := range []*client.Client{stream, sse} {
		go func() {
			r, err := callEcho(c, "800ms")
			if err != nil {
				results <- err.Error()
				return
			}
			results <- text(r)
		}()
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	stop()
	time.Sleep(100 * time.Millisecond)
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("still accepting connections after shutdown began")
	}
	for i := 0; i < 2; i++ {
		if r := <-results; !strings.Contains(r, "slept 800ms") {
			t.Errorf("call in flight at shutdown: %q", r)
		}
	}
	serverReturned(t, done, 12*time.Second, "ListenAndServe did not return")
	if time.Since(start) > 6*time.Second {
		t.Errorf("shutdown took %v (grace 10s) although the calls were done", time.Since(start))
	}

	// Longer than the grace: cut, and the server still stops.
	s = hardServer(t, func(c *config.Config) { c.ShutdownGrace = 300 * time.Millisecond }, sleepTool())
	addr, stop, done = listen(t, s)
	stream, err = streamClient(t, "http://"+addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	go callEcho(stream, "1m")
	time.Sleep(200 * time.Millisecond)
	start = time.Now()
	stop()
	serverReturned(t, done, 8*time.Second, "a call longer than the grace kept the server up")
	if time.Since(start) > 4*time.Second {
		t.Errorf("took %v with a 300ms grace", time.Since(start))
	}
}

// TestSessionRouting_InstancePrefix: with http.instance set, every
// streamable session id starts with "mcp-session-<instance>-", the prefix
// a load balancer routes a session back to its instance by (README
// "Running several instances"); without it, ids carry no instance.
func TestSessionRouting_InstancePrefix(t *testing.T) {
	for _, inst := range []string{"i2", ""} {
		s := hardServer(t, func(c *config.Config) { c.HTTP.Instance = inst })
		addr, _, _ := listen(t, s)
		c, err := streamClient(t, "http://"+addr)
		if err != nil {
			t.Fatal(err)
		}
		id := c.GetSessionId()
		c.Close()
		rest, ok := strings.CutPrefix(id, "mcp-session-")
		if inst != "" {
			rest, ok = strings.CutPrefix(id, "mcp-session-"+inst+"-")
		}
		if !ok || len(rest) != 32 || strings.Contains(rest, "-") {
			t.Errorf("instance %q: session id %q, want mcp-session-%s 32 hex digits", inst, id, map[bool]string{true: inst + "-"}[inst != ""])
		}
	}
}
