package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestShape_MarshalOnce: structuredContent is the tool's data marshalled
// once (an int64 past float64's precision survives, which a decode into a
// map would round), the text form is the same JSON, a long multi-line
// string still moves below it, and a truncated result carries its own
// structuredContent, not the raw bytes.
func TestShape_MarshalOnce(t *testing.T) {
	s := registryServer(t, "tiered")
	sess := s.sessions.get("shape", "shape", kindConnection)
	type stat struct {
		Path string `json:"path"`
		Size int64  `json:"size"`
	}
	out := s.shape(sess, "t1", &tool.Result{Summary: "ok", Data: stat{"a.txt", 9007199254740993}}, 10000)
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"structuredContent":{"path":"a.txt","size":9007199254740993}`) {
		t.Errorf("structuredContent not the data as marshalled: %s", raw)
	}
	if txt := textOf(t, out); txt != "ok\n"+`{"path":"a.txt","size":9007199254740993}` {
		t.Errorf("text form = %q", txt)
	}

	long := strings.Repeat("line of text\n", 40)
	out = s.shape(sess, "t2", &tool.Result{Data: map[string]any{"stdout": long, "code": 0}}, 10000)
	body := textOf(t, out)
	if !strings.Contains(body, `"stdout":"(shown below)"`) || !strings.Contains(body, "--- stdout ---\n"+long) {
		t.Errorf("long multi-line string not moved below the JSON:\n%s", body)
	}
	if !strings.Contains(string(mustJSON(t, out)), `"stdout":"line of text\n`) {
		t.Error("structuredContent lost the string")
	}

	out = s.shape(sess, "t3", &tool.Result{Summary: "big", Data: map[string]any{"text": strings.Repeat("x", 500)}}, 100)
	if out.RawStructuredContent != nil {
		t.Error("truncated result still carries the full raw structuredContent")
	}
	if sc, _ := out.StructuredContent.(map[string]any); sc["truncated"] != true {
		t.Errorf("truncated structuredContent = %v", out.StructuredContent)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func textOf(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	tc, ok := r.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("first content is %T", r.Content[0])
	}
	return tc.Text
}
