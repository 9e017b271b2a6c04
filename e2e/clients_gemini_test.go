package e2e

// Gemini CLI, headless (`gemini -p`), against the Gemini API stand-in.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

func TestClient_GeminiCLI(t *testing.T) {
	t.Parallel() // node clients; they run beside each other once the serial tests are done
	bin := bridgetest.Bin(t, "gemini")
	for _, tr := range []string{"stdio", "http", "sse"} {
		t.Run(tr, func(t *testing.T) {
			// Under auto Gemini CLI gets search (it re-reads the list two
			// requests late); over SSE the list is tiered, to measure when a
			// grown list reaches its model.
			r := newClientRunNamed(t, "gemini-cli", tr, "sse", "sse")
			// Gemini CLI adds wait_for_previous to every tool's schema and
			// its model fills it in: the stand-in does too.
			m, instr := r.startModel(t, "gemini", map[string]any{"wait_for_previous": true})
			server := map[string]any{"command": binPath, "args": []string{"serve"}, "env": r.serverEnv(), "trust": true}
			switch tr {
			case "http":
				server = map[string]any{"httpUrl": r.url + "/mcp", "trust": true}
			case "sse":
				server = map[string]any{"url": r.url + "/sse", "trust": true}
			}
			home := t.TempDir()
			settings, _ := json.Marshal(map[string]any{
				"mcpServers": map[string]any{"clawbridge": server},
				"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
				"general":    map[string]any{"disableAutoUpdate": true},
				"privacy":    map[string]any{"usageStatisticsEnabled": false},
			})
			os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
			os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), settings, 0o600)
			cmd := exec.CommandContext(ctxT(t), bin, "-p", "use clawbridge", "--yolo", "-o", "json")
			cmd.Dir = r.e.workspace
			cmd.Env = append(os.Environ(), "HOME="+home, "GOOGLE_GEMINI_BASE_URL="+m.URL, "GEMINI_API_KEY=standin",
				"GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=true")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("gemini: %v\n%s", err, tail(out))
			}
			r.check(t, m, instr)
			if s := m.Requests()[0].ToolSchemas["mcp_clawbridge_file"]; !strings.Contains(string(s), "wait_for_previous") {
				t.Logf("gemini-cli no longer adds wait_for_previous: the client-added field goes untested")
			}
			l := r.relist(t, m.Requests(), toolsNamed("mcp_clawbridge_"))
			t.Logf("gemini-cli %s: %s", tr, l)
			measured(t, "gemini-cli-mcp-client", l)
		})
	}
}
