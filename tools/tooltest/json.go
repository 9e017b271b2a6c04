package tooltest

import (
	"encoding/json"
	"testing"
)

// JSONMap is a result's data as the model reads it: marshalled to JSON and
// read back as plain maps, slices, strings, numbers and booleans.
func JSONMap(tb testing.TB, v any) map[string]any {
	tb.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}
