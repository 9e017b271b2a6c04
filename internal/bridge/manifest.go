package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
)

// ToolDef is one downstream tool as its server lists it; the schema is kept
// byte for byte.
type ToolDef struct {
	Name        string             `json:"name"`
	Title       string             `json:"title,omitempty"`
	Description string             `json:"description,omitempty"`
	InputSchema json.RawMessage    `json:"inputSchema"`
	Annotations mcp.ToolAnnotation `json:"annotations"`
}

// Manifest is what a server offers, as last read from it.
type Manifest struct {
	Server    string         `json:"server"`
	Fetched   time.Time      `json:"fetched"`
	Tools     []ToolDef      `json:"tools"`
	Prompts   []mcp.Prompt   `json:"prompts,omitempty"`
	Resources []mcp.Resource `json:"resources,omitempty"`
}

func toolDef(t mcp.Tool) (ToolDef, error) {
	raw, err := json.Marshal(t)
	if err != nil {
		return ToolDef{}, err
	}
	var d ToolDef
	err = json.Unmarshal(raw, &d)
	return d, err
}

// cacheDir is where manifests and pins live: <data dir>/bridge.
func cacheDir(dataDir string) string { return filepath.Join(dataDir, "bridge") }

func manifestPath(dataDir, server string) string {
	return filepath.Join(cacheDir(dataDir), server+".manifest.json")
}

// loadManifest reads the cached manifest; nil when there is none yet.
func loadManifest(dataDir, server string) (*Manifest, error) {
	data, err := os.ReadFile(manifestPath(dataDir, server))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("bridge: cached manifest of %s is unreadable (delete %s to refetch): %w", server, manifestPath(dataDir, server), err)
	}
	return &m, nil
}

func saveManifest(dataDir string, m *Manifest) error {
	if err := os.MkdirAll(cacheDir(dataDir), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(manifestPath(dataDir, m.Server), data, 0o600)
}
