package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// Confirmation a model cannot give itself: under the default policy a
// client without elicitation (or whose elicitation fails) gets no token; the
// call is answered with a pending id, a person decides in the store, and
// the same call made again runs once or is told it was rejected.

// waitPending returns the one call waiting in f's store.
func waitPending(t *testing.T, f *fixture) PendingCall {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		calls, err := ListPending(context.Background(), f.s.store)
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) == 1 {
			return calls[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no pending call appeared")
	return PendingCall{}
}

// callAsync makes a call the way a model does under approval: answered at
// once with the pending id, it waits until a person has decided (the call
// leaves the waiting list) and makes the same call again; the channel gets
// the last answer.
func callAsync(t *testing.T, s *Server, c *client.Client, name string, args map[string]any) chan *mcp.CallToolResult {
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		r, err := c.CallTool(ctxFor(t), req)
		if err == nil {
			if id := structuredField(r, "pending_id"); id != "" {
				for waiting(s, id) {
					time.Sleep(20 * time.Millisecond)
				}
				r, err = c.CallTool(ctxFor(t), req)
			}
		}
		if err != nil {
			r = mcp.NewToolResultError("protocol error: " + err.Error())
		}
		ch <- r
	}()
	return ch
}

// waiting reports whether the pending call id still waits for a decision.
func waiting(s *Server, id string) bool {
	calls, err := ListPending(context.Background(), s.store)
	if err != nil {
		return false
	}
	for _, p := range calls {
		if p.ID == id {
			return true
		}
	}
	return false
}

func noToken(t *testing.T, r *mcp.CallToolResult) {
	t.Helper()
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), "cfm_") || strings.Contains(string(b), confirmParam) {
		t.Fatalf("a result carries a confirm token: %s", b)
	}
}

func TestApprove_DefaultPolicyWithoutElicitation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "elicit", 3, db.Open(t))
		c := dial(t, f.http(t), mcp.ProtocolVersion20251125, nil) // declares no elicitation

		t.Run("approve runs it exactly once", func(t *testing.T) {
			ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "deploy", "password": "hunter2"})
			p := waitPending(t, f)
			if p.Tool != "danger" || !strings.Contains(p.Preview, "deploy") || strings.Contains(p.Preview, "hunter2") {
				t.Fatalf("preview %+v: want the call, redacted", p)
			}
			if f.runs.Load() != 0 {
				t.Fatal("ran before approval")
			}
			if err := Decide(context.Background(), f.s.store, p.ID, true); err != nil {
				t.Fatal(err)
			}
			r := <-ch
			noToken(t, r)
			if r.IsError || f.runs.Load() != 1 {
				t.Fatalf("approved call: %s (runs %d)", text(r), f.runs.Load())
			}
			if err := Decide(context.Background(), f.s.store, p.ID, true); !errors.Is(err, ErrNoPendingCall) {
				t.Fatalf("an approval must be single-use: %v", err)
			}
			if f.runs.Load() != 1 {
				t.Fatal("ran twice")
			}
		})
		t.Run("reject refuses it", func(t *testing.T) {
			before := f.runs.Load()
			ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "reject me"})
			p := waitPending(t, f)
			if err := Decide(context.Background(), f.s.store, p.ID, false); err != nil {
				t.Fatal(err)
			}
			r := <-ch
			noToken(t, r)
			if !r.IsError || !strings.Contains(text(r), "rejected") || f.runs.Load() != before {
				t.Fatalf("rejected call: %s", text(r))
			}
		})
	})
}

type failingElicitation struct{}

func (failingElicitation) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return nil, errors.New("the client's form broke")
}

// An elicitation that errors falls back to approval, not to a token.
func TestApprove_ElicitationErrorFallsBack(t *testing.T) {
	f := newFixture(t, "elicit", 3)
	c := dial(t, f.http(t), mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(failingElicitation{}))
	ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "after a failed elicitation"})
	p := waitPending(t, f)
	Decide(context.Background(), f.s.store, p.ID, true)
	r := <-ch
	noToken(t, r)
	if r.IsError || f.runs.Load() != 1 {
		t.Fatalf("fallback approval: %s", text(r))
	}
}

// Stateless callers cannot be asked back: they go through approval too.
func TestApprove_StatelessCaller(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "elicit", 3, db.Open(t))
		c := dial(t, f.http(t), mcp.ProtocolVersion20260728, nil)
		ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "stateless"})
		p := waitPending(t, f)
		Decide(context.Background(), f.s.store, p.ID, true)
		if r := <-ch; r.IsError || f.runs.Load() != 1 {
			t.Fatalf("stateless approved call: %s", text(r))
		}
	})
}

// A call waiting for approval holds no concurrency slot: with a cap of one,
// another call of the same session runs meanwhile.
func TestApprove_PendingHoldsNoSlot(t *testing.T) {
	f := newFixture(t, "approve", 1)
	c := dial(t, f.http(t), mcp.ProtocolVersion20251125, nil)
	ch := callAsync(t, f.s, c, "danger", map[string]any{"text": "slow to approve"})
	p := waitPending(t, f)
	began := time.Now()
	if r := call(t, c, "echo", map[string]any{"text": "meanwhile"}); r.IsError || time.Since(began) > 3*time.Second {
		t.Fatalf("the waiting call held the slot: %s", text(r))
	}
	Decide(context.Background(), f.s.store, p.ID, true)
	if r := <-ch; r.IsError {
		t.Fatal(text(r))
	}
}

// TestApprove_AnsweredAtOnceWithoutProgress: a client that shows no
// progress (Gemini CLI, Inspector CLI, mcp-remote) is not left waiting in
// silence: the call is answered at once with what would run, the pending
// id and the command; approved, the same call made again runs exactly
// once; rejected, it is told so; another call, or the same call with a
// changed preview, is a new question.
func TestApprove_AnsweredAtOnceWithoutProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "approve", 3, db.Open(t))
		f.s.cfg.Limits.LoopRepeats = 100 // the same call is made six times here
		c := dial(t, f.http(t), mcp.ProtocolVersion20251125, nil)
		args := map[string]any{"text": "deploy now"}
		start := time.Now()
		r := call(t, c, "danger", args)
		m, _ := r.StructuredContent.(map[string]any)
		id, _ := m["pending_id"].(string)
		if r.IsError || m["approval_required"] != true || id == "" || m["approve_command"] != "clawbridge approve "+id ||
			!strings.Contains(text(r), "deploy now") || time.Since(start) > 5*time.Second || f.runs.Load() != 0 {
			t.Fatalf("answer at once: %s after %s", text(r), time.Since(start))
		}
		noToken(t, r)
		// Made again before anyone decides: the same question, not a new one.
		if r := call(t, c, "danger", args); structuredField(r, "pending_id") != id || f.runs.Load() != 0 {
			t.Fatalf("made again while open: %s", text(r))
		}
		if calls, _ := ListPending(context.Background(), f.s.store); len(calls) != 1 {
			t.Fatalf("%d calls listed, want 1", len(calls))
		}
		if err := Decide(context.Background(), f.s.store, id, true); err != nil {
			t.Fatal(err)
		}
		// Another call is not covered by that approval.
		if r := call(t, c, "danger", map[string]any{"text": "something else"}); structuredField(r, "pending_id") == "" || f.runs.Load() != 0 {
			t.Fatalf("another call ran on the approval: %s", text(r))
		}
		if r := call(t, c, "danger", args); r.IsError || f.runs.Load() != 1 {
			t.Fatalf("approved call made again: %s (runs %d)", text(r), f.runs.Load())
		}
		// Once: the next try is a new question.
		r = call(t, c, "danger", args)
		second := structuredField(r, "pending_id")
		if second == "" || second == id || f.runs.Load() != 1 {
			t.Fatalf("after the run: %s", text(r))
		}
		if err := Decide(context.Background(), f.s.store, second, false); err != nil {
			t.Fatal(err)
		}
		if r := call(t, c, "danger", args); !r.IsError || !strings.Contains(text(r), "rejected") || f.runs.Load() != 1 {
			t.Fatalf("rejected, made again: %s", text(r))
		}
		if r := call(t, c, "danger", args); structuredField(r, "pending_id") == "" {
			t.Fatalf("after the rejection was told, a new question: %s", text(r))
		}
	})
}

// structuredField is a string field of a result's structured content.
func structuredField(r *mcp.CallToolResult, name string) string {
	m, _ := r.StructuredContent.(map[string]any)
	s, _ := m[name].(string)
	return s
}
