package e2e

// Claude Code, headless (`claude -p`), against the Anthropic Messages stand-in.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/clawbridge/clawbridge/internal/standin"
)

func TestClient_ClaudeCode(t *testing.T) {
	t.Parallel() // node clients; they run beside each other once the serial tests are done
	bin := bridgetest.Bin(t, "claude")
	// Under auto Claude Code gets full, whose tools never change; "tiered"
	// is the SSE run (the era with sessions) with the list changing, to
	// measure whether Claude Code shows the model a changed list.
	for _, tr := range []string{"stdio", "http", "sse", "tiered"} {
		t.Run(tr, func(t *testing.T) {
			r := newClientRunNamed(t, "claude-code", tr, "tiered", "sse")
			m, instr := r.startModel(t, "anthropic", nil)
			server := map[string]any{"command": binPath, "args": []string{"serve"}, "env": r.serverEnv()}
			switch r.transport {
			case "http":
				server = map[string]any{"type": "http", "url": r.url + "/mcp"}
			case "sse":
				server = map[string]any{"type": "sse", "url": r.url + "/sse"}
			}
			cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"clawbridge": server}})
			cfgFile := filepath.Join(t.TempDir(), "mcp.json")
			os.WriteFile(cfgFile, cfg, 0o600)
			cmd := exec.CommandContext(ctxT(t), bin, "-p", "use clawbridge", "--mcp-config", cfgFile, "--strict-mcp-config",
				"--output-format", "stream-json", "--verbose", "--allowedTools", "mcp__clawbridge__*,ToolSearch")
			cmd.Dir = r.e.workspace
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "ANTHROPIC_BASE_URL="+m.URL, "ANTHROPIC_API_KEY=sk-standin",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("claude: %v\n%s", err, tail(out))
			}
			r.check(t, m, instr)
			l := r.relist(t, m.Requests(), claudeServerTools)
			t.Logf("claude-code %s: %s", tr, l)
			measured(t, "claude-code", l)
		})
	}
}

var claudeToolName = regexp.MustCompile(`mcp__clawbridge__[a-z_]+`)

// claudeServerTools are the server's tools the model is told of: offered
// with a schema, or named in the deferred-tools list of the system prompt.
func claudeServerTools(q standin.Request) []string {
	seen := map[string]bool{}
	for _, n := range q.Tools {
		if strings.HasPrefix(n, "mcp__clawbridge__") {
			seen[n] = true
		}
	}
	// The deferred list is in the system prompt, which Claude Code sends as
	// a system message (q.Text holds it) rather than in the system field.
	for _, n := range claudeToolName.FindAllString(q.Text, -1) {
		seen[n] = true
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	return out
}

func tail(b []byte) string {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}
