package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// registrySchema is the MCP Registry server.json format this file follows.
const registrySchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// serverJSON is the MCP Registry's entry: one mcpb package per bundle (its
// release URL and SHA-256; the bundle runs `serve` over stdio) and the
// streamable-HTTP endpoint a `clawbridge serve --http` answers on.
func serverJSON(h home, version string, bundles []string) (map[string]any, error) {
	var packages []map[string]any
	for _, b := range bundles {
		sum, err := fileSHA256(b)
		if err != nil {
			return nil, err
		}
		packages = append(packages, map[string]any{
			"registryType": "mcpb",
			"identifier":   h.releaseURL(version, filepath.Base(b)),
			"version":      version,
			"fileSha256":   sum,
			"transport":    map[string]string{"type": "stdio"},
		})
	}
	return map[string]any{
		"$schema":     registrySchema,
		"name":        h.registryName(),
		"title":       "clawbridge",
		"description": description,
		"version":     version,
		"websiteUrl":  h.url(),
		"repository":  map[string]string{"url": h.url(), "source": "github"},
		"packages":    packages,
		"remotes": []map[string]any{{
			"type": "streamable-http",
			"url":  "http://{address}/mcp",
			"variables": map[string]any{
				"address": map[string]any{
					"description": "host:port of a running `clawbridge serve --http ADDR`",
					"default":     "127.0.0.1:8765",
					"isRequired":  true,
				},
			},
		}},
	}, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
