package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jsonc"
)

// TestInstall_VSCodeMCPJSONWithComments: VS Code's mcp.json is JSONC. A file
// with // and /* */ comments and trailing commas is accepted; the entry is
// added, the other servers and every comment are kept, and the backup holds
// the file as it was.
func TestInstall_VSCodeMCPJSONWithComments(t *testing.T) {
	dir := cliEnv(t)
	target := filepath.Join(dir, "mcp.json")
	orig := []byte(`{
	// Servers I use every day
	"servers": {
		"github": {
			"type": "http",
			"url": "https://api.githubcopilot.com/mcp/", /* work account */
		},
	},
	"inputs": [],
}
`)
	os.WriteFile(target, orig, 0o600)
	out, err := runCLI(t, "install", "vscode", "--path", target)
	if err != nil || !strings.Contains(out, "added clawbridge to "+target) {
		t.Fatalf("install: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(target)
	for _, comment := range []string{"// Servers I use every day", "/* work account */"} {
		if !bytes.Contains(got, []byte(comment)) {
			t.Errorf("lost %q:\n%s", comment, got)
		}
	}
	var doc struct {
		Servers map[string]map[string]any `json:"servers"`
		Inputs  []any                     `json:"inputs"`
	}
	if err := jsonc.Unmarshal(got, &doc); err != nil {
		t.Fatalf("result is not JSONC: %v\n%s", err, got)
	}
	if doc.Servers["github"]["url"] != "https://api.githubcopilot.com/mcp/" || doc.Inputs == nil {
		t.Fatalf("existing entries lost:\n%s", got)
	}
	if cb := doc.Servers["clawbridge"]; cb["type"] != "stdio" || cb["args"].([]any)[0] != "serve" {
		t.Fatalf("entry %v", cb)
	}
	backups, _ := filepath.Glob(target + ".bak-*")
	if len(backups) != 1 {
		t.Fatalf("want one backup, got %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); !bytes.Equal(b, orig) {
		t.Fatalf("backup differs from the original:\n%s", b)
	}
	// Again: already present, untouched.
	if out, err := runCLI(t, "install", "vscode", "--path", target); err != nil || !strings.Contains(out, "already present") {
		t.Fatalf("second install: %v %s", err, out)
	}
}

// TestInstall_ClaudeCodeGeminiCodex: the three CLI clients get the entry in
// the file each reads, found from HOME (or CLAUDE_CONFIG_DIR, CODEX_HOME);
// the JSON files are read back by Python's json, Codex's TOML by Python's
// tomllib, and what was there before is kept.
func TestInstall_ClaudeCodeGeminiCodex(t *testing.T) {
	dir := cliEnv(t)
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.MkdirAll(filepath.Join(home, ".codex"), 0o700)
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"numStartups": 3, "projects": {"/src": {"allowedTools": []}}}`), 0o600)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte("{\n  // theme\n  \"theme\": \"GitHub\",\n}\n"), 0o600)
	codexCfg := filepath.Join(home, ".codex", "config.toml")
	os.WriteFile(codexCfg, []byte("model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"), 0o600)

	for _, c := range []struct{ client, file, read string }{
		{"claude-code", ".claude.json", `import json,sys; d=json.load(open(sys.argv[1])); e=d["mcpServers"]["clawbridge"]; assert d["numStartups"]==3 and "/src" in d["projects"]; print(e["type"], e["command"], *e["args"])`},
		{"gemini", ".gemini/settings.json", `import json,sys; d=json.loads("".join(l for l in open(sys.argv[1]) if "//" not in l).replace(",\n}", "\n}")); e=d["mcpServers"]["clawbridge"]; assert d["theme"]=="GitHub"; print("stdio", e["command"], *e["args"])`},
		{"codex", ".codex/config.toml", `import tomllib,sys; d=tomllib.load(open(sys.argv[1],"rb")); e=d["mcp_servers"]["clawbridge"]; assert d["model"]=="o3" and d["mcp_servers"]["docs"]["command"]=="docs-mcp"; print("stdio", e["command"], *e["args"])`},
	} {
		out, err := runCLI(t, "install", c.client)
		path := filepath.Join(home, c.file)
		if err != nil || !strings.Contains(out, "added clawbridge to "+path) {
			t.Fatalf("%s: %v\n%s", c.client, err, out)
		}
		read, err := exec.Command("python3", "-c", c.read, path).CombinedOutput()
		exe, _ := os.Executable()
		if err != nil || strings.TrimSpace(string(read)) != "stdio "+exe+" serve" {
			b, _ := os.ReadFile(path)
			t.Fatalf("%s: python read %v %s\n%s", c.client, err, read, b)
		}
		if out, err := runCLI(t, "install", c.client); err != nil || !strings.Contains(out, "already present") {
			t.Fatalf("%s again: %v %s", c.client, err, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".gemini", "settings.json")); !bytes.Contains(b, []byte("// theme")) {
		t.Fatalf("gemini settings lost its comment:\n%s", b)
	}
}

// TestInstall_CodexReplacesItsTableOnly: a changed entry replaces the
// [mcp_servers.clawbridge] table in place; its env sub-table, comments and
// the tables around it stay; clawbridge set in another TOML form is refused
// and the file left alone.
func TestInstall_CodexReplacesItsTableOnly(t *testing.T) {
	dir := cliEnv(t)
	t.Setenv("CODEX_HOME", filepath.Join(dir, "codex"))
	target := filepath.Join(dir, "codex", "config.toml")
	os.MkdirAll(filepath.Dir(target), 0o700)
	os.WriteFile(target, []byte(`# my codex
[mcp_servers.clawbridge]
command = "/old/clawbridge"
args = ["serve"]

# keep: env for clawbridge
[mcp_servers.clawbridge.env]
CLAWBRIDGE_WORKSPACE = "/work"

[profiles.fast]
model = "o4-mini"
`), 0o600)
	cfg := filepath.Join(dir, "config.yaml")
	out, err := runCLI(t, "install", "codex", "--config", cfg)
	if err != nil || !strings.Contains(out, "replaced the clawbridge entry in "+target) {
		t.Fatalf("install: %v\n%s", err, out)
	}
	read, err := exec.Command("python3", "-c", `import tomllib,sys,json; d=tomllib.load(open(sys.argv[1],"rb")); print(json.dumps([d["mcp_servers"]["clawbridge"]["args"], d["mcp_servers"]["clawbridge"]["env"], d["profiles"]]))`, target).CombinedOutput()
	want := `[["serve", "--config", "` + cfg + `"], {"CLAWBRIDGE_WORKSPACE": "/work"}, {"fast": {"model": "o4-mini"}}]`
	if err != nil || strings.TrimSpace(string(read)) != want {
		b, _ := os.ReadFile(target)
		t.Fatalf("tomllib: %v %s\nwant %s\n%s", err, read, want, b)
	}
	if b, _ := os.ReadFile(target); !bytes.Contains(b, []byte("# keep: env for clawbridge")) || bytes.Contains(b, []byte("/old/")) {
		t.Fatalf("comment lost or old entry kept:\n%s", b)
	}

	inline := []byte("[mcp_servers]\nclawbridge = { command = \"x\" }\n")
	os.WriteFile(target, inline, 0o600)
	if _, err := runCLI(t, "install", "codex"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("inline table: %v", err)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, inline) {
		t.Fatalf("refused install changed the file:\n%s", b)
	}
}

// TestInstall_PrintCodexIsTOML: --print shows the TOML Codex reads.
func TestInstall_PrintCodexIsTOML(t *testing.T) {
	cliEnv(t)
	out, err := runCLI(t, "install", "codex", "--print")
	if err != nil || !strings.Contains(out, "[mcp_servers.clawbridge]\ncommand = ") {
		t.Fatalf("%v\n%s", err, out)
	}
}
