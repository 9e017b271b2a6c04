package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/fixtures/site"
)

// The browser through a real MCP client over stdio: navigate → snapshot →
// click by ref → type → submit → extract the result.
func TestBrowserOverStdio(t *testing.T) {
	srv := site.Start(t)
	e := newEnv(t, "CLAWBRIDGE_ALLOW_HOSTS=127.0.0.1")
	c := stdioClient(t, e, "2025-11-25")

	r := callTool(t, c, "browser", map[string]any{"action": "navigate", "url": srv.At("/form.html")})
	if r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	r = callTool(t, c, "browser", map[string]any{"action": "snapshot"})
	snap := text(r)
	if r.IsError || !strings.Contains(snap, `textbox "Full name"`) {
		t.Fatalf("snapshot: %s", snap)
	}
	name := refOf(t, snap, `textbox "Full name"`)
	if r := callTool(t, c, "browser", map[string]any{"action": "click", "ref": name}); r.IsError {
		t.Fatalf("click: %s", text(r))
	}
	if r := callTool(t, c, "browser", map[string]any{"action": "type", "ref": name, "text": "Ada Lovelace"}); r.IsError {
		t.Fatalf("type: %s", text(r))
	}
	if r := callTool(t, c, "browser", map[string]any{"action": "click", "ref": refOf(t, snap, `button "Send"`)}); r.IsError {
		t.Fatalf("submit: %s", text(r))
	}
	if r := callTool(t, c, "browser", map[string]any{"action": "wait_for", "text": "Thank you"}); r.IsError {
		t.Fatalf("wait_for: %s", text(r))
	}
	r = callTool(t, c, "browser_use", map[string]any{"action": "extract"})
	if r.IsError || !strings.Contains(text(r), "Ada Lovelace") {
		t.Fatalf("extract after submit: %s", text(r))
	}
	// The guard: a private address that is not allowed is refused.
	r = callTool(t, c, "browser", map[string]any{"action": "navigate", "url": "http://169.254.169.254/latest/meta-data/"})
	if !r.IsError {
		t.Fatalf("link-local navigation allowed: %s", text(r))
	}
}

// refOf finds the ref of a snapshot line such as `- textbox "Full name" [ref=e3]`.
func refOf(t *testing.T, snap, what string) string {
	t.Helper()
	for _, line := range strings.Split(snap, "\n") {
		if strings.Contains(line, what) {
			if m := regexp.MustCompile(`\[ref=(e\d+)\]`).FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no ref for %s in:\n%s", what, snap)
	return ""
}
