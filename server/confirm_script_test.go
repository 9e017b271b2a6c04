package server

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/tools/pyrunner"
	"github.com/clawbridge/clawbridge/tools/shell"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// A python_runner run by path: the question shows the script's code, and
// the code shown is the code that runs (confirm_content_test.go has the
// fixture).

// The python_runner script: what the person is shown and what is swapped in.
const (
	shownScript = "print('harmless', 6 * 7)\n"
	evilScript  = "print('evil: exfiltrate')\n"
)

func runScript(t *testing.T, f *contentFixture) (path string) {
	t.Helper()
	tooltest.NeedProgram(t, "python3")
	tooltest.NeedProgram(t, "bwrap")
	tooltest.WriteFile(t, filepath.Join(f.ws, "job.py"), []byte(shownScript))
	return "job.py"
}

// ranShown fails unless the run printed what the shown script prints.
func ranShown(t *testing.T, r *mcp.CallToolResult) {
	t.Helper()
	m, _ := r.StructuredContent.(map[string]any)
	out, _ := m["stdout"].(string)
	if r.IsError || out != "harmless 42\n" {
		t.Fatalf("the run did not run the shown script: %s", text(r))
	}
}

// TestConfirmContent_ScriptElicit: the question shows the script's code,
// not only its path; the script rewritten while it is open, the shown code
// is what runs.
func TestConfirmContent_ScriptElicit(t *testing.T) {
	f := newContentFixture(t, "elicit")
	path := runScript(t, f)
	h := &swapping{swap: func() { tooltest.WriteFile(t, filepath.Join(f.ws, path), []byte(evilScript)) }}
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(h))
	r := call(t, c, pyrunner.Name, map[string]any{"action": "run", "path": path})
	if !strings.Contains(h.question, shownScript) {
		t.Fatalf("the question does not show the code:\n%s", h.question)
	}
	ranShown(t, r)
}

// TestConfirmContent_ScriptApprove: under `clawbridge approve` the pending
// call shows the code; the script rewritten after the person saw it, the
// call made again is a new question and nothing runs.
func TestConfirmContent_ScriptApprove(t *testing.T) {
	f := newContentFixture(t, "approve")
	path := runScript(t, f)
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	args := map[string]any{"action": "run", "path": path}
	id := structuredField(call(t, c, pyrunner.Name, args), "pending_id")
	p := waitPending(t, &fixture{s: f.s})
	if p.ID != id || !strings.Contains(p.Preview, shownScript) {
		t.Fatalf("the pending call %s does not show the code:\n%s", id, p.Preview)
	}
	tooltest.WriteFile(t, filepath.Join(f.ws, path), []byte(evilScript))
	if err := Decide(context.Background(), f.s.store, p.ID, true); err != nil {
		t.Fatal(err)
	}
	r := call(t, c, pyrunner.Name, args)
	if again := structuredField(r, "pending_id"); again == "" || again == id || !strings.Contains(text(r), "exfiltrate") || strings.Contains(text(r), "stdout") {
		t.Fatalf("the rewritten script made again: %s", text(r))
	}
}

// TestConfirmContent_ScriptToken: a token issued for one script's code is
// refused once the script changed; nothing runs.
func TestConfirmContent_ScriptToken(t *testing.T) {
	f := newContentFixture(t, "token")
	path := runScript(t, f)
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	args := map[string]any{"action": "run", "path": path}
	preview := call(t, c, pyrunner.Name, args)
	if !strings.Contains(text(preview), shownScript) {
		t.Fatalf("the preview does not show the code: %s", text(preview))
	}
	tok := confirmToken(t, preview)
	tooltest.WriteFile(t, filepath.Join(f.ws, path), []byte(evilScript))
	r := call(t, c, pyrunner.Name, map[string]any{"action": "run", "path": path, confirmParam: tok})
	if !r.IsError || strings.Contains(text(r), "exfiltrate") || !strings.Contains(text(r), "confirmation_required") {
		t.Fatalf("a token for the old script ran the new one: %s", text(r))
	}
	// The unchanged script with its own token runs.
	tooltest.WriteFile(t, filepath.Join(f.ws, path), []byte(shownScript))
	ranShown(t, call(t, c, pyrunner.Name, map[string]any{"action": "run", "path": path, confirmParam: confirmToken(t, call(t, c, pyrunner.Name, args))}))
}

// TestConfirmContent_ShellScriptElicit: a confirmed `sh job.sh` runs on the
// host and reads job.sh when it runs. The question shows the script; the
// script rewritten while the question is open, nothing runs and the model
// is told to ask again.
func TestConfirmContent_ShellScriptElicit(t *testing.T) {
	f := newContentFixture(t, "elicit")
	tooltest.WriteFile(t, filepath.Join(f.ws, "job.sh"), []byte("echo harmless\n"))
	h := &swapping{swap: func() { tooltest.WriteFile(t, filepath.Join(f.ws, "job.sh"), []byte("echo evil\n")) }}
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil, client.WithElicitationHandler(h))
	r := call(t, c, shell.Name, map[string]any{"argv": []any{"sh", "job.sh"}})
	if !strings.Contains(h.question, "echo harmless") || !strings.Contains(h.question, "file job.sh (14 bytes, sha256 ") {
		t.Fatalf("the question does not show the script:\n%s", h.question)
	}
	if !r.IsError || !strings.Contains(text(r), "job.sh changed after it was confirmed; nothing ran") || strings.Contains(text(r), "evil") {
		t.Fatalf("a script changed after the question ran or was not named: %s", text(r))
	}
	// Asked again, the person sees the script as it is, and that runs.
	h.swap = func() {}
	r = call(t, c, shell.Name, map[string]any{"argv": []any{"sh", "job.sh"}})
	if r.IsError || !strings.Contains(h.question, "echo evil") || !strings.Contains(text(r), "evil") {
		t.Fatalf("asked again: %s\nquestion:\n%s", text(r), h.question)
	}
}

// TestConfirmContent_ShellScriptToken: a token issued for the script as
// shown is refused once the script is rewritten.
func TestConfirmContent_ShellScriptToken(t *testing.T) {
	f := newContentFixture(t, "token")
	tooltest.WriteFile(t, filepath.Join(f.ws, "job.sh"), []byte("echo harmless\n"))
	c := dial(t, f.url, mcp.ProtocolVersion20251125, nil)
	args := map[string]any{"argv": []any{"sh", "job.sh"}}
	tok := confirmToken(t, call(t, c, shell.Name, args))
	tooltest.WriteFile(t, filepath.Join(f.ws, "job.sh"), []byte("echo evil\n"))
	args["confirm_token"] = tok
	if r := call(t, c, shell.Name, args); !r.IsError || strings.Contains(text(r), "evil") {
		t.Fatalf("a stale token ran the rewritten script: %s", text(r))
	}
}
