package exposure

import (
	"strings"
	"testing"
)

// TestStartup_TextsDoNotTouchSharedTables: the text overlay copies only the
// catalog; the embedded tables every router shares keep their own texts.
func TestStartup_TextsDoNotTouchSharedTables(t *testing.T) {
	shared := sharedDefaultTables()
	name := shared.Catalog[0].Name
	before, _ := shared.Tool(name)
	r, err := NewRouter(Config{Texts: []ToolText{{Name: name, Description: "overlaid", Examples: []string{"ex"}}}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Tables().Tool(name)
	if got.Description != "overlaid" || len(got.Examples) != 1 || got.Examples[0] != "ex" {
		t.Fatalf("router's catalog entry = %+v, want the overlaid text", got)
	}
	after, _ := shared.Tool(name)
	if after.Description != before.Description || len(after.Examples) != len(before.Examples) {
		t.Fatalf("shared embedded entry changed: %+v -> %+v", before, after)
	}
}

// TestStartup_CallerTablesStillValidated: skipping the re-check applies only
// to the embedded tables; tables a caller passes are validated, with or
// without texts.
func TestStartup_CallerTablesStillValidated(t *testing.T) {
	for _, withTexts := range []bool{false, true} {
		tb := DefaultTables()
		tb.Core = append(tb.Core, "no_such_tool")
		cfg := Config{Tables: tb}
		if withTexts {
			cfg.Texts = []ToolText{{Name: tb.Catalog[0].Name, Description: "d"}}
		}
		_, err := NewRouter(cfg)
		if err == nil || !strings.Contains(err.Error(), "no_such_tool") {
			t.Fatalf("texts=%v: err = %v, want the unknown core tool named", withTexts, err)
		}
	}
}
