// Package standin is a scripted stand-in for a model vendor's API on
// 127.0.0.1, for driving real agent clients (Claude Code, Gemini CLI,
// Codex) end to end without a model: each conversation turn answers with the
// script's next tool call, then with a final text, and every request the
// client sends is recorded, so a test sees exactly which tools, instructions
// and tool results the model would get.
//
// It speaks Anthropic Messages (streaming and not), Gemini generateContent
// and streamGenerateContent, and OpenAI Responses (streaming). Requests
// without tools (titles, summaries, classifiers) get a short plain answer and
// are recorded as side requests.
package standin

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// Step is one scripted model turn: call the offered tool named Tool, or
// Tool prefixed with the server's name (clients prefix MCP tools in their
// own ways: mcp__clawbridge__file, mcp_clawbridge_file).
type Step struct {
	Tool string
	Args map[string]any
	// Before, when set, runs once before the model makes this call, with
	// the tool results so far: what a person does between two turns
	// (approve a pending call, edit a file).
	Before func(results []Result)
}

// Script is a conversation: a request of the main conversation (the one
// that offers tools) that already carries n results of scripted calls gets
// Steps[n] (results of the client's own schema loader do not count); after
// the last step the model answers Final.
type Script struct {
	Steps []Step
	Final string
}

// Request is one recorded request the client sent the model.
type Request struct {
	Path        string
	Tools       []string // tool names offered, in order
	ToolSchemas map[string]json.RawMessage
	System      string   // system instructions, joined
	Results     []Result // tool results in the conversation so far, in order
	Text        string   // every text of the conversation, system included
	Called      string   // the tool name the stand-in answered with, if any
	Missing     string   // a scripted tool that was not offered
	Body        json.RawMessage

	namespaced map[string][2]string // full name -> (namespace, name), for Responses namespaces
}

// Result is a tool result as the model reads it.
type Result struct {
	Tool string // the client's name of the tool that produced it
	Text string
}

// Model is a running stand-in.
type Model struct {
	URL    string // base URL, http://127.0.0.1:port
	script Script
	vendor vendor

	mu       sync.Mutex
	before   int // steps whose Before has run
	requests []Request
	side     []Request
	srv      *http.Server
}

// vendor decodes one API's request and writes its answer.
type vendor interface {
	// parse reads a request body into the recorded form; tools is nil for
	// requests that offer none.
	parse(path string, body []byte) (Request, bool, error)
	// reply answers with a tool call (name, args) or, when name is empty,
	// with text.
	reply(w http.ResponseWriter, req Request, name string, args map[string]any, text string)
}

// Start serves the script on a free loopback port; Close stops it.
func Start(api string, s Script) (*Model, error) {
	m := &Model{script: s}
	switch api {
	case "anthropic":
		m.vendor = anthropic{}
	case "gemini":
		m.vendor = gemini{}
	case "openai":
		m.vendor = openai{}
	default:
		return nil, fmt.Errorf("standin: unknown api %q", api)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m.URL = "http://" + ln.Addr().String()
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve)}
	go m.srv.Serve(ln)
	return m, nil
}

// Close stops the server.
func (m *Model) Close() error { return m.srv.Close() }

// Requests returns the recorded main-conversation requests.
func (m *Model) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// Side returns the recorded requests that offered no tools.
func (m *Model) Side() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.side...)
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost {
		// Model listings and health checks: an empty, valid answer.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"models":[]}`)
		return
	}
	req, hasTools, err := m.vendor.parse(r.URL.Path, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Path = r.URL.Path
	req.Body = body
	if !hasTools {
		m.mu.Lock()
		m.side = append(m.side, req)
		m.mu.Unlock()
		m.vendor.reply(w, req, "", nil, "ok")
		return
	}
	m.mu.Lock()
	name, args, text := m.next(&req)
	m.requests = append(m.requests, req)
	m.mu.Unlock()
	m.vendor.reply(w, req, name, args, text)
}

// next decides the turn: the script's next tool call, loading it first when
// the client defers tool schemas (Claude Code lists MCP tools by name only
// and offers ToolSearch to load them), or the final text.
func (m *Model) next(req *Request) (string, map[string]any, string) {
	n := 0
	for _, r := range req.Results {
		if r.Tool != loader {
			n++
		}
	}
	if n >= len(m.script.Steps) {
		return "", nil, m.script.Final
	}
	st := m.script.Steps[n]
	if st.Before != nil && m.before < n+1 {
		m.before = n + 1
		st.Before(req.Results)
	}
	if name := offered(req.Tools, st.Tool); name != "" {
		req.Called = name
		return name, st.Args, ""
	}
	deferred := deferredName(req.Text, st.Tool)
	if deferred != "" && offered(req.Tools, loader) != "" {
		if last := len(req.Results) - 1; last >= 0 && req.Results[last].Tool == loader {
			req.Called = deferred // loaded by the last turn
			return deferred, st.Args, ""
		}
		req.Called = loader
		return loader, map[string]any{"query": "select:" + deferred}, ""
	}
	req.Missing = st.Tool
	return "", nil, "the tool " + st.Tool + " is not offered"
}

// loader is Claude Code's tool that loads deferred tools' schemas.
const loader = "ToolSearch"

// deferredName finds a tool named only in the conversation's text, the way
// clients that defer schemas list them ("mcp__server__tool").
func deferredName(text, tool string) string {
	re := regexp.MustCompile(`\b[A-Za-z0-9_-]+__` + regexp.QuoteMeta(tool) + `\b`)
	return re.FindString(text)
}

// offered finds the client's name for an MCP tool among those offered: the
// name itself, or the name prefixed with the server's ("mcp__clawbridge__file",
// "clawbridge__file", "mcp_clawbridge_file"), never a client's own tool that
// merely ends the same way ("read_file").
func offered(tools []string, want string) string {
	for _, t := range tools {
		if t == want {
			return t
		}
	}
	for _, t := range tools {
		if strings.HasSuffix(t, "_"+want) && strings.Contains(t, Server) {
			return t
		}
	}
	return ""
}

// Server is the MCP server name the clients are configured with.
const Server = "clawbridge"

// resultText flattens a tool result's content, whatever the vendor's shape:
// a string, a list of text blocks, or an object.
func resultText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			b.WriteString(resultText(e))
		}
		return b.String()
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			return t
		}
		for _, k := range []string{"content", "output", "response", "result"} {
			if c, ok := x[k]; ok {
				return resultText(c)
			}
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	return ""
}

var idSeq struct {
	sync.Mutex
	n int
}

// randomID numbers the ids of calls and messages; they only need to differ.
func randomID() string {
	idSeq.Lock()
	defer idSeq.Unlock()
	idSeq.n++
	return fmt.Sprintf("%06d", idSeq.n)
}

func writeSSE(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
