package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"clawbridge/internal/jail"
)

// cliEnv isolates the CLI's config, workspace and data dir.
func cliEnv(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("CLAWBRIDGE_CONFIG", filepath.Join(dir, "config.yaml"))
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("{}\n"), 0o600)
	t.Setenv("CLAWBRIDGE_WORKSPACE", filepath.Join(dir, "ws"))
	t.Setenv("CLAWBRIDGE_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("CLAWBRIDGE_LOG_FILE", filepath.Join(dir, "log.jsonl"))
	return dir
}

func runCLI(t *testing.T, args ...string) (string, error) {
	var out bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &out)
	return out.String(), err
}

func TestInstallMergesAfterBackup(t *testing.T) {
	dir := cliEnv(t)
	target := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(target, []byte(`{"mcpServers":{"other":{"command":"x"}},"theme":"dark"}`), 0o600)
	if out, err := runCLI(t, "install", "claude-desktop", "--path", target); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var doc map[string]any
	b, _ := os.ReadFile(target)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	servers := doc["mcpServers"].(map[string]any)
	if servers["other"] == nil || doc["theme"] != "dark" {
		t.Fatalf("existing entries lost: %s", b)
	}
	entry := servers["clawbridge"].(map[string]any)
	if args := entry["args"].([]any); args[0] != "serve" {
		t.Fatalf("entry %v", entry)
	}
	backups, _ := filepath.Glob(target + ".bak-*")
	if len(backups) != 1 {
		t.Fatalf("want one backup, got %v", backups)
	}
	// A broken file is left alone with a clear error.
	os.WriteFile(target, []byte(`{broken`), 0o600)
	if _, err := runCLI(t, "install", "claude-desktop", "--path", target); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("broken config: %v", err)
	}
	out, err := runCLI(t, "install", "vscode", "--print")
	if err != nil || !strings.Contains(out, `"servers"`) || !strings.Contains(out, `"type": "stdio"`) {
		t.Fatalf("vscode --print: %v %s", err, out)
	}
}

func TestConfigInitAndTools(t *testing.T) {
	dir := cliEnv(t)
	p := filepath.Join(dir, "new", "config.yaml")
	if _, err := runCLI(t, "config", "init", "--path", p); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "config", "init", "--path", p); err == nil {
		t.Fatal("config init overwrote a file")
	}
	out, err := runCLI(t, "--config", p, "tools")
	if err == nil {
		t.Fatal("flags before the command should be a usage error")
	}
	out, err = runCLI(t, "tools", "--config", p)
	if err != nil || !strings.Contains(out, "pdf_tool") || !strings.Contains(out, "run(high)") {
		t.Fatalf("tools: %v\n%s", err, out)
	}
	out, err = runCLI(t, "call", "file", "--args", `{"action":"write","path":"x.txt","text":"cli"}`)
	if err != nil || !strings.Contains(out, "x.txt") {
		t.Fatalf("call: %v %s", err, out)
	}
	if _, err := runCLI(t, "call", "file", "--args", `{"action":"read","path":"../../etc/passwd"}`); err == nil {
		t.Fatal("call with an escaping path succeeded")
	}
}

func TestDoctorNamesPackages(t *testing.T) {
	cliEnv(t)
	t.Setenv("PATH", t.TempDir()) // nothing installed
	out, err := runCLI(t, "doctor")
	if err == nil || !strings.Contains(out, "apt-get install chromium") || !strings.Contains(out, "MISSING") {
		t.Fatalf("doctor should name the missing packages: %v\n%s", err, out)
	}
}

// TestDoctorReportsJail: doctor says whether the jail works, and if not,
// what to fix.
func TestDoctorReportsJail(t *testing.T) {
	cliEnv(t)
	out, _ := runCLI(t, "doctor")
	if err := jail.Check(); err != nil {
		if !regexp.MustCompile(`MISSING\s+jail\s.*(bubblewrap|user namespaces)`).MatchString(out) {
			t.Fatalf("doctor does not report the broken jail (%v):\n%s", err, out)
		}
		return
	}
	if !regexp.MustCompile(`ok\s+jail\s+bubblewrap: no network`).MatchString(out) {
		t.Fatalf("doctor does not report the jail:\n%s", out)
	}
}
