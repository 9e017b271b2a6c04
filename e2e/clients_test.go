package e2e

// The client-in-the-loop suite: the real agent clients people use, installed
// from npm at pinned versions (scripts/install-mcp-servers.sh), each run
// headless against a scripted stand-in for its vendor's model API on
// 127.0.0.1 (internal/standin). The stand-in plays the model: it calls a
// read tool, a write tool and a high tool, retries the high tool after a
// person approved it (and another after a person rejected it), asks
// find_tools to narrow the list and makes two more calls. Every request the
// client sends the model is recorded, so each test checks what the model
// would really get: the tools offered, the server's instructions, each tool's
// result, and how many requests after a list_changed the new list arrives.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/standin"
	"github.com/mark3labs/mcp-go/mcp"
)

// clientRun is one client session against one transport.
type clientRun struct {
	name      string // client, for file names and markers
	transport string // stdio, http or sse
	e         *env
	url       string // base URL of `serve --http`, for http and sse
	log       string // the server's log file
}

// newClientRun prepares a workspace with a.txt and, for http and sse, starts
// the server. Exposure is left to `auto`, so each client gets the mode its
// row of the client table gives it, unless config (YAML) says otherwise.
func newClientRun(t *testing.T, client, transport string, config ...string) *clientRun {
	t.Helper()
	r := &clientRun{name: client, transport: transport, e: newEnv(t), log: filepath.Join(t.TempDir(), "server.log")}
	r.e.vars = append(r.e.vars, "CLAWBRIDGE_LOG_FILE="+r.log)
	if len(config) > 0 {
		cfg := filepath.Join(t.TempDir(), "config.yaml")
		os.WriteFile(cfg, []byte(config[0]), 0o600)
		r.e.vars = append(r.e.vars, "CLAWBRIDGE_CONFIG="+cfg)
	}
	if err := os.MkdirAll(r.e.workspace, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.e.workspace, "a.txt"), []byte("hello from the workspace\n"), 0o600)
	if transport != "stdio" {
		r.url = httpServer(t, r.e)
	}
	return r
}

// newClientRunNamed is newClientRun for the run named run: a transport,
// left to auto, except the run named tiered, which goes over tieredOver with
// exposure mode tiered.
func newClientRunNamed(t *testing.T, client, run, tiered, tieredOver string) *clientRun {
	t.Helper()
	if run == tiered {
		return newClientRun(t, client, tieredOver, "exposure:\n  mode: tiered\n")
	}
	return newClientRun(t, client, run)
}

// startModel starts the provider's stand-in model with r's script and
// returns it with the server's instructions, which the client shows its
// model; the stand-in stops when the test ends.
func (r *clientRun) startModel(t *testing.T, provider string, extraArgs map[string]any) (*standin.Model, string) {
	t.Helper()
	instr := initialize(t, stdioClient(t, r.e, mcp.LATEST_PROTOCOL_VERSION), mcp.LATEST_PROTOCOL_VERSION).Instructions
	m, err := standin.Start(provider, r.script(t, extraArgs))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, instr
}

// serverEnv is the environment the client must give the stdio server.
func (r *clientRun) serverEnv() map[string]string {
	m := map[string]string{}
	for _, v := range r.e.vars {
		k, val, _ := strings.Cut(v, "=")
		if strings.HasPrefix(k, "CLAWBRIDGE_") {
			m[k] = val
		}
	}
	return m
}

// script is the conversation every client runs: a read, a write, a high
// action approved by a person and retried, another rejected and retried, a
// find_tools that narrows the list, then two more reads to see when the
// narrowed list reaches the model. extra is merged into every call's
// arguments (a field the client adds, as Gemini CLI does).
func (r *clientRun) script(t *testing.T, extra map[string]any) standin.Script {
	with := func(args map[string]any) map[string]any {
		for k, v := range extra {
			args[k] = v
		}
		return args
	}
	run := with(map[string]any{"argv": []any{"sh", "-c", "echo ran >> ran.log"}})
	refused := with(map[string]any{"argv": []any{"sh", "-c", "echo refused >> refused.log"}})
	return standin.Script{
		Steps: []standin.Step{
			{Tool: "file", Args: with(map[string]any{"action": "read", "path": "a.txt"})},
			{Tool: "file", Args: with(map[string]any{"action": "write", "path": "out.txt", "text": "written by " + r.name})},
			{Tool: "shell", Args: run},
			{Tool: "shell", Args: run, Before: r.decide(t, true)},
			{Tool: "shell", Args: refused},
			{Tool: "shell", Args: refused, Before: r.decide(t, false)},
			{Tool: "find_tools", Args: with(map[string]any{"request": "convert this PDF to a Word document"})},
			{Tool: "file", Args: with(map[string]any{"action": "stat", "path": "a.txt"})},
			{Tool: "file", Args: with(map[string]any{"action": "stat", "path": "out.txt"})},
			{Tool: "file", Args: with(map[string]any{"action": "hash", "path": "a.txt"})},
			{Tool: "file", Args: with(map[string]any{"action": "hash", "path": "out.txt"})},
		},
		Final: "done",
	}
}

var approveCmd = regexp.MustCompile(`clawbridge approve ([0-9a-f]{8,})`)

// decide is the person between two turns: they read the last result's
// approve command and run it (or reject).
func (r *clientRun) decide(t *testing.T, approve bool) func([]standin.Result) {
	return func(res []standin.Result) {
		if len(res) == 0 {
			t.Errorf("%s: no result to decide on", r.name)
			return
		}
		m := approveCmd.FindStringSubmatch(res[len(res)-1].Text)
		if m == nil {
			t.Errorf("%s/%s: the high action's result names no approve command: %s", r.name, r.transport, res[len(res)-1].Text)
			return
		}
		args := []string{"approve", m[1]}
		if !approve {
			args = []string{"approve", "--reject", args[1]}
		}
		if code, out, errOut := runSplit(t, r.e.vars, args...); code != 0 {
			t.Errorf("%v: exit %d %s %s", args, code, out, errOut)
		}
	}
}

// check asserts what the script's calls did and what the model read.
func (r *clientRun) check(t *testing.T, m *standin.Model, instructions string) {
	t.Helper()
	r.dump(m)
	reqs := m.Requests()
	if len(reqs) == 0 {
		t.Fatalf("%s/%s: the client sent the model nothing", r.name, r.transport)
	}
	for _, q := range reqs {
		if q.Missing != "" {
			t.Fatalf("%s/%s: %s was not offered to the model; offered %v", r.name, r.transport, q.Missing, q.Tools)
		}
	}
	first := reqs[0].Text
	if head := firstChars(instructions, 2048); !strings.Contains(collapse(first), collapse(head)) {
		t.Errorf("%s/%s: the model does not get the first 2,048 characters of the instructions", r.name, r.transport)
	}
	last := reqs[len(reqs)-1]
	results := scripted(last.Results)
	want := []string{"hello from the workspace", "out.txt", "clawbridge approve", "", "clawbridge approve", "reject", "format_converter", "a.txt", "out.txt", "sha256", "sha256"}
	if len(results) != len(want) {
		t.Fatalf("%s/%s: the model got %d of %d results: %+v", r.name, r.transport, len(results), len(want), results)
	}
	for i, w := range want {
		if !strings.Contains(results[i].Text, w) {
			t.Errorf("%s/%s: result %d does not say %q: %s", r.name, r.transport, i+1, w, results[i].Text)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.e.workspace, "out.txt")); string(b) != "written by "+r.name {
		t.Errorf("%s/%s: out.txt is %q", r.name, r.transport, b)
	}
	if b, _ := os.ReadFile(filepath.Join(r.e.workspace, "ran.log")); string(b) != "ran\n" {
		t.Errorf("%s/%s: the approved action ran %q, want exactly once", r.name, r.transport, b)
	}
	if _, err := os.Stat(filepath.Join(r.e.workspace, "refused.log")); err == nil {
		t.Errorf("%s/%s: the rejected action ran", r.name, r.transport)
	}
}

// scripted drops the client's own tool-loading results (Claude Code's
// ToolSearch) and keeps the script's.
func scripted(res []standin.Result) []standin.Result {
	var out []standin.Result
	for _, r := range res {
		if r.Tool != "ToolSearch" {
			out = append(out, r)
		}
	}
	return out
}

// relisted is what the list_changed of find_tools did to the requests the
// model got.
type relisted struct {
	changed       bool // the server changed the view on find_tools (and sent list_changed)
	before, after int  // server tools the model was told of, before, and as the server changed it to
	delay         int  // requests after find_tools's result until the new list, -1 never
}

func (l relisted) String() string {
	switch {
	case !l.changed:
		return fmt.Sprintf("find_tools did not change the list (%d tools)", l.before)
	case l.delay < 0:
		return fmt.Sprintf("list changed %d -> %d tools, never re-read", l.before, l.after)
	}
	return fmt.Sprintf("list changed %d -> %d tools, seen %d requests after find_tools's result", l.before, l.after, l.delay)
}

// relist measures list_changed: the server's log says whether find_tools
// changed the view and to how many tools; counting from the first request
// that carries find_tools's result, delay is the index of the first request
// whose server tools number that many.
func (r *clientRun) relist(t *testing.T, reqs []standin.Request, serverTools func(standin.Request) []string) relisted {
	l := relisted{delay: -1}
	b, _ := os.ReadFile(r.log)
	for _, line := range strings.Split(string(b), "\n") {
		var ev struct {
			Kind, Message, Reason string
			Tools                 int
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Message == "view changed" && strings.HasPrefix(ev.Reason, "routed") {
			l.changed, l.after = true, ev.Tools
		}
	}
	at := -1
	for i, q := range reqs {
		res := scripted(q.Results)
		if len(res) > 0 && strings.HasSuffix(res[len(res)-1].Tool, "find_tools") {
			at = i
			break
		}
	}
	if at < 1 {
		t.Fatalf("%s/%s: no request carries find_tools's result", r.name, r.transport)
	}
	l.before = len(serverTools(reqs[at-1]))
	if l.after == l.before {
		l.changed = false // re-sorted or re-tagged (full mode), the same tools
	}
	if !l.changed {
		return l
	}
	for i := at; i < len(reqs); i++ {
		if len(serverTools(reqs[i])) == l.after {
			l.delay = i - at
			break
		}
	}
	return l
}

// measured checks the client table's row for the client against what the
// run measured: whether the model ever gets a changed list. When is logged,
// not checked: a client that re-reads in the background (Gemini CLI) is
// raced by a stand-in that answers at once; a real model takes seconds.
func measured(t *testing.T, clientName string, l relisted) {
	t.Helper()
	if !l.changed {
		return
	}
	row, ok := exposure.DefaultTables().Client(clientName)
	if !ok {
		t.Errorf("%s: no row in the client table; measured %s", clientName, l)
		return
	}
	if row.ListChanged != (l.delay >= 0) {
		t.Errorf("%s: the client table says list_changed %v, relist %d; measured %s", clientName, row.ListChanged, row.Relist, l)
	}
}

// toolsNamed lists the offered tools whose names start with prefix: the
// server's tools as a client names them (Gemini CLI mcp_clawbridge_file,
// Codex's namespace mcp__clawbridge).
func toolsNamed(prefix string) func(standin.Request) []string {
	return func(q standin.Request) []string {
		var out []string
		for _, n := range q.Tools {
			if strings.HasPrefix(n, prefix) {
				out = append(out, n)
			}
		}
		return out
	}
}

// dump writes the recorded requests to $CLAWBRIDGE_CLIENT_DUMP/<client>-<transport>.json
// when set: what each client sends the model, for reading.
func (r *clientRun) dump(m *standin.Model) {
	dir := os.Getenv("CLAWBRIDGE_CLIENT_DUMP")
	if dir == "" {
		return
	}
	b, _ := json.MarshalIndent(map[string]any{"main": m.Requests(), "side": m.Side()}, "", " ")
	os.WriteFile(filepath.Join(dir, r.name+"-"+r.transport+".json"), b, 0o644)
	if log, err := os.ReadFile(r.log); err == nil {
		os.WriteFile(filepath.Join(dir, r.name+"-"+r.transport+".log"), log, 0o644)
	}
}

func firstChars(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// collapse folds whitespace, since clients re-wrap instructions.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
