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

	"clawbridge/internal/atomicfile"
)

// clientConfig says where a client keeps its MCP servers and under which key.
type clientConfig struct {
	path func(home string) string
	key  string // "mcpServers" or VS Code's "servers"
	typ  bool   // VS Code wants "type": "stdio"
}

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
}

func cmdInstall(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usageError("install: name a client: claude-desktop, cursor or vscode")
	}
	if isHelp(args[0]) {
		return helpRequest(commandHelp["install"])
	}
	name := args[0]
	cc, ok := clients[name]
	if !ok {
		return usageError(fmt.Sprintf("install: unknown client %q (claude-desktop, cursor, vscode)", name))
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
		fmt.Fprintf(stdout, "%s: install would add this to %s (nothing written):\n%s\n", name, path, b)
		return nil
	}
	state, err := mergeClientConfig(path, cc.key, entry)
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

// mergeClientConfig adds the entry under key, keeping everything else; the
// previous file is kept as a timestamped backup and the write is atomic.
// When the file already holds the same entry it is left alone (no backup,
// no write).
func mergeClientConfig(path, key string, entry map[string]any) (entryState, error) {
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if len(data) > 0 {
			if err := json.Unmarshal(data, &doc); err != nil {
				return entryAdded, fmt.Errorf("%s is not valid JSON (%v); fix or move it, then run install again", path, err)
			}
		}
		if servers, _ := doc[key].(map[string]any); servers != nil && sameJSON(servers["clawbridge"], entry) {
			return entryPresent, nil
		}
		backup := path + ".bak-" + time.Now().Format("20060102-150405")
		if err := os.WriteFile(backup, data, 0o600); err != nil {
			return entryAdded, fmt.Errorf("backup %s: %w", path, err)
		}
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return entryAdded, err
		}
	default:
		return entryAdded, err
	}
	state := entryAdded
	servers, _ := doc[key].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	if _, ok := servers["clawbridge"]; ok {
		state = entryReplaced
	}
	servers["clawbridge"] = entry
	doc[key] = servers
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return entryAdded, err
	}
	return state, atomicfile.WriteFile(path, append(out, '\n'), 0o600)
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
