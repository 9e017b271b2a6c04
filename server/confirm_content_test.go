package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/tools/email"
	"github.com/clawbridge/clawbridge/tools/email/smtptest"
	"github.com/clawbridge/clawbridge/tools/file"
	"github.com/clawbridge/clawbridge/tools/pyrunner"
	"github.com/clawbridge/clawbridge/tools/shell"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// What is confirmed is what runs: a High action whose preview reads files
// (an email draft and its attachments, a python_runner script) runs on the
// bytes the person was shown, whatever is written to those files between
// the question and the run; under the token policy a change is a new
// question. Each test rewrites the files in that window, through a second
// client's `file write` or directly on disk, and looks at what a real SMTP
// server received or what the script printed.

// contentFixture is a server with the real file, email and python_runner
// tools, email delivering to a real SMTP server on loopback.
type contentFixture struct {
	s    *Server
	ws   string // the workspace
	smtp *smtptest.Server
	url  string
}

func newContentFixture(t *testing.T, policy string) *contentFixture {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Confirm = policy
	d.Config.Limits.LoopRepeats = 100
	srv := smtptest.Start(t)
	t.Setenv("TEST_SMTP_PASSWORD", srv.Password)
	tooltest.ConfigSection(t, d, "email", srv.Config())
	em, err := email.New(d)
	if err != nil {
		t.Fatal(err)
	}
	py, err := pyrunner.New(d)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, d, tooltest.Build(t, file.New, d), em, py, tooltest.Build(t, shell.New, d))
	s.confirmer.poll = 20 * time.Millisecond
	f := &contentFixture{s: s, ws: d.Sandbox.Root(), smtp: srv}
	f.url = (&fixture{s: s}).http(t)
	return f
}

// draft saves a draft through the email tool and returns its path and bytes.
func (f *contentFixture) draft(t *testing.T, c *client.Client, output string, args map[string]any) (string, []byte) {
	t.Helper()
	args["action"], args["output"], args["overwrite"] = "draft", output, true
	if r := call(t, c, "email", args); r.IsError {
		t.Fatalf("draft: %s", text(r))
	}
	raw, err := os.ReadFile(filepath.Join(f.ws, output))
	if err != nil {
		t.Fatal(err)
	}
	return output, raw
}

// drafts writes the draft the person is shown (to alice, harmless text)
// and the one an attacker swaps in (two other recipients, other text, an
// attachment), and returns their paths and bytes.
func (f *contentFixture) drafts(t *testing.T, c *client.Client) (shown string, shownRaw []byte, evil []byte) {
	t.Helper()
	tooltest.WriteFile(t, filepath.Join(f.ws, "payroll.csv"), []byte("name,iban\nmallory,DE00 1234\n"))
	shown, shownRaw = f.draft(t, c, "outputs/note.eml", map[string]any{"to": []any{"alice@example.org"}, "subject": "Lunch", "text": "harmless text"})
	_, evil = f.draft(t, c, "outputs/evil.eml", map[string]any{"to": []any{"carol@example.net", "dave@example.net"}, "subject": "Lunch",
		"text": "wire the money", "attachments": []any{"payroll.csv"}})
	return shown, shownRaw, evil
}

// deliveredOnly fails unless the SMTP server received exactly want, to
// alice only.
func (f *contentFixture) deliveredOnly(t *testing.T, want []byte) {
	t.Helper()
	got := f.smtp.Mails()
	if len(got) != 1 || !bytes.Equal(got[0].Data, want) || strings.Join(got[0].To, ",") != "alice@example.org" {
		var to []string
		for _, m := range got {
			to = append(to, strings.Join(m.To, ","))
		}
		t.Fatalf("delivered %d mails to %v; the confirmed bytes: %v", len(got), to, len(got) == 1 && bytes.Equal(got[0].Data, want))
	}
}

// swapping is an elicitation handler that, while the question is open,
// runs swap (a parallel writer), remembers the question and accepts.
type swapping struct {
	mu       sync.Mutex
	swap     func()
	question string
}

func (h *swapping) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.question = req.Params.Message
	h.swap()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// TestConfirmContent_EmailElicit: the person is asked about the draft to
// alice; while the question is open another session's `file write`
// replaces the draft. What is delivered is the draft the person saw.
func TestConfirmContent_EmailElicit(t *testing.T) {
	f := newContentFixture(t, "elicit")
	writer := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	path, shownRaw, evil := f.drafts(t, writer)
	h := &swapping{swap: func() {
		r := call(t, writer, "file", map[string]any{"action": "write", "path": path, "text": string(evil), "overwrite": true})
		if r.IsError {
			t.Errorf("parallel write: %s", text(r))
		}
	}}
	asker := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(h))
	r := call(t, asker, "email", map[string]any{"action": "send", "path": path})
	if r.IsError {
		t.Fatalf("confirmed send: %s", text(r))
	}
	if !strings.Contains(h.question, "alice@example.org") || !strings.Contains(h.question, "harmless text") {
		t.Fatalf("the question did not show the draft:\n%s", h.question)
	}
	if raw, _ := os.ReadFile(filepath.Join(f.ws, path)); !bytes.Equal(raw, evil) {
		t.Fatal("the parallel write did not land: the race was not run")
	}
	f.deliveredOnly(t, shownRaw)
}

// TestConfirmContent_EmailAttachmentElicit: a message given as fields with
// an attachment; the attachment is rewritten while the question is open.
// The attachment delivered is the one whose sha256 the person was shown.
func TestConfirmContent_EmailAttachmentElicit(t *testing.T) {
	f := newContentFixture(t, "elicit")
	att := filepath.Join(f.ws, "minutes.txt")
	tooltest.WriteFile(t, att, []byte("minutes of the meeting\n"))
	h := &swapping{swap: func() { tooltest.WriteFile(t, att, []byte("the other, secret file\n")) }}
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(h))
	r := call(t, c, "email", map[string]any{"action": "send", "to": []any{"alice@example.org"}, "subject": "Minutes", "text": "attached", "attachments": []any{"minutes.txt"}})
	if r.IsError {
		t.Fatalf("confirmed send: %s", text(r))
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256([]byte("minutes of the meeting\n"))); !strings.Contains(h.question, "minutes.txt") || !strings.Contains(h.question, sum) {
		t.Fatalf("question:\n%s", h.question)
	}
	got := f.smtp.Mails()
	if len(got) != 1 || !bytes.Contains(got[0].Data, []byte("bWludXRlcyBvZiB0aGUgbWVldGluZwo=")) || bytes.Contains(got[0].Data, []byte("dGhlIG90aGVy")) {
		t.Fatalf("delivered %d mails; the confirmed attachment went: %v", len(got), len(got) == 1 && bytes.Contains(got[0].Data, []byte("bWludXRlcyBvZiB0aGUgbWVldGluZwo=")))
	}
}

// TestConfirmContent_EmailApprove: under the approve policy the draft and
// its attachment are rewritten after the person was shown them and before
// the call is made again; the approval was for what was shown, so the
// rewritten draft is a new question and nothing is sent.
func TestConfirmContent_EmailApprove(t *testing.T) {
	f := newContentFixture(t, "approve")
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	path, _, evil := f.drafts(t, c)
	args := map[string]any{"action": "send", "path": path}
	r := call(t, c, "email", args)
	id := structuredField(r, "pending_id")
	p := waitPending(t, &fixture{s: f.s})
	if id == "" || p.ID != id || !strings.Contains(p.Preview, "alice@example.org") || !strings.Contains(p.Preview, "harmless text") {
		t.Fatalf("pending preview %s:\n%s", id, p.Preview)
	}
	tooltest.WriteFile(t, filepath.Join(f.ws, path), evil)
	if err := Decide(context.Background(), f.s.store, p.ID, true); err != nil {
		t.Fatal(err)
	}
	r = call(t, c, "email", args)
	if again := structuredField(r, "pending_id"); again == "" || again == id {
		t.Fatalf("the rewritten draft made again: %s", text(r))
	}
	if n := len(f.smtp.Mails()); n != 0 {
		t.Fatalf("%d mails delivered for a draft rewritten after approval", n)
	}
}

// TestConfirmContent_EmailToken: under the token policy the token was
// issued for the preview of one draft; the draft rewritten, the token is
// refused and nothing is sent; a fresh preview shows the new draft, and
// its token sends exactly that.
func TestConfirmContent_EmailToken(t *testing.T) {
	f := newContentFixture(t, "token")
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	path, _, evil := f.drafts(t, c)
	args := map[string]any{"action": "send", "path": path}
	tok := confirmToken(t, call(t, c, "email", args))
	tooltest.WriteFile(t, filepath.Join(f.ws, path), evil)
	r := call(t, c, "email", map[string]any{"action": "send", "path": path, confirmParam: tok})
	if !r.IsError || !strings.Contains(text(r), "confirmation_required") {
		t.Fatalf("a token for the old draft ran the new one: %s", text(r))
	}
	if n := len(f.smtp.Mails()); n != 0 {
		t.Fatalf("%d mails delivered on a stale token", n)
	}
	preview := call(t, c, "email", args)
	if !strings.Contains(text(preview), "carol@example.net") || !strings.Contains(text(preview), "payroll.csv") {
		t.Fatalf("the new question does not show the new draft: %s", text(preview))
	}
	if r := call(t, c, "email", map[string]any{"action": "send", "path": path, confirmParam: confirmToken(t, preview)}); r.IsError {
		t.Fatalf("send on the fresh token: %s", text(r))
	}
	if got := f.smtp.Mails(); len(got) != 1 || !bytes.Equal(got[0].Data, evil) {
		t.Fatalf("delivered %d mails; the shown draft: %v", len(got), len(got) == 1 && bytes.Equal(got[0].Data, evil))
	}
}

// confirmToken is the token of a token-policy preview.
func confirmToken(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	m, _ := r.StructuredContent.(map[string]any)
	tok, _ := m["confirm_token"].(string)
	if r.IsError || tok == "" {
		t.Fatalf("no confirmation token: %s", text(r))
	}
	return tok
}

// decliningOnce declines the first question and accepts the next.
type decliningOnce struct{ asked int }

func (h *decliningOnce) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.asked++
	if h.asked == 1 {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// TestConfirmContent_DeclinedSendLeavesItsKeyFree: a send the person
// declined never claimed its idempotency key: the same call, accepted
// later, is delivered (not answered "already sent").
func TestConfirmContent_DeclinedSendLeavesItsKeyFree(t *testing.T) {
	f := newContentFixture(t, "elicit")
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(&decliningOnce{}))
	args := map[string]any{"action": "send", "to": []any{"alice@example.org"}, "subject": "Lunch", "text": "harmless text", "idempotency_key": "lunch-1"}
	if r := call(t, c, "email", args); !r.IsError || !strings.Contains(text(r), "did not confirm") {
		t.Fatalf("declined send: %s", text(r))
	}
	r := call(t, c, "email", args)
	if m, _ := r.StructuredContent.(map[string]any); r.IsError || m["status"] != "sent" {
		t.Fatalf("accepted send: %s", text(r))
	}
	if n := len(f.smtp.Mails()); n != 1 {
		t.Fatalf("%d mails delivered, want 1", n)
	}
}

// cancelling answers every question with cancel, at once, as headless
// Claude Code (claude -p) does without asking anyone.
type cancelling struct{ asked atomic.Int32 }

func (h *cancelling) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.asked.Add(1)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, nil
}

// TestConfirm_CancelIsNotADecline: a client that cancels the question
// without an answer has not declined: the call waits for `clawbridge
// approve` like a client that cannot be asked, and runs once approved.
func TestConfirm_CancelIsNotADecline(t *testing.T) {
	f := newContentFixture(t, "elicit")
	h := &cancelling{}
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(h))
	ch := callAsync(t, f.s, c, "email", map[string]any{"action": "send", "to": []any{"alice@example.org"}, "subject": "Lunch", "text": "harmless text"})
	p := waitPending(t, &fixture{s: f.s})
	if !strings.Contains(p.Preview, "alice@example.org") {
		t.Fatalf("pending preview:\n%s", p.Preview)
	}
	if err := Decide(context.Background(), f.s.store, p.ID, true); err != nil {
		t.Fatal(err)
	}
	if r := <-ch; r.IsError || strings.Contains(text(r), "declined") {
		t.Fatalf("approved send after a cancel: %s", text(r))
	}
	if n := len(f.smtp.Mails()); n != 1 || h.asked.Load() != 1 {
		t.Fatalf("%d mails delivered after %d questions, want 1 and 1", n, h.asked.Load())
	}
}
