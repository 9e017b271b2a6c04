package server

import (
	"encoding/json"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestAnnotations_OnlyNonDefaults: a client that reads the published
// annotations with the protocol's defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true) gets every
// tool's hints back, and nothing equal to a default is sent.
func TestAnnotations_OnlyNonDefaults(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	for i := range all {
		tl := &all[i]
		raw, err := json.Marshal(mcpTool(tl))
		if err != nil {
			t.Fatal(err)
		}
		var pub struct {
			Title       string         `json:"title"`
			Annotations map[string]any `json:"annotations"`
		}
		if err := json.Unmarshal(raw, &pub); err != nil {
			t.Fatal(err)
		}
		if pub.Title != tl.Title {
			t.Errorf("%s: title %q, want %q", tl.Name, pub.Title, tl.Title)
		}
		got := tool.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true}
		defaults := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
		for k, v := range pub.Annotations {
			b, ok := v.(bool)
			if !ok {
				t.Errorf("%s: annotation %s = %v (a title belongs in Tool.title)", tl.Name, k, v)
				continue
			}
			if b == defaults[k] {
				t.Errorf("%s: %s=%v is the protocol default and need not be sent", tl.Name, k, b)
			}
			switch k {
			case "readOnlyHint":
				got.ReadOnly = b
			case "destructiveHint":
				got.Destructive = b
			case "idempotentHint":
				got.Idempotent = b
			case "openWorldHint":
				got.OpenWorld = b
			}
		}
		want := tl.Annotations()
		if want.ReadOnly { // destructive and idempotent mean nothing for a read-only tool
			got.Destructive, got.Idempotent = want.Destructive, want.Idempotent
		}
		if got != want {
			t.Errorf("%s: a client reads %+v, the tool is %+v", tl.Name, got, want)
		}
	}
}
