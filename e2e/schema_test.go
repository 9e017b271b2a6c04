package e2e

// What a model reads of a tool over the wire says which action takes which
// parameter, and a call that follows it goes through: the issue's own case,
// finance summary with month (a budget parameter), is refused with
// summary's own fields; the same call as the tag says runs, also with a
// field the client adds (Gemini CLI's wait_for_previous).

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestSchema_ActionTagsOverTheWire(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=full")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)
	finance, ok := listTools(t, c)["finance"]
	if !ok {
		t.Fatal("finance not listed")
	}
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	raw, _ := json.Marshal(finance.InputSchema)
	if finance.RawInputSchema != nil {
		raw = finance.RawInputSchema
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	if d := schema.Properties["month"].Description; !strings.HasPrefix(d, "[for budget_set, budget_check]") {
		t.Fatalf("month: %q does not start with its actions", d)
	}
	if d := schema.Properties["from"].Description; !strings.HasPrefix(d, "[for ") || !strings.Contains(strings.SplitN(d, "]", 2)[0], "summary") {
		t.Fatalf("from: %q does not name summary", d)
	}

	r := callTool(t, c, "finance", map[string]any{"action": "summary", "month": "2026-11"})
	if !r.IsError || !strings.Contains(text(r), "not for finance action 'summary'") || !strings.Contains(text(r), "accepted fields: from, to, account") {
		t.Fatalf("summary with month: %s", text(r))
	}
	r = callTool(t, c, "finance", map[string]any{"action": "summary", "from": "2026-11", "wait_for_previous": true})
	if r.IsError || !strings.Contains(text(r), "wait_for_previous") {
		t.Fatalf("summary as the tags say: %s", text(r))
	}
}
