package e2e

// Codex, headless (`codex exec`), against the OpenAI Responses stand-in.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

func TestClient_Codex(t *testing.T) {
	t.Parallel() // node clients; they run beside each other once the serial tests are done
	bin := bridgetest.Bin(t, "codex")
	// Codex speaks no SSE. Under auto it gets search, whose list never
	// changes; "tiered" is the same run with the list changing, to measure
	// whether Codex re-reads it.
	for _, tr := range []string{"stdio", "http", "tiered"} {
		t.Run(tr, func(t *testing.T) {
			r := newClientRunNamed(t, "codex", tr, "tiered", "stdio")
			m, instr := r.startModel(t, "openai", nil)
			home := t.TempDir()
			server := fmt.Sprintf("command = %q\nargs = [\"serve\"]\n", binPath)
			if tr == "http" {
				server = fmt.Sprintf("url = %q\n", r.url+"/mcp")
			} else {
				var env []string
				for k, v := range r.serverEnv() {
					env = append(env, fmt.Sprintf("%s = %q", k, v))
				}
				sort.Strings(env)
				server += "env = { " + strings.Join(env, ", ") + " }\n"
			}
			// Codex gives an optional MCP server a short grace before the
			// first model request and sends it without that server's tools
			// when it is not ready (openai/codex#38689): on a loaded machine
			// the model missed the server. A required one is waited for.
			server += "required = true\nstartup_timeout_sec = 60\n"
			cfg := fmt.Sprintf(`model = "gpt-standin"
model_provider = "standin"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.standin]
name = "standin"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_API_KEY"

[mcp_servers.clawbridge]
%s`, m.URL+"/v1", server)
			os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600)
			cmd := exec.CommandContext(ctxT(t), bin, "exec", "--json", "--skip-git-repo-check", "use clawbridge")
			cmd.Dir = r.e.workspace
			cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+home, "STANDIN_API_KEY=standin")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("codex: %v\n%s", err, tail(out))
			}
			r.check(t, m, instr)
			l := r.relist(t, m.Requests(), toolsNamed("mcp__clawbridge__"))
			t.Logf("codex %s: %s", tr, l)
			measured(t, "codex-mcp-client", l)
		})
	}
}
