package server

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/tools/aiwriter"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// clientModel is a real mcp-go client's sampling handler: it records the
// requests and answers as a model would.
type clientModel struct {
	mu   sync.Mutex
	reqs []mcp.CreateMessageRequest
	fail bool
}

func (m *clientModel) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	if m.fail {
		return nil, errors.New("user declined the sampling request")
	}
	prompt := req.Messages[0].Content.(mcp.TextContent).Text
	answer := "Sampled body text."
	if strings.Contains(prompt, "Make an outline") {
		answer = "Title: Tea\n1. Origins\n2. Brewing"
	}
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(answer)},
		Model: "client-sonnet", StopReason: "endTurn"}, nil
}

func samplingServer(t *testing.T) string {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Confirm = "auto"
	tooltest.ConfigSection(t, d, "ai_writer", "model_hints: [claude-sonnet]\nmax_tokens: 900")
	w, err := aiwriter.New(d)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, d, w)
	ts := httptest.NewServer(testHandler(t, s, "127.0.0.1:0"))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestSampling_AIWriterUsesClientModel: a client that declared sampling
// gets sampling/createMessage requests, one per section of a draft, with
// the model preferences and token budget; its answers are the text.
func TestSampling_AIWriterUsesClientModel(t *testing.T) {
	m := &clientModel{}
	c := dial(t, samplingServer(t), mcp.ProtocolVersion20251125, nil, client.WithSamplingHandler(m))
	r := call(t, c, "ai_writer", map[string]any{"action": "draft", "topic": "tea", "length": 200})
	if r.IsError {
		t.Fatalf("draft: %+v", r.Content)
	}
	sc, _ := r.StructuredContent.(map[string]any)
	text, _ := sc["text"].(string)
	if sc["source"] != "sampling" || sc["model"] != "client-sonnet" || !strings.Contains(text, "## Brewing\n\nSampled body text.") {
		t.Fatalf("result: %v", sc)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.reqs) != 3 { // the outline, then two sections
		t.Fatalf("%d sampling requests", len(m.reqs))
	}
	for _, req := range m.reqs {
		mp := req.ModelPreferences
		if mp == nil || len(mp.Hints) != 1 || mp.Hints[0].Name != "claude-sonnet" || req.MaxTokens <= 0 || req.MaxTokens > 900 || req.SystemPrompt == "" {
			t.Errorf("request: %+v prefs %+v", req.CreateMessageParams, mp)
		}
	}
}

// TestSampling_DeclinedAndUndeclared: a client that refuses the request
// gets a tool error naming it; one that never declared sampling is not
// asked and hears that no model is available.
func TestSampling_DeclinedAndUndeclared(t *testing.T) {
	url := samplingServer(t)
	m := &clientModel{fail: true}
	c := dial(t, url, mcp.ProtocolVersion20251125, nil, client.WithSamplingHandler(m))
	r := call(t, c, "ai_writer", map[string]any{"action": "summarise", "text": "Some text."})
	if !r.IsError || !strings.Contains(text(r), "did not answer") {
		t.Fatalf("declined: %+v", r.Content)
	}
	plain := dial(t, url, mcp.ProtocolVersion20251125, nil)
	r = call(t, plain, "ai_writer", map[string]any{"action": "summarise", "text": "Some text."})
	if !r.IsError || !strings.Contains(text(r), "no model is available") {
		t.Fatalf("undeclared: %+v", r.Content)
	}
}
