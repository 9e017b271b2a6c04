package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// Confirmation of a high action for a 2026-07-28 client (mrtr.go): a real
// mcp-go client speaking 2026-07-28 over streamable HTTP is asked through an
// input_required result and retries with the answer.

// person answers the confirmation questions it is asked, in turn, and
// keeps them.
type person struct {
	mu      sync.Mutex
	answers []mcp.ElicitationResponseAction // the last one repeats
	asked   []string
}

func (p *person) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, req.Params.Message)
	a := p.answers[min(len(p.asked), len(p.answers))-1]
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a}}
	if a == mcp.ElicitationResponseActionAccept {
		res.Content = map[string]any{"confirm": true}
	}
	return res, nil
}

func (p *person) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

// wire is the client's HTTP transport: it keeps each retry it sends (a
// tools/call carrying inputResponses) and can change the first one on its
// way, as a buggy or hostile client would.
type wire struct {
	mu      sync.Mutex
	retries []*http.Request
	bodies  [][]byte
	edit    func(params map[string]any) // applied to the first retry only
}

func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, _ := io.ReadAll(req.Body)
		var msg map[string]any
		if json.Unmarshal(body, &msg) == nil && msg["method"] == "tools/call" {
			if params, _ := msg["params"].(map[string]any); params != nil && params["inputResponses"] != nil {
				w.mu.Lock()
				if w.edit != nil {
					w.edit(params)
					w.edit = nil
					body, _ = json.Marshal(msg)
				}
				w.retries = append(w.retries, req.Clone(context.Background()))
				w.bodies = append(w.bodies, body)
				w.mu.Unlock()
			}
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	return http.DefaultTransport.RoundTrip(req)
}

// replay sends the i-th retry again, byte for byte, and returns the
// JSON-RPC answer.
func (w *wire) replay(t *testing.T, i int) map[string]any {
	t.Helper()
	w.mu.Lock()
	req, body := w.retries[i].Clone(context.Background()), w.bodies[i]
	w.mu.Unlock()
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	text := string(raw)
	if i := strings.Index(text, "data: "); i >= 0 { // an SSE answer: its data line
		text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		t.Fatalf("replay answer %q: %v", raw, err)
	}
	return msg
}

// modern dials the fixture with a 2026-07-28 client; with p it declares
// elicitation and answers as p does.
func modern(t *testing.T, url string, w *wire, p *person) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(&http.Client{Transport: w}))
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if p != nil {
		opts = append(opts, client.WithElicitationHandler(p))
	}
	c := start(t, client.NewClient(tr, opts...), mcp.ProtocolVersion20260728)
	if c.ProtocolVersion() != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %s", c.ProtocolVersion())
	}
	return c
}

// Accepted, the action runs exactly once; the same answer sent again is
// refused as a protocol error and runs nothing.
func TestMRTR_AcceptRunsOnceAndReplayDoesNot(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		f := newFixtureOn(t, "elicit", 3, db.Open(t))
		w, p := &wire{}, &person{answers: []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept}}
		c := modern(t, f.http(t), w, p)
		r := call(t, c, "danger", map[string]any{"text": "deploy", "password": "hunter2"})
		if r.IsError || !strings.Contains(text(r), "ran deploy") || f.runs.Load() != 1 {
			t.Fatalf("accepted: runs %d, result %s", f.runs.Load(), text(r))
		}
		q := p.questions()
		if len(q) != 1 || !strings.Contains(q[0], "danger") || !strings.Contains(q[0], "deploy") || strings.Contains(q[0], "hunter2") {
			t.Fatalf("questions %q: want one, showing the call, redacted", q)
		}
		noToken(t, r)

		ans := w.replay(t, 0)
		if ans["error"] == nil || !strings.Contains(fmtJSON(ans["error"]), "already used") {
			t.Fatalf("replayed answer: %s", fmtJSON(ans))
		}
		if f.runs.Load() != 1 {
			t.Fatalf("a replayed answer ran the action again: runs %d", f.runs.Load())
		}
	})
}

// Declined is refused and says so; cancelled (a client that did not ask
// anyone) is not a decline: the call goes to approval, and the model reads
// which of the two happened.
func TestMRTR_DeclineAndCancelAreToldApart(t *testing.T) {
	f := newFixture(t, "elicit", 3)
	decline := modern(t, f.http(t), &wire{}, &person{answers: []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionDecline}})
	r := call(t, decline, "danger", map[string]any{"text": "deploy"})
	if !r.IsError || !strings.Contains(text(r), "declined") || f.runs.Load() != 0 {
		t.Fatalf("declined: runs %d, result %s", f.runs.Load(), text(r))
	}
	cancel := modern(t, f.http(t), &wire{}, &person{answers: []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionCancel}})
	r = call(t, cancel, "danger", map[string]any{"text": "deploy"})
	m, _ := r.StructuredContent.(map[string]any)
	if r.IsError || m["approval_required"] != true || strings.Contains(text(r), "declined") || f.runs.Load() != 0 {
		t.Fatalf("cancelled: runs %d, result %s", f.runs.Load(), text(r))
	}
}

// An answer counts for what was shown: a retry that changed the arguments
// does not run on it; the new call is asked about anew.
func TestMRTR_ChangedArgsDoNotRunOnTheOldAnswer(t *testing.T) {
	f := newFixture(t, "elicit", 3)
	w := &wire{edit: func(params map[string]any) {
		params["arguments"] = map[string]any{"text": "drop the database"}
	}}
	p := &person{answers: []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline}}
	c := modern(t, f.http(t), w, p)
	r := call(t, c, "danger", map[string]any{"text": "deploy"})
	q := p.questions()
	if f.runs.Load() != 0 || !r.IsError {
		t.Fatalf("changed arguments ran on the old answer: runs %d, result %s", f.runs.Load(), text(r))
	}
	// The client then retries its own arguments on the new question's
	// state: that too is asked anew, and declined.
	if len(q) < 2 || !strings.Contains(q[1], "drop the database") {
		t.Fatalf("questions %q: want the changed call asked about anew", q)
	}
}

// A state the server did not issue is a protocol error and runs nothing.
func TestMRTR_TamperedStateIsRefused(t *testing.T) {
	f := newFixture(t, "elicit", 3)
	w := &wire{edit: func(params map[string]any) { params["requestState"] = params["requestState"].(string) + "x" }}
	c := modern(t, f.http(t), w, &person{answers: []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept}})
	req := mcp.CallToolRequest{}
	req.Params.Name = "danger"
	req.Params.Arguments = map[string]any{"text": "deploy"}
	if _, err := c.CallTool(ctxFor(t), req); err == nil || !strings.Contains(err.Error(), "requestState") {
		t.Fatalf("tampered state: %v", err)
	}
	if f.runs.Load() != 0 {
		t.Fatal("ran on a tampered state")
	}
}

// A 2026-07-28 client that cannot elicit gets the approval route: answered
// at once, and once approved the same call made again runs exactly once,
// though a stateless request without a token has a new session each time.
func TestMRTR_NoElicitationApprovalRunsOnce(t *testing.T) {
	f := newFixture(t, "elicit", 3)
	c := modern(t, f.http(t), &wire{}, nil)
	args := map[string]any{"text": "deploy"}
	r := call(t, c, "danger", args)
	m, _ := r.StructuredContent.(map[string]any)
	id, _ := m["pending_id"].(string)
	if r.IsError || m["approval_required"] != true || id == "" || f.runs.Load() != 0 {
		t.Fatalf("no elicitation: %s", text(r))
	}
	if err := Decide(context.Background(), f.s.store, id, true); err != nil {
		t.Fatal(err)
	}
	if r = call(t, c, "danger", args); r.IsError || f.runs.Load() != 1 {
		t.Fatalf("approved call made again: runs %d, %s", f.runs.Load(), text(r))
	}
	if r = call(t, c, "danger", args); r.IsError || f.runs.Load() != 1 {
		t.Fatalf("a third try ran the approval again: runs %d, %s", f.runs.Load(), text(r))
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
