package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// binary is one binary goreleaser built into dist/ (its artifacts.json).
type binary struct {
	Path   string `json:"path"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Type   string `json:"type"`
}

// distBinaries reads the version and the binaries of a goreleaser dist dir.
func distBinaries(dist string) (string, []binary, error) {
	var meta struct {
		Version string `json:"version"`
	}
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return "", nil, err
	}
	var all, bins []binary
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &all); err != nil {
		return "", nil, err
	}
	for _, a := range all {
		if a.Type == "Binary" {
			bins = append(bins, a)
		}
	}
	if meta.Version == "" || len(bins) == 0 {
		return "", nil, fmt.Errorf("%s: no version or no binaries (run goreleaser first)", dist)
	}
	return meta.Version, bins, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
