// Package jsonltest reads the JSON Lines fixtures of tests and benchmarks
// (routing sets, journeys, request lists): one JSON value a line.
package jsonltest

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// Read decodes each non-blank line of the file at path into a T; a file
// that cannot be read or a line that does not decode fails tb.
func Read[T any](tb testing.TB, path string) []T {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []T
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}
