package e2e

// The MCP Inspector's CLI and mcp-remote: no model, a person (or a script)
// calls tools directly. Each call is one Inspector process, so over stdio
// each call is also one clawbridge process: the approved call made again
// arrives from a new one. mcp-remote runs as the Inspector's stdio server,
// bridging to clawbridge's streamable HTTP or SSE endpoint.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
)

func TestClient_InspectorAndMCPRemote(t *testing.T) {
	t.Parallel()                           // node clients; they run beside each other once the serial tests are done
	bridgetest.Bin(t, "mcp-inspector-cli") // installs the packages when missing
	build := filepath.Join(filepath.Dir(bridgetest.Script(t, "server-everything")), "../../inspector-cli/build")
	remote := bridgetest.Bin(t, "mcp-remote")
	for _, tr := range []string{"stdio", "http", "sse", "mcp-remote-http", "mcp-remote-sse"} {
		t.Run(tr, func(t *testing.T) {
			transport := tr
			if strings.HasPrefix(tr, "mcp-remote") {
				transport = "http" // the server side of mcp-remote
				if tr == "mcp-remote-sse" {
					transport = "sse"
				}
			}
			r := newClientRun(t, "inspector-"+tr, transport)
			var target []string
			switch tr {
			case "stdio":
				target = []string{binPath, "serve"}
			case "http":
				target = []string{r.url + "/mcp", "--transport", "http"}
			case "sse":
				target = []string{r.url + "/sse", "--transport", "sse"}
			// mcp-remote's own --transport would be taken by the Inspector's
			// parser; its default tries streamable HTTP, then SSE.
			case "mcp-remote-http":
				target = []string{remote, r.url + "/mcp"}
			case "mcp-remote-sse":
				target = []string{remote, r.url + "/sse"}
			}
			call := func(method string, args ...string) map[string]any {
				t.Helper()
				cmd := exec.CommandContext(ctxT(t), "node", append(append([]string{"index.js"}, target...), append([]string{"--method", method}, args...)...)...)
				// Inspector CLI 1.0.3 looks for its package.json relative
				// to the working directory, not to itself.
				cmd.Dir = build
				cmd.Env = append(r.e.vars, "HOME="+t.TempDir())
				out, err := cmd.Output()
				var res map[string]any
				if jerr := json.Unmarshal(out, &res); err != nil || jerr != nil {
					t.Fatalf("inspector %s %v: %v %v\n%s", method, args, err, jerr, out)
				}
				return res
			}
			text := func(res map[string]any) string {
				b, _ := json.Marshal(res["content"])
				return string(b)
			}
			if tools, _ := call("tools/list")["tools"].([]any); len(tools) < 5 {
				t.Fatalf("tools/list: %d tools", len(tools))
			}
			// A field the client adds (as Gemini CLI does) never fails a call.
			if res := call("tools/call", "--tool-name", "file", "--tool-arg", "action=read", "path=a.txt", "wait_for_previous=true"); res["isError"] == true ||
				!strings.Contains(text(res), "hello from the workspace") {
				t.Fatalf("read: %s", text(res))
			}
			if res := call("tools/call", "--tool-name", "file", "--tool-arg", "action=write", "path=out.txt", "text=written by the inspector"); res["isError"] == true {
				t.Fatalf("write: %s", text(res))
			}
			decide := func(marker string, approve bool) map[string]any {
				t.Helper()
				argv := `argv=["sh","-c","echo ` + marker + ` >> ` + marker + `.log"]`
				res := call("tools/call", "--tool-name", "shell", "--tool-arg", argv)
				sc, _ := res["structuredContent"].(map[string]any)
				id, _ := sc["pending_id"].(string)
				if id == "" || res["isError"] == true {
					t.Fatalf("high action: want the approval at once: %s", text(res))
				}
				args := []string{"approve", id}
				if !approve {
					args = []string{"approve", "--reject", id}
				}
				if code, out, errOut := runSplit(t, r.e.vars, args...); code != 0 {
					t.Fatalf("%v: %d %s %s", args, code, out, errOut)
				}
				return call("tools/call", "--tool-name", "shell", "--tool-arg", argv)
			}
			if res := decide("ran", true); res["isError"] == true || !strings.Contains(text(res), "exited with code 0") {
				t.Fatalf("approved: %s", text(res))
			}
			if res := decide("refused", false); res["isError"] != true || !strings.Contains(text(res), "rejected") {
				t.Fatalf("rejected: %s", text(res))
			}
			if b, _ := os.ReadFile(filepath.Join(r.e.workspace, "ran.log")); string(b) != "ran\n" {
				t.Errorf("the approved action ran %q, want once", b)
			}
			if b, _ := os.ReadFile(filepath.Join(r.e.workspace, "out.txt")); string(b) != "written by the inspector" {
				t.Errorf("out.txt is %q", b)
			}
			if _, err := os.Stat(filepath.Join(r.e.workspace, "refused.log")); err == nil {
				t.Error("the rejected action ran")
			}
		})
	}
}
