package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/jsonc"
)

// clientConfig says where a client keeps its MCP servers and how.
type clientConfig struct {
	path func(home string) string
	key  string // "mcpServers", VS Code's "servers" or Codex's TOML table "mcp_servers"
	typ  bool   // the entry carries "type": "stdio" (VS Code, Claude Code)
	toml bool   // Codex: TOML, not JSON
}

// clientNames is the order install names the clients in.
const clientNames = "claude-desktop, cursor, vscode, claude-code, gemini or codex"

var clients = map[string]clientConfig{
	"claude-desktop": {key: "mcpServers", path: func(home string) string {
		switch runtime.GOOS {
		case "darwin":
			return filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
		case "windows":
			return filepath.Join(os.Getenv("APPDATA"), "Claude", "claude_desktop_config.json")
		}
		return filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	}},
	"cursor": {key: "mcpServers", path: func(home string) string { return filepath.Join(home, ".cursor", "mcp.json") }},
	"vscode": {key: "servers", typ: true, path: func(home string) string {
		switch runtime.GOOS {
		case "darwin":
			return filepath.Join(home, "Library", "Application Support", "Code", "User", "mcp.json")
		case "windows":
			return filepath.Join(os.Getenv("APPDATA"), "Code", "User", "mcp.json")
		}
		return filepath.Join(home, ".config", "Code", "User", "mcp.json")
	}},
	// Claude Code's user scope, where `claude mcp add --scope user` writes.
	"claude-code": {key: "mcpServers", typ: true, path: func(home string) string {
		if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
			return filepath.Join(dir, ".claude.json")
		}
		return filepath.Join(home, ".claude.json")
	}},
	"gemini": {key: "mcpServers", path: func(home string) string { return filepath.Join(home, ".gemini", "settings.json") }},
	"codex": {key: "mcp_servers", toml: true, path: func(home string) string {
		if dir := os.Getenv("CODEX_HOME"); dir != "" {
			return filepath.Join(dir, "config.toml")
		}
		return filepath.Join(home, ".codex", "config.toml")
	}},
}

func cmdInstall(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usageError("install: name a client: " + clientNames)
	}
	if isHelp(args[0]) {
		return helpRequest(commandHelp["install"])
	}
	name := args[0]
	cc, ok := clients[name]
	if !ok {
		return usageError(fmt.Sprintf("install: unknown client %q (%s)", name, clientNames))
	}
	fs, cfgPath := newFlags("install")
	printOnly := fs.Bool("print", false, "print the entry instead of writing it")
	target := fs.String("path", "", "the client's config file (default: its usual location)")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	entry := map[string]any{"command": exe, "args": []string{"serve"}}
	if *cfgPath != "" {
		abs, _ := filepath.Abs(*cfgPath)
		entry["args"] = []string{"serve", "--config", abs}
	}
	if cc.typ {
		entry["type"] = "stdio"
	}
	path := *target
	if path == "" {
		home, _ := os.UserHomeDir()
		path = cc.path(home)
	}
	if *printOnly {
		b, _ := json.MarshalIndent(map[string]any{cc.key: map[string]any{"clawbridge": entry}}, "", "  ")
		if cc.toml {
			b = codexTable(entry)
		}
		fmt.Fprintf(stdout, "%s: install would add this to %s (nothing written):\n%s\n", name, path, bytes.TrimSpace(b))
		return nil
	}
	merge := mergeClientConfig
	if cc.toml {
		merge = mergeCodexConfig
	}
	state, err := merge(path, cc.key, entry)
	if err != nil {
		return err
	}
	switch state {
	case entryPresent:
		fmt.Fprintf(stdout, "clawbridge is already present in %s with this entry; nothing changed\n", path)
		return nil
	case entryReplaced:
		fmt.Fprintf(stdout, "replaced the clawbridge entry in %s (the old file is kept as a backup)\n", path)
	default:
		fmt.Fprintf(stdout, "added clawbridge to %s\n", path)
	}
	fmt.Fprintf(stdout, "restart %s to load it\n", name)
	return nil
}

// mergeClientConfig sets the entry under key, keeping everything else as
// written, comments included (VS Code and Gemini CLI read JSON with
// comments and trailing commas); the previous file is kept as a timestamped
// backup and the write is atomic. When the file already holds the same
// entry it is left alone (no backup, no write).
func mergeClientConfig(path, key string, entry map[string]any) (entryState, error) {
	return mergeFile(path, func(data []byte) ([]byte, entryState, error) {
		doc := map[string]any{}
		if err := jsonc.Unmarshal(data, &doc); err != nil && len(bytes.TrimSpace(jsonc.Standard(data))) > 0 {
			return nil, entryAdded, fmt.Errorf("%s is not valid JSON (%v); fix or move it, then run install again", path, err)
		}
		servers, _ := doc[key].(map[string]any)
		if servers != nil && sameJSON(servers["clawbridge"], entry) {
			return nil, entryPresent, nil
		}
		state := entryAdded
		if _, ok := servers["clawbridge"]; ok {
			state = entryReplaced
		}
		out, err := jsonc.Set(data, []string{key, "clawbridge"}, entry)
		if err != nil {
			return nil, entryAdded, fmt.Errorf("%s: %w", path, err)
		}
		// Check the edit did what it says before writing it.
		after := map[string]any{}
		if err := jsonc.Unmarshal(out, &after); err != nil {
			return nil, entryAdded, fmt.Errorf("%s: the edit would not parse (%v); nothing written", path, err)
		}
		got, _ := after[key].(map[string]any)
		if !sameJSON(got["clawbridge"], entry) {
			return nil, entryAdded, fmt.Errorf("%s: the edit did not take; nothing written", path)
		}
		return out, state, nil
	})
}

// mergeFile reads path (missing is empty), lets edit change it and writes
// the result atomically after keeping the old file as a timestamped backup.
// edit returns nil to leave the file alone.
func mergeFile(path string, edit func([]byte) ([]byte, entryState, error)) (entryState, error) {
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return entryAdded, err
	}
	out, state, err := edit(data)
	if err != nil || out == nil {
		return state, err
	}
	if exists {
		backup := path + ".bak-" + time.Now().Format("20060102-150405")
		if err := os.WriteFile(backup, data, 0o600); err != nil {
			return entryAdded, fmt.Errorf("backup %s: %w", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return entryAdded, err
	}
	return state, atomicfile.WriteFile(path, out, 0o600)
}

type entryState int

const (
	entryAdded entryState = iota
	entryReplaced
	entryPresent
)

// sameJSON compares two values as JSON.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
