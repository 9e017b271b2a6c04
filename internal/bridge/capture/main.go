// Command capture records the manifests of real, third-party MCP servers as
// fixtures: fixtures/bridge/manifests/<name>.manifest.json in the bridge's
// own Manifest format, and SOURCES.md naming each package, version, licence,
// date and command.
//
//	go run ./internal/bridge/capture            # every server
//	go run ./internal/bridge/capture github     # some of them
//
// Each server is started through the bridge's Manager (mcp-go's stdio
// client, the scrubbed environment plus dummy tokens), asked for its tools,
// prompts and resources, and stopped. Listing needs no network and no real
// credentials; the packages that are not part of `make deps` are installed
// from npm into .cache/mcp-manifests on first use. The manifests feed
// routing tests and benchmarks over a large aggregated catalog; the
// servers are not run by `make test`.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
)

// source is one server to capture.
type source struct {
	name    string            // the bridge server name, prefix of <name>__<tool>
	pkg     string            // npm package
	version string            // pinned version
	cache   string            // install prefix under the repo
	args    []string          // after the entry script; "$TMP" is a temp dir
	env     map[string]string // dummy credentials the server wants present
}

// sources: the three servers `make deps` installs, then listing-only ones.
var sources = []source{
	{name: "everything", pkg: "@modelcontextprotocol/server-everything", version: "2026.8.31", cache: ".cache/mcp-servers", args: []string{"stdio"}},
	{name: "filesystem", pkg: "@modelcontextprotocol/server-filesystem", version: "2026.8.31", cache: ".cache/mcp-servers", args: []string{"$TMP"}},
	{name: "memory", pkg: "@modelcontextprotocol/server-memory", version: "2026.8.31", cache: ".cache/mcp-servers", env: map[string]string{"MEMORY_FILE_PATH": "$TMP/memory.jsonl"}},
	{name: "github", pkg: "@modelcontextprotocol/server-github", version: "2025.4.8", cache: ".cache/mcp-manifests", env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "dummy-not-a-token"}},
	{name: "gitlab", pkg: "@modelcontextprotocol/server-gitlab", version: "2025.4.25", cache: ".cache/mcp-manifests", env: map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy-not-a-token"}},
	{name: "slack", pkg: "@modelcontextprotocol/server-slack", version: "2025.4.25", cache: ".cache/mcp-manifests", env: map[string]string{"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T00000000"}},
	{name: "notion", pkg: "@notionhq/notion-mcp-server", version: "2.5.2", cache: ".cache/mcp-manifests", env: map[string]string{"NOTION_TOKEN": "ntn_dummy"}},
	{name: "playwright", pkg: "@playwright/mcp", version: "0.0.83", cache: ".cache/mcp-manifests", args: []string{"--headless"}},
}

const outDir = "fixtures/bridge/manifests"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
}

func run(only []string) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run it from the repository root")
	}
	tmp, err := os.MkdirTemp("", "capture-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, s := range sources {
		if len(only) > 0 && !slices.Contains(only, s.name) {
			continue
		}
		n, err := capture(s, tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Fprintf(os.Stderr, "capture: %s %s@%s: %d tools\n", s.name, s.pkg, s.version, n)
	}
	return writeSources()
}

// capture starts one server through a Manager, which caches its manifest in
// a scratch data dir, and copies that file into the fixtures.
func capture(s source, tmp string) (int, error) {
	entry, err := install(s)
	if err != nil {
		return 0, err
	}
	expand := func(v string) string { return strings.ReplaceAll(v, "$TMP", tmp) }
	cfg := config.BridgeServer{Name: s.name, Command: "node", Args: []string{entry}, Env: map[string]string{}, Cwd: tmp}
	for _, a := range s.args {
		cfg.Args = append(cfg.Args, expand(a))
	}
	for k, v := range s.env {
		cfg.Env[k] = expand(v)
	}
	b := config.Bridge{Servers: []config.BridgeServer{cfg}, StartTimeout: time.Minute, CallTimeout: time.Minute, IdleStop: time.Hour}
	if err := b.Validate(); err != nil {
		return 0, err
	}
	guard, err := netguard.New(nil)
	if err != nil {
		return 0, err
	}
	data := filepath.Join(tmp, "data-"+s.name)
	m, err := bridge.New(bridge.Options{Config: b, DataDir: data, Guard: guard, Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel)})
	if err != nil {
		return 0, err
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tools, err := m.Tools(ctx, s.name)
	if err != nil {
		return 0, err
	}
	raw, err := os.ReadFile(filepath.Join(data, "bridge", s.name+".manifest.json"))
	if err != nil {
		return 0, err
	}
	return len(tools), os.WriteFile(filepath.Join(outDir, s.name+".manifest.json"), append(raw, '\n'), 0o644)
}

// install returns the package's entry script, installing the pinned
// version into its cache prefix when it is not there.
func install(s source) (string, error) {
	dir := filepath.Join(s.cache, "node_modules", s.pkg)
	p, err := readPackage(dir)
	if err != nil || p.Version != s.version {
		cmd := exec.Command("npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", s.cache, s.pkg+"@"+s.version)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("npm install %s@%s: %w", s.pkg, s.version, err)
		}
		if p, err = readPackage(dir); err != nil {
			return "", err
		}
	}
	if p.Version != s.version {
		return "", fmt.Errorf("%s is at %s, want %s", s.pkg, p.Version, s.version)
	}
	for _, bin := range p.Bin {
		return filepath.Abs(filepath.Join(dir, bin))
	}
	return "", fmt.Errorf("%s names no bin entry", s.pkg)
}

type pkgJSON struct {
	Version string            `json:"version"`
	License string            `json:"license"`
	Bin     map[string]string `json:"bin"`
}

func readPackage(dir string) (pkgJSON, error) {
	var p pkgJSON
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err == nil {
		err = json.Unmarshal(raw, &p)
	}
	return p, err
}

// writeSources writes SOURCES.md from the manifests on disk, so it always
// lists what is committed.
func writeSources() error {
	var b strings.Builder
	b.WriteString("# Manifests of real MCP servers\n\n" +
		"Captured by `go run ./internal/bridge/capture` (internal/bridge/capture/main.go): each server\n" +
		"started over stdio through the bridge's Manager with mcp-go's client, its `tools/list`,\n" +
		"`prompts/list` and `resources/list` saved in the bridge's Manifest format\n" +
		"(internal/bridge/manifest.go). No network and no real credentials: where a server wants a\n" +
		"token, a dummy value is set. None of these projects was written here.\n\n" +
		"| name | package | version | licence | tools | prompts | resources | captured | command |\n" +
		"|---|---|---|---|---|---|---|---|---|\n")
	total := 0
	for _, s := range sources {
		raw, err := os.ReadFile(filepath.Join(outDir, s.name+".manifest.json"))
		if err != nil {
			continue
		}
		var m bridge.Manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		p, _ := readPackage(filepath.Join(s.cache, "node_modules", s.pkg))
		lic := p.License
		if lic == "" || strings.HasPrefix(lic, "SEE LICENSE") {
			lic = "MIT (its README's License section; package.json: \"" + p.License + "\")"
		}
		var cmd []string
		for _, k := range sortedKeys(s.env) {
			cmd = append(cmd, k+"="+s.env[k])
		}
		cmd = append(cmd, "node", "<"+s.pkg+" bin>")
		cmd = append(cmd, s.args...)
		total += len(m.Tools)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %s | `%s` |\n", s.name, s.pkg, s.version, lic,
			len(m.Tools), len(m.Prompts), len(m.Resources), m.Fetched.Format("2006-01-02"), strings.Join(cmd, " "))
	}
	fmt.Fprintf(&b, "\n%d downstream tools in all. `$TMP` is a scratch directory. The first three are the\n"+
		"servers `make deps` installs (scripts/install-mcp-servers.sh); the others are installed only\n"+
		"by the capture program, into .cache/mcp-manifests.\n", total)
	return os.WriteFile(filepath.Join(outDir, "SOURCES.md"), []byte(b.String()), 0o644)
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
