package e2e

// Protocol tests: build the real binary and drive it with mcp-go's client
// over stdio, SSE and streamable HTTP, in the session era (2025-06-18,
// 2025-11-25) and the stateless one (2026-07-28).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

var binPath string

// builtCommit is the commit TestMain stamped into binPath.
var builtCommit string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clawbridge-e2e")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "clawbridge")
	// Stamped as the Makefile and goreleaser stamp a release (GOFLAGS may
	// have -buildvcs=false): TestVersion_ReportsTheCommit checks it.
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "git rev-parse HEAD: %v\n", err)
		os.Exit(1)
	}
	builtCommit = strings.TrimSpace(string(head))
	ldflags := "-X main.version=0.0.0-e2e -X main.commit=" + builtCommit + " -X main.date=2026-01-02T03:04:05Z"
	out, err := exec.Command("go", "build", "-race", "-ldflags", ldflags, "-o", binPath, "..").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build failed: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is an isolated environment for one server process.
type env struct {
	workspace string
	vars      []string
}

func newEnv(t *testing.T, extra ...string) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{workspace: filepath.Join(dir, "ws")}
	e.vars = append(os.Environ(),
		"CLAWBRIDGE_CONFIG="+filepath.Join(dir, "none.yaml"),
		"CLAWBRIDGE_WORKSPACE="+e.workspace,
		"CLAWBRIDGE_DATA_DIR="+filepath.Join(dir, "data"),
		"CLAWBRIDGE_LOG_LEVEL=debug",
		"HOME="+dir,
	)
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("{}\n"), 0o600)
	e.vars = append(e.vars, extra...)
	return e
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func stdioClient(t *testing.T, e *env, version string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	c := client.NewClient(newStdioTransport(e), opts...)
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, version)
	return c
}

func newStdioTransport(e *env) *transport.Stdio {
	return transport.NewStdio(binPath, e.vars, "serve")
}

// started takes what a client constructor returns, starts the client and
// closes it when the test ends: started(t)(client.NewSSEMCPClient(url)).
func started(t *testing.T) func(*client.Client, error) *client.Client {
	return func(c *client.Client, err error) *client.Client {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Start(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		return c
	}
}

func initialize(t *testing.T, c *client.Client, version string) *mcp.InitializeResult {
	t.Helper()
	res, err := bridgetest.Initialize(ctxT(t), c, version, "e2e-test")
	if err != nil {
		t.Fatalf("initialize %s: %v", version, err)
	}
	return res
}

// httpServer starts `serve --http` on a free port and returns its base URL.
func httpServer(t *testing.T, e *env, args ...string) string {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = e.vars
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	re := regexp.MustCompile(`on http://([0-9.:]+)`)
	sc := bufio.NewScanner(stderr)
	deadline := time.After(30 * time.Second)
	found := make(chan string, 1)
	go func() {
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case addr := <-found:
		return "http://" + addr
	case <-deadline:
		t.Fatal("server did not start")
	}
	return ""
}

// callOK calls a tool that must succeed and returns its structured result.
func callOK(t *testing.T, c *client.Client, name string, args map[string]any) map[string]any {
	t.Helper()
	r := callTool(t, c, name, args)
	if r.IsError {
		t.Fatalf("%s %v: %s", name, args, text(r))
	}
	return r.StructuredContent.(map[string]any)
}

// callRefused calls a tool that must answer with an error naming field.
func callRefused(t *testing.T, c *client.Client, name string, args map[string]any, field string) {
	t.Helper()
	r := callTool(t, c, name, args)
	sc, _ := r.StructuredContent.(map[string]any)
	errObj, _ := sc["error"].(map[string]any)
	if !r.IsError || errObj["field"] != field {
		t.Fatalf("%s %v: want an error naming %q, got %s", name, args, field, text(r))
	}
}

// workspaceFixture copies fixtures/<rel> into e's workspace as name.
func workspaceFixture(t *testing.T, e *env, rel, name string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "fixtures", rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.workspace, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.workspace, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return bridgetest.Call(ctxT(t), t, c, name, args)
}

// text is the result's text content, joined.
func text(r *mcp.CallToolResult) string { return bridgetest.Text(r) }

func toolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(ctxT(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// exercise runs the same user journey on any connected client.
func exercise(t *testing.T, c *client.Client, workspace string) {
	names := toolNames(t, c)
	for _, want := range []string{"file", "shell"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list lacks %s: %v", want, names)
		}
	}
	// Every other tool is listed, or (a 2026-07-28 caller's constant list)
	// reached through call_tool.
	if !slices.Contains(names, "system") && !slices.Contains(names, "call_tool") {
		t.Fatalf("tools/list has neither system nor call_tool: %v", names)
	}
	r := callTool(t, c, "file", map[string]any{"action": "write", "path": "notes/hello.txt", "text": "你好, clawbridge\n", "overwrite": true})
	if r.IsError {
		t.Fatalf("file write: %s", text(r))
	}
	got, err := os.ReadFile(filepath.Join(workspace, "notes", "hello.txt"))
	if err != nil || string(got) != "你好, clawbridge\n" {
		t.Fatalf("file on disk = %q, %v", got, err)
	}
	r = callTool(t, c, "file", map[string]any{"action": "read", "path": "notes/hello.txt"})
	if r.IsError || !strings.Contains(text(r), "你好, clawbridge") {
		t.Fatalf("file read: %s", text(r))
	}
	// Bad input: an isError result naming the field, not a protocol error.
	r = callTool(t, c, "file", map[string]any{"action": "explode"})
	if !r.IsError || !strings.Contains(text(r), "action") {
		t.Fatalf("bad action should be an isError result naming the field: %s", text(r))
	}
	r = callTool(t, c, "file", map[string]any{"action": "read", "path": "../../etc/passwd"})
	if !r.IsError {
		t.Fatalf("path escape must fail: %s", text(r))
	}
	r = callTool(t, c, "shell", map[string]any{"argv": []any{"echo", "a;b", "$(whoami)"}})
	if r.IsError || !strings.Contains(text(r), "a;b $(whoami)") {
		t.Fatalf("shell echo: %s", text(r))
	}
	r = callTool(t, c, "system", map[string]any{"action": "info"})
	if r.IsError || r.StructuredContent == nil {
		t.Fatalf("system info: %s", text(r))
	}
}

func TestStdioLegacyVersions(t *testing.T) {
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			e := newEnv(t)
			c := stdioClient(t, e, v)
			exercise(t, c, e.workspace)
		})
	}
}

func TestStreamableHTTPBothEras(t *testing.T) {
	e := newEnv(t)
	base := httpServer(t, e)
	for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) {
			c, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithHTTPHeaders(map[string]string{}))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			initialize(t, c, v)
			if c.ProtocolVersion() != v {
				t.Fatalf("negotiated %s, want %s", c.ProtocolVersion(), v)
			}
			exercise(t, c, e.workspace)
		})
	}
}

func TestSSE(t *testing.T) {
	e := newEnv(t)
	base := httpServer(t, e)
	c := started(t)(client.NewSSEMCPClient(base + "/sse"))
	initialize(t, c, "2025-06-18")
	exercise(t, c, e.workspace)
}

// A high shell command under the token policy: preview with a token, then
// the same call with the token runs once; the token cannot be reused.
func TestConfirmTokenFlow(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=token")
	c := stdioClient(t, e, "2025-06-18")
	os.MkdirAll(e.workspace, 0o755)
	victim := filepath.Join(e.workspace, "victim.txt")
	os.WriteFile(victim, []byte("x"), 0o600)
	args := map[string]any{"argv": []any{"rm", "victim.txt"}}
	r := callTool(t, c, "shell", args)
	if r.IsError {
		t.Fatalf("preview should not be an error: %s", text(r))
	}
	sc, _ := r.StructuredContent.(map[string]any)
	tok, _ := sc["confirm_token"].(string)
	if tok == "" {
		t.Fatalf("no confirm_token in preview: %s", text(r))
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatal("the preview ran the command")
	}
	// A token for other arguments is refused.
	r = callTool(t, c, "shell", map[string]any{"argv": []any{"rm", "other.txt"}, "confirm_token": tok})
	if !r.IsError {
		t.Fatalf("token for other arguments accepted: %s", text(r))
	}
	args["confirm_token"] = tok
	r = callTool(t, c, "shell", args)
	if r.IsError {
		t.Fatalf("confirmed call failed: %s", text(r))
	}
	if _, err := os.Stat(victim); !os.IsNotExist(err) {
		t.Fatal("confirmed rm did not run")
	}
	r = callTool(t, c, "shell", args)
	if !r.IsError {
		t.Fatal("a spent token was accepted twice")
	}
}

// Elicit policy with a client that answers: accept runs, decline refuses.
func TestConfirmElicit(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=elicit")
	base := httpServer(t, e)
	for _, answer := range []bool{false, true} {
		h := elicitAnswer(answer)
		//lint:ignore SA1019 elicitation requests reach a pre-2026-07-28 client on its standalone GET stream
		c, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithContinuousListening())
		if err != nil {
			t.Fatal(err)
		}
		c = client.NewClient(c.GetTransport(), client.WithElicitationHandler(h))
		if err := c.Start(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		initialize(t, c, "2025-11-25")
		os.MkdirAll(e.workspace, 0o755)
		f := filepath.Join(e.workspace, "elicit.txt")
		os.WriteFile(f, []byte("x"), 0o600)
		r := callTool(t, c, "shell", map[string]any{"argv": []any{"rm", "elicit.txt"}})
		_, statErr := os.Stat(f)
		if answer && (r.IsError || !os.IsNotExist(statErr)) {
			t.Fatalf("accepted elicitation did not run: %s", text(r))
		}
		if !answer && (!r.IsError || statErr != nil) {
			t.Fatalf("declined elicitation ran or did not say so: %s", text(r))
		}
		c.Close()
	}
}

type elicitAnswer bool

func (a elicitAnswer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if !a {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// Under stdio, every byte on stdout is JSON-RPC, even with debug logging.
func TestStdoutPurity(t *testing.T) {
	e := newEnv(t)
	cmd := exec.Command(binPath, "serve")
	cmd.Env = e.vars
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"system","arguments":{"action":"info"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"file","arguments":{"action":"nope"}}}`,
	}
	for _, m := range msgs {
		io.WriteString(in, m+"\n")
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	got := map[float64]bool{}
	for len(got) < 4 && sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("non-JSON on stdout: %q", sc.Text())
		}
		if msg["jsonrpc"] != "2.0" {
			t.Fatalf("not JSON-RPC: %q", sc.Text())
		}
		if id, ok := msg["id"].(float64); ok {
			got[id] = true
			if msg["error"] != nil {
				t.Fatalf("request %v got a JSON-RPC error: %s", id, sc.Text())
			}
		}
	}
	if len(got) < 4 {
		t.Fatalf("only %d responses", len(got))
	}
}

func TestHTTPSecurity(t *testing.T) {
	t.Run("non-loopback needs a token", func(t *testing.T) {
		e := newEnv(t)
		cmd := exec.Command(binPath, "serve", "--http", "0.0.0.0:0")
		cmd.Env = e.vars
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "token") {
			t.Fatalf("binding 0.0.0.0 without a token should fail: %v %s", err, out)
		}
	})
	e := newEnv(t)
	base := httpServer(t, e, "--token", "s3cret-token")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	post := func(headers map[string]string, body string) int {
		req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	auth := map[string]string{"Authorization": "Bearer s3cret-token"}
	cases := []struct {
		name    string
		headers map[string]string
		body    string
		want    int
	}{
		{"no token", nil, init, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, init, 401},
		{"good token", auth, init, 200},
		{"foreign origin", map[string]string{"Authorization": auth["Authorization"], "Origin": "https://evil.example"}, init, 403},
		{"own origin", map[string]string{"Authorization": auth["Authorization"], "Origin": "http://localhost:" + base[strings.LastIndex(base, ":")+1:]}, init, 200},
		{"loopback origin on another port", map[string]string{"Authorization": auth["Authorization"], "Origin": "http://localhost:3000"}, init, 403},
		{"rebinding host", map[string]string{"Authorization": auth["Authorization"], "Host": "evil.example"}, init, 403},
		{"oversized body", auth, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`, 413},
	}
	for _, c := range cases {
		if got := post(c.headers, c.body); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestStdioClientRoots_NarrowWorkspace: a stdio client's MCP roots narrow
// the configured workspace to their intersection with it; they never widen
// it and a root that does not exist is never created.
func TestStdioClientRoots_NarrowWorkspace(t *testing.T) {
	write := func(t *testing.T, c *client.Client, path string) *mcp.CallToolResult {
		return callTool(t, c, "file", map[string]any{"action": "write", "path": path, "text": "rooted"})
	}
	// writes writes path and checks the file landed at landsAt.
	writes := func(t *testing.T, c *client.Client, path, landsAt string) {
		t.Helper()
		if r := write(t, c, path); r.IsError {
			t.Fatalf("write %s: %s", path, text(r))
		}
		if b, err := os.ReadFile(landsAt); err != nil || string(b) != "rooted" {
			t.Fatalf("file did not land in %s: %v", landsAt, err)
		}
	}
	// refused checks that writing the absolute path fails and leaves nothing.
	refused := func(t *testing.T, c *client.Client, path, why string) {
		t.Helper()
		if r := write(t, c, path); !r.IsError {
			t.Fatalf("%s: %s", why, text(r))
		}
		noFileAt(t, path)
	}
	t.Run("inside a configured root narrows to it", func(t *testing.T) {
		e := newEnv(t)
		project := filepath.Join(e.workspace, "project")
		os.MkdirAll(project, 0o755)
		c := stdioClient(t, e, "2025-11-25", client.WithRootsHandler(rootsOf{project}))
		writes(t, c, "from-roots.txt", filepath.Join(project, "from-roots.txt"))
		// The rest of the configured workspace is now outside.
		for _, p := range []string{"../sibling.txt", filepath.Join(e.workspace, "sibling.txt")} {
			if r := write(t, c, p); !r.IsError {
				t.Errorf("write %s outside the narrowed workspace succeeded", p)
			}
		}
		noFileAt(t, filepath.Join(e.workspace, "sibling.txt"))
	})
	t.Run("disjoint root adds nothing", func(t *testing.T) {
		e := newEnv(t)
		elsewhere := t.TempDir()
		c := stdioClient(t, e, "2025-11-25", client.WithRootsHandler(rootsOf{elsewhere}))
		refused(t, c, filepath.Join(elsewhere, "x.txt"), "a disjoint client root widened the workspace")
		writes(t, c, "kept.txt", filepath.Join(e.workspace, "kept.txt"))
	})
	t.Run("missing root is not created", func(t *testing.T) {
		e := newEnv(t)
		missing := filepath.Join(e.workspace, "not", "there")
		os.MkdirAll(e.workspace, 0o755)
		c := stdioClient(t, e, "2025-11-25", client.WithRootsHandler(rootsOf{missing}))
		writes(t, c, "kept.txt", filepath.Join(e.workspace, "kept.txt"))
		noFileAt(t, filepath.Join(e.workspace, "not"))
	})
	t.Run("configured root inside a client root stays whole", func(t *testing.T) {
		e := newEnv(t)
		parent := filepath.Dir(e.workspace)
		c := stdioClient(t, e, "2025-11-25", client.WithRootsHandler(rootsOf{parent}))
		refused(t, c, filepath.Join(parent, "above.txt"), "the client root's parent became writable")
		writes(t, c, "in.txt", filepath.Join(e.workspace, "in.txt"))
	})
	t.Run("trust_client_roots replaces but never creates", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "trust.yaml")
		os.WriteFile(cfg, []byte("workspace:\n  trust_client_roots: true\n"), 0o600)
		e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg)
		elsewhere := t.TempDir()
		missing := filepath.Join(elsewhere, "missing")
		c := stdioClient(t, e, "2025-11-25", client.WithRootsHandler(rootsOf{elsewhere, missing}))
		writes(t, c, "trusted.txt", filepath.Join(elsewhere, "trusted.txt"))
		noFileAt(t, missing)
	})
}

func noFileAt(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Fatalf("%s exists but must not", p)
	}
}

type rootsOf []string

func (r rootsOf) ListRoots(ctx context.Context, req mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	res := &mcp.ListRootsResult{}
	for _, p := range r {
		res.Roots = append(res.Roots, mcp.Root{URI: "file://" + p, Name: filepath.Base(p)})
	}
	return res, nil
}

// Long work reports MCP progress when the client sends a progress token.
func TestProgressNotifications(t *testing.T) {
	e := newEnv(t)
	c := stdioClient(t, e, "2025-06-18")
	got := make(chan mcp.JSONRPCNotification, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			got <- n
		}
	})
	dir := filepath.Join(e.workspace, "many")
	os.MkdirAll(dir, 0o755)
	for i := 0; i < 250; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte("x"), 0o600)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "file"
	req.Params.Arguments = map[string]any{"action": "zip", "paths": []any{"many"}, "output": "many.zip"}
	req.Params.Meta = &mcp.Meta{ProgressToken: "zip-1"}
	res, err := c.CallTool(ctxT(t), req)
	if err != nil || res.IsError {
		t.Fatalf("zip: %v %s", err, text(res))
	}
	select {
	case n := <-got:
		if n.Params.AdditionalFields["progressToken"] != "zip-1" {
			t.Fatalf("progress for the wrong token: %v", n.Params.AdditionalFields)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress notification")
	}
}

// A result longer than the cap is cut for the model and kept whole as a
// resource that the result names.
func TestLongResultKeptAsResource(t *testing.T) {
	e := newEnv(t)
	c := stdioClient(t, e, "2025-06-18")
	os.MkdirAll(e.workspace, 0o755)
	var b strings.Builder
	for i := 0; b.Len() < 60000; i++ {
		fmt.Fprintf(&b, "line %05d of a long file\n", i)
	}
	os.WriteFile(filepath.Join(e.workspace, "long.txt"), []byte(b.String()), 0o600)
	r := callTool(t, c, "file", map[string]any{"action": "read", "path": "long.txt", "limit": 5000})
	if r.IsError {
		t.Fatal(text(r))
	}
	got := text(r)
	m := regexp.MustCompile(`clawbridge://results/[0-9a-f]+`).FindString(got)
	if m == "" || len(got) > 21000 {
		t.Fatalf("want a cut result naming its resource, got %d chars", len(got))
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = m
	res, err := c.ReadResource(ctxT(t), req)
	if err != nil {
		t.Fatal(err)
	}
	full := res.Contents[0].(mcp.TextResourceContents).Text
	if !strings.Contains(full, "line 02000 of a long file") || len(full) < 50000 {
		t.Fatalf("full result incomplete: %d chars", len(full))
	}
}

// Two stdio server processes on one data dir are two sessions: a confirm
// token issued in one is refused in the other.
func TestSessionIsolation_StdioProcessTokens(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=token")
	c1 := stdioClient(t, e, "2025-11-25")
	c2 := stdioClient(t, e, "2025-11-25")
	os.MkdirAll(e.workspace, 0o755)
	victim := filepath.Join(e.workspace, "victim.txt")
	os.WriteFile(victim, []byte("x"), 0o600)
	args := map[string]any{"argv": []any{"rm", "victim.txt"}}
	sc, _ := callTool(t, c1, "shell", args).StructuredContent.(map[string]any)
	tok, _ := sc["confirm_token"].(string)
	if tok == "" {
		t.Fatal("no token from the first process")
	}
	args["confirm_token"] = tok
	if r := callTool(t, c2, "shell", args); !r.IsError {
		t.Fatalf("the second process accepted the first one's token: %s", text(r))
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatal("the command ran in the other process")
	}
	if r := callTool(t, c1, "shell", args); r.IsError {
		t.Fatalf("the issuing process refused its own token: %s", text(r))
	}
}
