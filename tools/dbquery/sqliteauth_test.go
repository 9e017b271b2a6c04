package dbquery

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// sqliteEscapeHarness is the shop database with "secrets" sensitive, plus a
// view over it and an FTS index, so that the routes around the allow-list
// have something to find.
func sqliteEscapeHarness(t *testing.T) (*harness, string) {
	t.Helper()
	path := sqliteDB(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE users (id INTEGER PRIMARY KEY, login TEXT, password_hash TEXT)",
		"INSERT INTO users VALUES (1, 'root', 'hash-should-never-leak')",
		"CREATE VIEW leak AS SELECT api_key FROM secrets",
		"CREATE VIRTUAL TABLE notes USING fts5(body)",
		"INSERT INTO notes VALUES ('quarterly numbers look good')",
		"CREATE VIRTUAL TABLE vault USING fts5(body)",
		"INSERT INTO vault VALUES ('vault-text-should-never-leak')",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	return newHarness(t, Config{Connections: []Connection{{Name: "shop", Driver: "sqlite", DSN: path, SensitiveTables: []string{"secrets", "users", "vault"}}}}), path
}

// TestSQLiteAuthorizer_RefusesSchemaAndPageRoutes: every route to a
// sensitive table's rows or columns that went around a name check —
// page dumps, storage statistics, pragma table-valued functions with
// computed names, the schema tables, the temp schema, ATTACH and
// extensions — is refused by the authorizer, and nothing leaks.
func TestSQLiteAuthorizer_RefusesSchemaAndPageRoutes(t *testing.T) {
	h, _ := sqliteEscapeHarness(t)
	refused := []string{
		"SELECT data FROM sqlite_dbpage",
		"SELECT count(*) FROM sqlite_dbpage",
		"SELECT * FROM sqlite_dbpage('main')",
		"SELECT name, path, pgsize FROM dbstat",
		"SELECT count(*) FROM dbstat",
		"SELECT * FROM pragma_table_info('us'||'ers')",
		"SELECT * FROM pragma_table_info('orders')",
		"SELECT * FROM pragma_table_xinfo(char(117,115,101,114,115))",
		"SELECT * FROM pragma_index_list('users')",
		"SELECT * FROM pragma_table_list",
		"SELECT * FROM pragma_database_list",
		"SELECT * FROM pragma_function_list",
		"SELECT * FROM pragma_compile_options",
		"SELECT name FROM pragma_module_list",
		"SELECT sql FROM sqlite_master",
		"SELECT sql FROM sqlite_schema WHERE name = 'us' || 'ers'",
		"SELECT count(*) FROM sqlite_schema",
		"SELECT sql FROM main.sqlite_master",
		"SELECT * FROM temp.sqlite_master",
		"SELECT * FROM sqlite_temp_master",
		"SELECT * FROM temp.sqlite_schema",
		"SELECT * FROM sqlite_sequence",
		"SELECT * FROM sqlite_stat1",
		"SELECT * FROM secrets",
		"SELECT count(*) FROM users",
		"SELECT * FROM \"USERS\"",
		"SELECT * FROM main.users",
		"SELECT * FROM leak",
		"SELECT * FROM vault",
		"SELECT * FROM vault_content",
		"SELECT block FROM vault_data",
		"WITH x AS (SELECT * FROM users) SELECT * FROM x",
		"SELECT (SELECT password_hash FROM users)",
		"SELECT * FROM orders WHERE id IN (SELECT id FROM users)",
		"ATTACH DATABASE '" + filepath.Join(t.TempDir(), "x.db") + "' AS x",
		"SELECT load_extension('/tmp/evil.so')",
		"SELECT sqlite_version()",
		"SELECT sqlite_compileoption_used('ENABLE_DBPAGE_VTAB')",
		"SELECT fts5_source_id()",
		"SELECT zeroblob(1000000000)",
		"SELECT * FROM generate_series(1, 3)",
		"SELECT * FROM fts5vocab",
		"SELECT highlight(vault, 0, '[', ']') FROM vault",
	}
	for _, q := range refused {
		_, te := h.run(map[string]any{"action": "query", "sql": q})
		if te == nil {
			t.Errorf("admitted %q", q)
			continue
		}
		if te.Code == "" || te.Hint == "" {
			t.Errorf("%q: error without code or hint: %+v", q, te)
		}
		if blob := fmt.Sprintf("%+v", te); strings.Contains(blob, "never-leak") || strings.Contains(blob, "password_hash") {
			t.Errorf("%q leaked: %s", q, blob)
		}
	}
	// Explain compiles the statement too: the same refusals hold.
	for _, q := range []string{"SELECT data FROM sqlite_dbpage", "SELECT * FROM pragma_table_info('us'||'ers')", "SELECT sql FROM sqlite_schema"} {
		if _, te := h.run(map[string]any{"action": "explain", "sql": q}); te == nil {
			t.Errorf("explain admitted %q", q)
		}
	}
}

// TestSQLiteAuthorizer_OrdinaryQueriesWork: the allow-list keeps the
// queries db_query is for — joins, aggregates, windows, CTEs, JSON, dates,
// math, FTS over a readable index — and describe.
func TestSQLiteAuthorizer_OrdinaryQueriesWork(t *testing.T) {
	h, _ := sqliteEscapeHarness(t)
	cases := map[string]string{
		"SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name ORDER BY total DESC": "[[Li Si 300.25] [张三 200.5]]",
		"SELECT count(*) FROM orders":                                                                               "[[3]]",
		"SELECT id, rank() OVER (ORDER BY amount DESC) FROM orders ORDER BY id":                                     "[[10 2] [11 3] [12 1]]",
		"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT group_concat(x) FROM n": "[[1,2,3]]",
		"SELECT value FROM json_each('[1,2]') ORDER BY value":                                                       "[[1] [2]]",
		"SELECT json_extract('{\"a\":5}', '$.a'), '{\"b\":6}' ->> 'b'":                                              "[[5 6]]",
		"SELECT strftime('%Y', placed), upper(substr(note, 1, 3)) FROM orders WHERE id = 10":                        "[[2024 FIR]]",
		"SELECT round(sqrt(16) + abs(-1.5), 1), coalesce(NULL, 'x'), typeof(1)":                                     "[[5.5 x integer]]",
		"SELECT body FROM notes WHERE notes MATCH 'quarterly'":                                                      "[[quarterly numbers look good]]",
		"SELECT id FROM orders WHERE note LIKE 'fir%' AND placed > date('2024-01-01')":                              "[[10]]",
		"SELECT count(*) FROM (SELECT id FROM customers UNION SELECT id FROM orders)":                               "[[6]]",
	}
	for q, want := range cases {
		d, te := h.run(map[string]any{"action": "query", "sql": q})
		if te != nil {
			t.Errorf("%q refused: %+v", q, te)
			continue
		}
		if got := resultRows(d); got != want {
			t.Errorf("%q = %s, want %s", q, got, want)
		}
	}
	d := h.ok(map[string]any{"action": "describe"})
	got := fmt.Sprint(d["tables"])
	for _, hidden := range []string{"secrets", "users", "vault", "sqlite_"} {
		if strings.Contains(got, hidden) {
			t.Errorf("describe lists %s: %s", hidden, got)
		}
	}
	if !strings.Contains(got, "orders") || !strings.Contains(got, "notes") {
		t.Errorf("tables = %s", got)
	}
	d = h.ok(map[string]any{"action": "describe", "table": "orders"})
	if cols := fmt.Sprint(d["columns"]); !strings.Contains(cols, "name:amount") || !strings.Contains(cols, "primary_key:true") {
		t.Errorf("columns = %s", cols)
	}
	for _, tb := range []string{"users", "USERS", "sqlite_master", "vault_content"} {
		if _, te := h.run(map[string]any{"action": "describe", "table": tb}); te == nil {
			t.Errorf("describe %s answered", tb)
		}
	}
}
