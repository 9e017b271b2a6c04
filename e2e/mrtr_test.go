package e2e

// Confirmation for 2026-07-28 clients (multi round-trip requests): the
// official conformance suite's input-required scenarios against the
// binary, and a script edited between the question and the answer.

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestConformance2026 runs @modelcontextprotocol/conformance (pinned by
// scripts/install-conformance.sh) with --requirements 2026-07-28 against
// `serve --http 127.0.0.1:0` of a binary built with -tags conformance,
// which adds the test tools its input-required scenarios call by name
// (server/conformance_fixture.go). Every input-required scenario must pass;
// the others (which call the suite's own fixture tools, prompts and
// resources that clawbridge does not publish) are logged.
func TestConformance2026(t *testing.T) {
	root, _ := filepath.Abs("..")
	dir := filepath.Join(root, ".cache/conformance")
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	node := filepath.Join(dir, "node_modules/node-linux-"+arch+"/bin/node")
	suite := filepath.Join(dir, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	if _, err := os.Stat(suite); err != nil {
		cmd := exec.Command(filepath.Join(root, "scripts/install-conformance.sh"), dir)
		cmd.Stderr = os.Stderr
		_ = cmd.Run()
	}
	for _, f := range []string{node, suite} {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
				t.Fatalf("the conformance suite is not installed (scripts/install-conformance.sh needs npm): %v", err)
			}
			t.Skipf("the conformance suite is not installed (npm missing?): %v", err)
		}
	}
	bin := filepath.Join(t.TempDir(), "clawbridge-conformance")
	if out, err := exec.Command("go", "build", "-tags", "conformance", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build -tags conformance: %v\n%s", err, out)
	}
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=elicit")
	base := serveHTTP(t, bin, e)

	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, node, suite, "server", "--url", base+"/mcp", "--requirements", "2026-07-28", "-o", out)
	log, _ := run.CombinedOutput() // fails while the scenarios clawbridge has no fixture for fail
	if ctx.Err() != nil {
		t.Fatalf("the suite did not finish: %s", log)
	}

	results := map[string][]string{} // scenario → checks not passed
	dirs, _ := filepath.Glob(filepath.Join(out, "server-*", "checks.json"))
	for _, f := range dirs {
		scenario := regexp.MustCompile(`^server-(.*)-\d{4}-\d{2}-\d{2}T`).FindStringSubmatch(filepath.Base(filepath.Dir(f)))
		if scenario == nil {
			continue
		}
		var checks []struct{ ID, Status, ErrorMessage string }
		b, _ := os.ReadFile(f)
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		failed := []string{}
		for _, c := range checks {
			if c.Status != "SUCCESS" && c.Status != "INFO" {
				failed = append(failed, c.ID+" "+c.Status+": "+c.ErrorMessage)
			}
		}
		results[scenario[1]] = failed
	}
	var names []string
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	inputRequired := 0
	for _, n := range names {
		if strings.HasPrefix(n, "input-required-result-") {
			inputRequired++
			if len(results[n]) > 0 {
				t.Errorf("%s: %s", n, strings.Join(results[n], "; "))
			}
			continue
		}
		if len(results[n]) > 0 {
			t.Logf("not passed (not an input-required scenario): %s: %s", n, strings.Join(results[n], "; "))
		}
	}
	if inputRequired != 14 {
		t.Fatalf("ran %d input-required scenarios, want the 14 the 2026-07-28 requirements list; the suite said:\n%s", inputRequired, log)
	}
}

// serveHTTP starts bin's `serve --http 127.0.0.1:0` and returns its URL.
func serveHTTP(t *testing.T, bin string, e *env) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0")
	cmd.Env = e.vars
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`on http://([0-9.:]+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- "http://" + m[1]:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	return ""
}

// editingPerson accepts every question; before answering the first it
// rewrites the script the command runs, as if someone edited it while the
// person was reading.
type editingPerson struct {
	mu     sync.Mutex
	script string
	asked  []string
}

func (p *editingPerson) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, req.Params.Message)
	if len(p.asked) == 1 {
		os.WriteFile(p.script, []byte("echo edited >> ran.txt\n"), 0o600)
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// A 2026-07-28 client over streamable HTTP is asked through an
// input_required result; the answer counts for the script as shown: edited
// after the question, it is asked about anew and what runs, once, is what
// the second question showed.
func TestMRTR_ScriptEditedAfterTheQuestionIsAskedAnew(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_CONFIRM=elicit")
	os.MkdirAll(e.workspace, 0o755)
	script := filepath.Join(e.workspace, "deploy.sh")
	os.WriteFile(script, []byte("echo original >> ran.txt\n"), 0o600)
	base := httpServer(t, e)
	p := &editingPerson{script: script}
	tr, err := transport.NewStreamableHTTP(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithElicitationHandler(p))
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, "2026-07-28")
	if c.ProtocolVersion() != "2026-07-28" {
		t.Fatalf("negotiated %s", c.ProtocolVersion())
	}
	r := callTool(t, c, "shell", map[string]any{"argv": []any{"bash", "deploy.sh"}})
	ran, _ := os.ReadFile(filepath.Join(e.workspace, "ran.txt"))
	if r.IsError || string(ran) != "edited\n" {
		t.Fatalf("ran %q (want the edited script, once): %s", ran, text(r))
	}
	if len(p.asked) != 2 || !strings.Contains(p.asked[0], "echo original") || !strings.Contains(p.asked[1], "echo edited") {
		t.Fatalf("questions %q: want the original script, then the edited one", p.asked)
	}
}
