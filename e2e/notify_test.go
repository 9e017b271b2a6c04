package e2e

// notify through a real MCP client against the built binary, under the
// token confirmation policy: nothing is sent before confirmation, the
// confirmed call sends once, and the same message confirmed again is not
// sent a second time (its idempotency key is recorded in the store).

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestNotify_TokenConfirmationSendsOnceThroughMCP(t *testing.T) {
	var mu sync.Mutex
	var received []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct{ Text string }
		if r.URL.Path != "/services/T0/B0/E2ETOKEN" || json.Unmarshal(body, &m) != nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "invalid_payload")
			return
		}
		mu.Lock()
		received = append(received, m.Text)
		mu.Unlock()
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(received) }

	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("confirm: token\nnetwork:\n  allow_hosts: [\"127.0.0.1\"]\nexposure:\n  mode: full\n"+
		"tools:\n  notify:\n    min_interval: 0s\n    targets:\n      - {name: team, kind: slack, url_env: E2E_SLACK_URL}\n"), 0o600)
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg, "CLAWBRIDGE_CONFIRM=token", "E2E_SLACK_URL="+srv.URL+"/services/T0/B0/E2ETOKEN")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)
	if _, ok := listTools(t, c)["notify"]; !ok {
		t.Fatal("notify is not listed")
	}
	args := map[string]any{"action": "send", "target": "team", "text": "release 1.4 is out"}
	confirmed := func() *mcp.CallToolResult {
		t.Helper()
		r := callTool(t, c, "notify", args)
		sc, _ := r.StructuredContent.(map[string]any)
		tok, _ := sc["confirm_token"].(string)
		if r.IsError || tok == "" || !strings.Contains(sc["action"].(string), "to team (slack at 127.0.0.1)") ||
			!strings.Contains(sc["action"].(string), "release 1.4 is out") || strings.Contains(text(r), "E2ETOKEN") {
			t.Fatalf("first call must ask for confirmation with target and text: %s", text(r))
		}
		if n := count(); n > 1 {
			t.Fatalf("the preview sent (%d messages)", n)
		}
		with := map[string]any{"confirm_token": tok}
		for k, v := range args {
			with[k] = v
		}
		return callTool(t, c, "notify", with)
	}
	if r := confirmed(); r.IsError || count() != 1 || !strings.Contains(text(r), "Sent to team") {
		t.Fatalf("confirmed call: error=%v %s; %d received", r.IsError, text(r), count())
	}
	r := confirmed()
	if r.IsError || count() != 1 || !strings.Contains(text(r), "already_sent") {
		t.Fatalf("the same message confirmed again: error=%v %s; %d received", r.IsError, text(r), count())
	}
}
