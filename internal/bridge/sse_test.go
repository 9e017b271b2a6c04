package bridge

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// TestBridgeSSE_ListCallProgressAndStopped: server-everything reached over
// its (deprecated, still common) HTTP+SSE transport: its tools listed, a
// call with arguments answers intact, progress reaches the caller, and once
// the server is stopped a call is a clear unavailable error and the server
// is reported failed with that error.
func TestBridgeSSE_ListCallProgressAndStopped(t *testing.T) {
	srv := bridgetest.ServeEverything(t, "sse")
	m := newManager(t, t.TempDir(), config.BridgeServer{Name: "everything-sse", URL: srv.URL("/sse"), Transport: "sse", Timeout: 20 * time.Second})
	ctx := context.Background()

	tools, err := m.Tools(ctx, "everything-sse")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, td := range tools {
		names[td.Name] = true
	}
	if !names["echo"] || !names["get-sum"] || !names["trigger-long-running-operation"] {
		t.Fatalf("tools over SSE: %v", names)
	}
	if st := stateOf(m, "everything-sse"); st.State != Running || st.Transport != "sse" || st.Tools != len(tools) {
		t.Fatalf("status: %+v", st)
	}

	msg := "héllo 世界 \"quoted\" \\ back\nslash"
	res, err := m.Call(ctx, "everything-sse", "echo", map[string]any{"message": msg}, nil)
	if err != nil {
		t.Fatalf("echo over SSE: %v", err)
	}
	if res.IsError || !strings.Contains(text(res), msg) {
		t.Fatalf("echo over SSE: %q", text(res))
	}
	res, err = m.Call(ctx, "everything-sse", "get-sum", map[string]any{"a": 0.25, "b": -7}, nil)
	if err != nil {
		t.Fatalf("get-sum over SSE: %v", err)
	}
	if !strings.Contains(text(res), "-6.75") {
		t.Fatalf("get-sum over SSE: %q", text(res))
	}

	var mu sync.Mutex
	var steps []float64
	res, err = m.Call(ctx, "everything-sse", "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 4},
		func(done, total float64, _ string) {
			mu.Lock()
			steps = append(steps, done)
			mu.Unlock()
		})
	if err != nil {
		t.Fatalf("long-running over SSE: %v", err)
	}
	if !strings.Contains(text(res), "Steps: 4") {
		t.Fatalf("long-running over SSE: %q", text(res))
	}
	mu.Lock()
	if len(steps) < 4 || steps[len(steps)-1] != 4 {
		t.Fatalf("progress over SSE: %v", steps)
	}
	mu.Unlock()

	srv.Stop()
	_, err = m.Call(ctx, "everything-sse", "echo", map[string]any{"message": "after stop"}, nil)
	te, ok := toolerr.As(err)
	if !ok || te.Code != toolerr.CodeUnavailable || !strings.Contains(te.Message, "everything-sse") {
		t.Fatalf("a call to a stopped SSE server: %v", err)
	}
	if st := stateOf(m, "everything-sse"); st.State != Failed || st.LastError == "" {
		t.Fatalf("a stopped SSE server's status: %+v", st)
	}
}

// TestBridgeSSE_StoppedDuringCall: an SSE server that goes away while a
// call is in flight fails that call at once with a clear unavailable
// error, not at the call's timeout, and a restarted server is reconnected
// by the next call.
func TestBridgeSSE_StoppedDuringCall(t *testing.T) {
	srv := bridgetest.ServeEverything(t, "sse")
	m := newManager(t, t.TempDir(), config.BridgeServer{Name: "sse", URL: srv.URL("/sse"), Transport: "sse", Timeout: time.Minute})
	started := make(chan struct{})
	var once sync.Once
	go func() {
		<-started
		srv.Stop()
	}()
	t0 := time.Now()
	_, err := m.Call(context.Background(), "sse", "trigger-long-running-operation", map[string]any{"duration": 30, "steps": 30},
		func(float64, float64, string) { once.Do(func() { close(started) }) })
	te, ok := toolerr.As(err)
	if !ok || te.Code != toolerr.CodeUnavailable || !strings.Contains(te.Message, "SSE stream ended") || te.Hint == "" {
		t.Fatalf("the call in flight: %v", err)
	}
	if d := time.Since(t0); d > 15*time.Second {
		t.Fatalf("the call failed only after %s", d)
	}
	if st := stateOf(m, "sse"); st.State != Failed || !strings.Contains(st.LastError, "SSE stream ended") {
		t.Fatalf("status: %+v", st)
	}
	t.Logf("in flight: %v", err)

	srv.Start(t)
	res, err := m.Call(context.Background(), "sse", "echo", map[string]any{"message": "back again"}, nil)
	if err != nil || !strings.Contains(text(res), "back again") {
		t.Fatalf("after the server came back: %v", err)
	}
	if st := stateOf(m, "sse"); st.State != Running || st.LastError != "" {
		t.Fatalf("status after reconnecting: %+v", st)
	}
}
