package e2e

// calendar through a real MCP client over stdio: an Outlook (Exchange)
// file imports with its Windows zone, an event is created and found by
// query and free_slots in the configured zone, a bad call names its field
// and writes nothing, and export_ics then import_ics into another calendar
// gives the same instances.

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestCalendar_ImportCreateQueryExportThroughMCP(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("exposure:\n  mode: full\ntools:\n  calendar:\n    timezone: America/Los_Angeles\n"), 0o600)
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg)
	workspaceFixture(t, e, "calendar/exchange2010_pacific.ics", "outlook.ics")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)
	call := func(args map[string]any) map[string]any {
		t.Helper()
		return callOK(t, c, "calendar", args)
	}
	starts := func(m map[string]any) []string {
		var out []string
		for _, ev := range m["events"].([]any) {
			out = append(out, ev.(map[string]any)["start"].(string))
		}
		return out
	}
	if m := call(map[string]any{"action": "import_ics", "path": "outlook.ics"}); m["added"] != float64(1) {
		t.Fatalf("import: %v", m)
	}
	call(map[string]any{"action": "create", "title": "1:1", "start": "2017-02-24T09:00", "duration_minutes": 30, "rrule": "FREQ=WEEKLY;COUNT=3"})
	day := call(map[string]any{"action": "query", "from": "2017-02-24"})
	if got, want := starts(day), []string{"2017-02-24T09:00:00-08:00", "2017-02-24T12:00:00-08:00"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("query: %v, want %v", got, want)
	}
	free := call(map[string]any{"action": "free_slots", "from": "2017-02-24", "duration_minutes": 60})["slots"].([]any)
	var slots []string
	for _, s := range free {
		m := s.(map[string]any)
		slots = append(slots, m["start"].(string)[11:16]+"-"+m["end"].(string)[11:16])
	}
	if want := []string{"09:30-12:00", "12:30-18:00"}; !reflect.DeepEqual(slots, want) {
		t.Fatalf("free slots %v, want %v", slots, want)
	}

	// A time in the DST gap.
	callRefused(t, c, "calendar", map[string]any{"action": "create", "title": "x", "start": "2017-03-12T02:30"}, "start")

	out := call(map[string]any{"action": "export_ics", "output": "mine.ics"})
	call(map[string]any{"action": "import_ics", "path": out["path"], "calendar": "copy"})
	for _, from := range []string{"2017-02-24", "2017-03-03", "2017-03-10"} {
		orig := call(map[string]any{"action": "query", "from": from, "calendars": []any{"personal"}})
		copied := call(map[string]any{"action": "query", "from": from, "calendars": []any{"copy"}})
		if !reflect.DeepEqual(starts(orig), starts(copied)) || len(starts(orig)) == 0 {
			t.Fatalf("%s: copy %v, original %v", from, starts(copied), starts(orig))
		}
	}
}
