package dbquery

import (
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The connections come from the tools.db_query section of the config file.
func TestConfigSection(t *testing.T) {
	path := sqliteDB(t)
	d := tooltest.Deps(t)
	var doc struct {
		Tools map[string]yaml.Node `yaml:"tools"`
	}
	src := "tools:\n  db_query:\n    max_rows: 1\n    connections:\n      - name: shop\n        driver: sqlite\n        dsn: " + path + "\n        sensitive_tables: [secrets]\n      - name: remote\n        driver: postgres\n        dsn: postgres://reader:hunter2-secret@db.example:5432/sales\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	d.Config.Tools = doc.Tools
	tl := tooltest.Build(t, New, d)
	res := tooltest.OK(t, tl, map[string]any{"action": "connections"})
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "hunter2") || !strings.Contains(string(b), "postgres db.example:5432/sales as reader") {
		t.Fatalf("connections = %s", b)
	}
	res = tooltest.OK(t, tl, map[string]any{"action": "query", "connection": "shop", "sql": "SELECT id FROM customers ORDER BY id"})
	if r := res.Data.(map[string]any)["result"].(*resultSet); r.RowCount != 1 || !r.Truncated {
		t.Fatalf("max_rows from config not applied: %+v", r)
	}
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "query", "sql": "SELECT 1"}); err == nil || !strings.Contains(err.Error(), "name one") {
		t.Fatalf("ambiguous connection: %v", err)
	}
}

// TestConfig_SectionRefusesOutOfRange: a negative limit, a connection
// without a name or with an unknown driver is refused at start, naming the
// key and the connection, never the DSN.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"max_rows: -1", "max_rows must be at least 0, got -1"},
		{"connections:\n  - name: shop\n    driver: oracle\n    dsn: oracle://u:hunter2@h/db", `connections[0] (shop): unknown driver "oracle"`},
		{"connections:\n  - driver: sqlite\n    dsn: /tmp/x.db", "connections[0]: name is required"},
	} {
		d := tooltest.Deps(t)
		tooltest.ConfigSection(t, d, "db_query", tc.body)
		_, _ = New(d)
		if err := tooltest.SectionRefused(t, d, "db_query", tc.want); strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("the refusal shows the DSN: %v", err)
		}
	}
}
