package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestHost_LoopNotifiesSessionsRunsCallsAndStopsWithTheServer: a tool's
// Attach loop starts when the server serves, its Notify reaches the
// connected stdio session as notifications/message, its Run goes through
// the pipeline without asking to confirm a High call (the job was
// confirmed when added), Level reports the call's level, and the loop has
// returned when ServeStdio does (goleak checks the rest).
func TestHost_LoopNotifiesSessionsRunsCallsAndStopsWithTheServer(t *testing.T) {
	ran := make(chan string, 1)
	high := echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		ran <- c.Args.String("text")
		return &tool.Result{Summary: "sent " + c.Args.String("text")}, nil
	})
	high.Actions[0].Level = tool.High
	stopped := make(chan struct{})
	results := make(chan string, 4)
	ticker := tool.Tool{Name: "ticker", Title: "Ticker", Description: "A loop for host tests.",
		Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return &tool.Result{}, nil }}},
		Attach: func(h tool.Host) func(context.Context) {
			return func(ctx context.Context) {
				defer close(stopped)
				for !h.Notify("info", "cron", map[string]any{"event": "tick"}) {
					select {
					case <-ctx.Done():
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
				l, err := h.Level("echo", "", nil)
				results <- fmt.Sprint(l, err)
				_, err = h.Level("nosuch", "", nil)
				results <- fmt.Sprint(err)
				out, err := h.Run(ctx, "echo", "", map[string]any{"text": "hello"})
				results <- fmt.Sprint(out, err)
				<-ctx.Done()
			}
		}}
	s := hardServer(t, func(c *config.Config) { c.Confirm = "deny" }, high, ticker)
	in, lines, done := stdioRun(t, context.Background(), s)
	deadline := time.After(10 * time.Second)
	for got := false; !got; {
		select {
		case m := <-lines:
			if m["method"] == "notifications/message" && strings.Contains(fmt.Sprint(m["params"]), "tick") {
				got = true
			}
		case <-deadline:
			t.Fatal("no notifications/message from the loop")
		}
	}
	for i, want := range []string{"high<nil>", `no tool "nosuch"`, "sent hello<nil>"} {
		select {
		case got := <-results:
			if !strings.Contains(got, want) {
				t.Errorf("result %d = %q, want %q", i, got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("result %d never came", i)
		}
	}
	if got := <-ran; got != "hello" {
		t.Fatalf("the scheduled call ran with %q", got)
	}
	// A client's own High call is still refused under confirm: deny.
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
	if m := waitID(t, lines, 5); !strings.Contains(fmt.Sprint(m["result"]), "isError:true") {
		t.Fatalf("a client's High call under deny: %v", m)
	}
	in.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	default:
		t.Fatal("the loop was still running after ServeStdio returned")
	}
}
