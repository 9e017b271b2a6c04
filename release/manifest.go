package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// description is the one line both the bundle and the registry show.
const description = "Files, shell, browser, office documents, PDF, OCR, data and more as MCP tools."

// platformOf maps GOOS to the bundle format's platform names.
var platformOf = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}

// bundleManifest is an MCP bundle's manifest.json (format 0.3): a binary
// server run as `clawbridge serve` over stdio, the workspace folder and the
// confirmation policy asked of the user at install.
func bundleManifest(h home, version, goos string, tools []manifestTool) (map[string]any, error) {
	platform, ok := platformOf[goos]
	if !ok {
		return nil, fmt.Errorf("no bundle for GOOS %q", goos)
	}
	exe := "server/clawbridge"
	if goos == "windows" {
		exe += ".exe"
	}
	return map[string]any{
		"manifest_version": "0.3",
		"name":             h.name,
		"display_name":     "clawbridge",
		"version":          version,
		"description":      description,
		"long_description": "One Go binary that publishes real tools to AI agents over MCP. Every file a tool touches stays inside the workspace folder; actions that change things outside it ask first (the confirmation policy). Some tools need programs installed on the machine (Chromium, LibreOffice, Tesseract, bubblewrap): `clawbridge doctor` says which are missing and what that disables.",
		"author":           map[string]any{"name": h.owner, "url": h.url()},
		"repository":       map[string]any{"type": "git", "url": h.url()},
		"homepage":         h.url(),
		"documentation":    h.url() + "#readme",
		"license":          "MIT",
		"server": map[string]any{
			"type":        "binary",
			"entry_point": exe,
			"mcp_config": map[string]any{
				"command": "${__dirname}/" + exe,
				"args":    []string{"serve"},
				"env": map[string]string{
					"CLAWBRIDGE_WORKSPACE": "${user_config.workspace}",
					"CLAWBRIDGE_CONFIRM":   "${user_config.confirm}",
				},
			},
		},
		"tools": tools,
		"user_config": map[string]any{
			"workspace": map[string]any{
				"type":        "directory",
				"title":       "Workspace folder",
				"description": "The folder the tools read and write; nothing outside it is touched.",
				"required":    true,
				"default":     "${HOME}/clawbridge-workspace",
			},
			"confirm": map[string]any{
				"type":        "string",
				"title":       "Confirmation policy",
				"description": "How high-risk actions are confirmed: elicit (ask in the client, the default), approve (run `clawbridge approve ID`), token, auto or deny.",
				"required":    false,
				"default":     "elicit",
			},
		},
		"compatibility": map[string]any{"platforms": []string{platform}},
		"keywords":      []string{"files", "browser", "office", "pdf", "ocr", "shell"},
	}, nil
}

type manifestTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// listTools starts bin as a client would (`serve` over stdio, every tool
// listed) and returns the tools it publishes with the first line of each
// description.
func listTools(bin string) ([]manifestTool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "clawbridge-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// Defaults only: no config file of the machine's changes the list.
	if err := os.WriteFile(dir+"/empty.yaml", []byte("{}\n"), 0o600); err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"HOME="+dir,
		"CLAWBRIDGE_CONFIG="+dir+"/empty.yaml",
		"CLAWBRIDGE_WORKSPACE="+dir+"/ws",
		"CLAWBRIDGE_DATA_DIR="+dir+"/data",
		"CLAWBRIDGE_EXPOSURE=full",
	)
	c, err := client.NewStdioMCPClient(bin, env, "serve")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "clawbridge-release", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return nil, fmt.Errorf("%s serve: initialize: %w", bin, err)
	}
	var tools []manifestTool
	req := mcp.ListToolsRequest{}
	for {
		res, err := c.ListTools(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("%s serve: tools/list: %w", bin, err)
		}
		for _, t := range res.Tools {
			line, _, _ := strings.Cut(t.Description, "\n")
			tools = append(tools, manifestTool{Name: t.Name, Description: line})
		}
		if res.NextCursor == "" {
			return tools, nil
		}
		req.Params.Cursor = res.NextCursor
	}
}
