package aiwriter

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// chatFixture is a server speaking OpenAI's chat-completions format: it
// answers every request with a text built from the prompt, streamed as
// server-sent events when the request asks for it, or fails as told.
type chatFixture struct {
	mu       sync.Mutex
	requests []chatRequest
	auth     []string
	status   int // non-zero: answer this status with an OpenAI error body
}

func (f *chatFixture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	status := f.status
	f.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"The model 'nope' does not exist, key %s","type":"invalid_request_error","code":"model_not_found"}}`, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		return
	}
	prompt := req.Messages[len(req.Messages)-1].Content
	answer := "Generic paragraph text."
	switch {
	case strings.Contains(prompt, "Make an outline"):
		answer = "Title: Working From Home\n1. Why it matters\n2. Tools that help\n3. Keeping balance"
	case strings.Contains(prompt, "Write section"):
		i := strings.Index(prompt, "Write section ")
		answer = "Body of " + prompt[i+len("Write section "):i+len("Write section ")+1] + " with several words here."
	case strings.Contains(prompt, "Translate"):
		answer = "Bonjour le monde."
	}
	if !req.Stream {
		json.NewEncoder(w).Encode(map[string]any{"model": "fixture-1", "choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	fmt.Fprint(w, ": keep-alive\n\n")
	for _, piece := range strings.SplitAfter(answer, " ") {
		b, _ := json.Marshal(map[string]any{"model": "fixture-stream", "choices": []any{map[string]any{"delta": map[string]any{"content": piece}}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		fl.Flush()
	}
	fmt.Fprint(w, "data: {\"model\":\"fixture-stream\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
}

func newWriter(t *testing.T, f *chatFixture, stream bool) (tool.Tool, *tool.Deps) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	d := tooltest.Deps(t, "127.0.0.1")
	t.Setenv("AIWRITER_TEST_KEY", "sk-test-secret-123")
	tooltest.ConfigSection(t, d, Name, fmt.Sprintf("endpoint: {base_url: %q, model: fixture-model, api_key_env: AIWRITER_TEST_KEY, stream: %v}", srv.URL+"/v1", stream))
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl, d
}

func TestAIWriter_EndpointDraftSectionBySection(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			f := &chatFixture{}
			tl, d := newWriter(t, f, stream)
			c, err := tl.Prepare(map[string]any{"action": "draft", "topic": "remote work", "kind": "blog_post", "length": 300, "save": "docx"})
			if err != nil {
				t.Fatal(err)
			}
			var progress []string
			c.Progress = func(done, total float64, msg string) { progress = append(progress, msg) }
			res, err := tl.Handle(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			o := res.Data.(*output)
			if o.Source != "endpoint" || o.Title != "Working From Home" || len(o.Sections) != 3 {
				t.Fatalf("%+v", o)
			}
			for i, h := range o.Sections {
				if !strings.Contains(o.Text, "## "+h+"\n\nBody of "+fmt.Sprint(i+1)) {
					t.Errorf("section %d missing:\n%s", i+1, o.Text)
				}
			}
			if len(f.requests) != 4 || f.requests[0].Model != "fixture-model" || f.requests[1].Stream != stream || f.requests[1].MaxTokens <= 0 {
				t.Errorf("requests: %+v", f.requests)
			}
			if f.auth[0] != "Bearer sk-test-secret-123" {
				t.Errorf("auth header %q", f.auth[0])
			}
			if want := "writing section 3 of 3: Keeping balance"; !contains(progress, want) {
				t.Errorf("progress %q lacks %q", progress, want)
			}
			wantModel := "fixture-1"
			if stream {
				wantModel = "fixture-stream"
			}
			if o.Model != wantModel {
				t.Errorf("model %q", o.Model)
			}
			// The .docx opens as a zip with the text in it.
			b := tooltest.ReadFile(t, filepath.Join(d.Sandbox.Root(), o.File))
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("docx: %v", err)
			}
			var doc string
			for _, zf := range zr.File {
				if zf.Name == "word/document.xml" {
					rc, _ := zf.Open()
					var buf bytes.Buffer
					buf.ReadFrom(rc)
					doc = buf.String()
				}
			}
			if !strings.Contains(doc, "Keeping balance") || !strings.HasSuffix(o.File, ".docx") {
				t.Errorf("docx %s lacks the text", o.File)
			}
		})
	}
}

func TestAIWriter_EndpointErrorBody(t *testing.T) {
	for _, status := range []int{404, 401} {
		f := &chatFixture{status: status}
		tl, _ := newWriter(t, f, true)
		_, err := tooltest.Run(t, tl, map[string]any{"action": "summarise", "text": "A long text to summarise."})
		code := tool.CodeNotFound // the model
		if status == 401 {
			code = tool.CodeDenied
		}
		e := tooltest.ToolError(t, err, code)
		if !strings.Contains(e.Message, "does not exist") || !strings.Contains(e.Message, fmt.Sprint(status)) {
			t.Errorf("%d: %+v", status, e)
		}
		if strings.Contains(e.Message+e.Hint, "sk-test-secret-123") {
			t.Errorf("the key leaked into the error: %s", e.Message)
		}
	}
}

func TestAIWriter_NoModelSaysHowToConfigure(t *testing.T) {
	d := tooltest.Deps(t)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "outline", "topic": "x"})
	e := tooltest.ToolError(t, err, tool.CodeUnavailable)
	if !strings.Contains(e.Message, "no model is available") || !strings.Contains(e.Hint, "tools.ai_writer.endpoint") {
		t.Errorf("%+v", e)
	}
}

func TestAIWriter_MissingKeyVariable(t *testing.T) {
	f := &chatFixture{}
	tl, _ := newWriter(t, f, false)
	t.Setenv("AIWRITER_TEST_KEY", "")
	_, err := tooltest.Run(t, tl, map[string]any{"action": "polish", "text": "hello"})
	tooltest.ToolError(t, err, tool.CodeUnavailable)
	if len(f.requests) != 0 {
		t.Error("a request went out without its key")
	}
}

// The client's model through Call.Sample is preferred over the endpoint.
func TestAIWriter_SamplingPreferred(t *testing.T) {
	f := &chatFixture{}
	tl, d := newWriter(t, f, false)
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "in.md"), []byte("Hello world."))
	c, err := tl.Prepare(map[string]any{"action": "translate", "path": "in.md", "language": "French", "output": "fr.md"})
	if err != nil {
		t.Fatal(err)
	}
	var got tool.SampleRequest
	c.Sample = func(ctx context.Context, req tool.SampleRequest) (*tool.SampleResult, error) {
		got = req
		return &tool.SampleResult{Text: "Bonjour le monde.", Model: "client-model"}, nil
	}
	res, err := tl.Handle(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Data.(*output)
	if o.Source != "sampling" || o.Text != "Bonjour le monde." || len(f.requests) != 0 {
		t.Fatalf("%+v, endpoint requests %d", o, len(f.requests))
	}
	if !strings.Contains(got.Messages[0].Text, "Hello world.") || !strings.Contains(got.Messages[0].Text, "French") || got.MaxTokens <= 0 {
		t.Errorf("request: %+v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(d.Sandbox.Root(), "fr.md")); string(b) != "Bonjour le monde." {
		t.Errorf("fr.md = %q", b)
	}
	if tl.LevelOf(c) != tool.Write {
		t.Error("saving is not write level")
	}
	c2, _ := tl.Prepare(map[string]any{"action": "polish", "text": "x"})
	if tl.LevelOf(c2) != tool.Read {
		t.Error("writing without saving is not read level")
	}
}

func TestAIWriter_BadInput(t *testing.T) {
	f := &chatFixture{}
	tl, _ := newWriter(t, f, false)
	for name, args := range map[string]map[string]any{
		"no text":     {"action": "polish"},
		"both":        {"action": "polish", "text": "a", "path": "b.md"},
		"outside":     {"action": "summarise", "path": "../../etc/passwd"},
		"no language": {"action": "translate", "text": "a"},
		"too many":    {"action": "draft", "topic": "t", "outline": []any{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"}},
	} {
		_, err := tooltest.Run(t, tl, args)
		if _, ok := tool.AsError(err); !ok {
			t.Errorf("%s: want a tool error, got %v", name, err)
		}
	}
	if len(f.requests) != 0 {
		t.Errorf("bad input reached the model: %d requests", len(f.requests))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
