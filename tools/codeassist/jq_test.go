package codeassist

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Programs that overflow the goroutine stack (a fatal error in process),
// take gigabytes or recurse without end each get a clear tool error naming
// the limit, and the next query works: the server is never at risk.
func TestJSON_JQHostileProgramsHitLimits(t *testing.T) {
	tl, _ := setup(t)
	for _, q := range []string{
		`setpath([limit(3000000; repeat("a"))]; 1)`,
		`"x" * 1e9`,
		`def f: [f]; f`,
		`[range(1e9)]`,
	} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "json", "text": "null", "query": q})
		te := tooltest.ToolError(t, err, tool.CodeTooLarge)
		if te.Field != "query" || !strings.Contains(te.Message, "exceeded the") || !strings.Contains(te.Message, "limit") {
			t.Errorf("%s: %+v", q, te)
		}
		t.Logf("%s: %s", q, te.Message)
		m := run(t, tl, map[string]any{"action": "json", "text": `{"a": 1}`, "query": ".a"})
		if raw, _ := json.Marshal(m["results"]); string(raw) != "[1]" {
			t.Errorf("after %s: .a = %s", q, raw)
		}
	}
}

// The worker gets none of the server's environment, whatever the query.
func TestJSON_JQSeesNoEnvironment(t *testing.T) {
	tl, _ := setup(t)
	t.Setenv("CODEASSIST_TEST_SECRET", "hunter2")
	for _, q := range []string{"$ENV", "env", "$ENV.PATH", `$__prog_args`, "[$ENV[]]"} {
		res, err := tooltest.Run(t, tl, map[string]any{"action": "json", "text": "{}", "query": q})
		if err != nil {
			tooltest.ToolError(t, err, tool.CodeInvalid)
			continue
		}
		raw, _ := json.Marshal(res.Data)
		if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), jqWorkerEnv) || strings.Contains(string(raw), "/usr/bin") {
			t.Errorf("%s showed an environment: %s", q, raw)
		}
	}
}

// BenchmarkJQ measures the cost of one query in process (as before the
// worker) and through the worker in the jail.
func BenchmarkJQ(b *testing.B) {
	doc := `{"items":[{"name":"a","price":5},{"name":"b","price":15}]}`
	b.Run("in-process", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := evalJQ(b.Context(), ".items[] | .name", doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("worker", func(b *testing.B) {
		tl, _ := setup(b)
		for b.Loop() {
			if _, err := tooltest.Run(b, tl, map[string]any{"action": "json", "text": doc, "query": ".items[] | .name"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
