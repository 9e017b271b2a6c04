package dbquery

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/clawbridge/clawbridge/internal/sqlcheck"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// pgDSN returns the test PostgreSQL DSN (scripts/start-postgres.sh prints
// it), skipping when absent unless CI requires it.
func pgDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("CLAWBRIDGE_TEST_PG_DSN")
	if dsn == "" {
		tooltest.Missing(t, "CLAWBRIDGE_TEST_PG_DSN not set; run eval \"$(scripts/start-postgres.sh)\"")
	}
	return dsn
}

const schemaSQL = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, since DATE);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount NUMERIC(10,2), placed TIMESTAMP, note TEXT);
CREATE TABLE secrets (id INTEGER PRIMARY KEY, api_key TEXT);
INSERT INTO customers VALUES (1, '张三', '上海', '2021-06-01'), (2, 'Li Si', 'Beijing', '2022-01-15'), (3, 'Wang', 'Shenzhen', NULL);
INSERT INTO orders VALUES (10, 1, 120.50, '2024-03-01 10:00:00', 'first'), (11, 1, 80.00, '2024-03-02 11:30:00', NULL), (12, 2, 300.25, '2024-03-05 09:15:00', 'DELETE FROM orders');
INSERT INTO secrets VALUES (1, 'sk-live-should-never-leak');
`

// sqliteDB writes a real SQLite database file.
func sqliteDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range strings.Split(schemaSQL, ";\n") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// pgDB (re)creates the fixture tables in the test database.
func pgDB(t *testing.T, dsn string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS customers, orders, secrets, orders_copy, x CASCADE; DROP SEQUENCE IF EXISTS orders_id_seq; CREATE SEQUENCE orders_id_seq"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, schemaSQL); err != nil {
		t.Fatal(err)
	}
}

type harness struct {
	t  *testing.T
	tl tool.Tool
	cs []Connection
}

func newHarness(t *testing.T, cfg Config) *harness {
	d := tooltest.Deps(t)
	tl := NewWithConfig(d, cfg)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, tl: tl, cs: cfg.Connections}
}

// run calls the tool and asserts no configured secret appears in the
// result or the error.
func (h *harness) run(args map[string]any) (map[string]any, *tool.Error) {
	h.t.Helper()
	res, err := tooltest.Run(h.t, h.tl, args)
	var blob []byte
	var te *tool.Error
	if err != nil {
		var ok bool
		if te, ok = tool.AsError(err); !ok {
			h.t.Fatalf("%v: not a tool error: %v", args, err)
		}
		blob, _ = json.Marshal(te)
	} else {
		blob, _ = json.Marshal(res)
	}
	for _, c := range h.cs {
		for _, s := range secrets(&c) {
			if strings.Contains(string(blob), s) {
				h.t.Fatalf("secret of %s leaked in %s", c.Name, blob)
			}
		}
	}
	if te != nil {
		return nil, te
	}
	var m map[string]any
	json.Unmarshal(blob, &m)
	return m["Data"].(map[string]any), nil
}

func (h *harness) ok(args map[string]any) map[string]any {
	h.t.Helper()
	d, te := h.run(args)
	if te != nil {
		h.t.Fatalf("%v: %+v", args, te)
	}
	return d
}

func resultRows(d map[string]any) string {
	return fmt.Sprint(d["result"].(map[string]any)["rows"])
}

// state fingerprints the database so refused statements can be shown to
// have changed nothing.
func state(t *testing.T, db *sql.DB) string {
	t.Helper()
	var out []string
	for _, q := range []string{"SELECT count(*) FROM orders", "SELECT coalesce(sum(amount), 0) FROM orders", "SELECT count(*) FROM customers", "SELECT count(*) FROM secrets", "SELECT max(name) FROM customers"} {
		var v any
		if err := db.QueryRow(q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, fmt.Sprint(v))
	}
	return strings.Join(out, "|")
}

func TestSQLite(t *testing.T) {
	path := sqliteDB(t)
	h := newHarness(t, Config{Connections: []Connection{{Name: "shop", Driver: "sqlite", DSN: path, SensitiveTables: []string{"secrets"}}}, MaxRows: 2})
	d := h.ok(map[string]any{"action": "connections"})
	if fmt.Sprint(d["connections"]) != "[map[driver:sqlite name:shop target:sqlite file shop.db]]" {
		t.Fatalf("connections = %v", d["connections"])
	}
	d = h.ok(map[string]any{"action": "describe"})
	if got := fmt.Sprint(d["tables"]); strings.Contains(got, "secrets") || !strings.Contains(got, "orders") {
		t.Fatalf("tables = %s", got)
	}
	d = h.ok(map[string]any{"action": "describe", "table": "customers"})
	if got := fmt.Sprint(d["columns"]); !strings.Contains(got, "examples:[张三 Li Si Wang]") || !strings.Contains(got, "name:id nullable:true primary_key:true") {
		t.Fatalf("columns = %s", got)
	}
	if _, te := h.run(map[string]any{"action": "describe", "table": "secrets"}); te == nil || !strings.Contains(te.Message, "not available") {
		t.Fatalf("sensitive describe: %+v", te)
	}
	d = h.ok(map[string]any{"action": "query", "sql": "SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name ORDER BY total DESC"})
	if got := resultRows(d); got != "[[Li Si 300.25] [张三 200.5]]" {
		t.Fatalf("rows = %s", got)
	}
	// Row cap: 3 orders, cap 2.
	d = h.ok(map[string]any{"action": "query", "sql": "SELECT id FROM orders ORDER BY id"})
	r := d["result"].(map[string]any)
	if resultRows(d) != "[[10] [11]]" || r["truncated"] != true || !strings.Contains(r["notice"].(string), "first 2 rows") {
		t.Fatalf("cap: %v", r)
	}
	d = h.ok(map[string]any{"action": "explain", "sql": "SELECT * FROM orders WHERE id = 10"})
	if !strings.Contains(d["plan"].(string), "orders") {
		t.Fatalf("plan = %v", d["plan"])
	}
	db, _ := sql.Open("sqlite", path)
	defer db.Close()
	before := state(t, db)
	for _, hs := range sqlcheck_hostile(sqlcheck.SQLite) {
		if _, te := h.run(map[string]any{"action": "query", "sql": hs}); te == nil {
			t.Errorf("admitted %q", hs)
		}
	}
	if after := state(t, db); after != before {
		t.Fatalf("database changed: %s -> %s", before, after)
	}
	// Depth: even a write that slipped past the checker fails on the
	// read-only connection.
	q := &dbq{d: tooltest.Deps(t), cfg: Config{TimeoutSeconds: 5}}
	s, err := q.open(t.Context(), &h.cs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"DELETE FROM orders", "ATTACH DATABASE '" + filepath.Join(t.TempDir(), "x.db") + "' AS x", "CREATE TABLE z (a)"} {
		if _, err := s.tx.Exec(w); err == nil {
			t.Errorf("read-only session ran %q", w)
		}
	}
	s.close()
	if after := state(t, db); after != before {
		t.Fatalf("database changed: %s -> %s", before, after)
	}
}

// sqlcheck_hostile lists the checker's hostile statements for a dialect.
func sqlcheck_hostile(d sqlcheck.Dialect) []string {
	out := []string{
		"DROP TABLE orders", "DELETE FROM orders", "UPDATE orders SET amount = 0", "INSERT INTO orders (id) VALUES (99)",
		"WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x", "WITH u AS (UPDATE orders SET amount = 1 RETURNING *) SELECT * FROM u",
		"WITH x AS (INSERT INTO orders (id) VALUES (98) RETURNING *) SELECT * FROM x",
		"SELECT * INTO orders_copy FROM orders", "SELECT * FROM orders FOR UPDATE", "SELECT * FROM orders FOR SHARE",
		"SELECT pg_sleep(10)", "SELECT pg_read_file('/etc/passwd')", "COPY orders TO PROGRAM 'id'", "COPY (SELECT 1) TO '/tmp/out'",
		"SELECT 1; DROP TABLE orders", "SELECT 1 /* ; */ ; DELETE FROM orders", "SELECT 1 -- x\n; DELETE FROM orders",
		"ATTACH DATABASE '/tmp/x.db' AS x", "PRAGMA writable_schema = 1", "SELECT load_extension('/tmp/evil')",
		"CREATE TABLE x (a int)", "ALTER TABLE orders ADD COLUMN b int", "TRUNCATE orders", "GRANT ALL ON orders TO public",
		"SET ROLE postgres", "SELECT set_config('default_transaction_read_only', 'off', false)", "EXPLAIN ANALYZE DELETE FROM orders",
		"SELECT * FROM secrets", "SELECT api_key FROM orders JOIN secrets ON true", "SELECT nextval('orders_id_seq')",
		"SELECT lo_import('/etc/passwd')", "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)", "BEGIN; DELETE FROM orders; COMMIT",
		"SELECT 'a' FROM orders; VACUUM", "REPLACE INTO orders (id) VALUES (10)",
	}
	if d == sqlcheck.Postgres {
		out = append(out, "DO $$ BEGIN DELETE FROM orders; END $$", `SELECT E'\\'; DELETE FROM orders; --'`, "SELECT $$ x $$ ; DELETE FROM orders",
			`SELECT "pg_sleep"(5)`, "SELECT query_to_xml('delete from orders', true, true, '')")
	}
	return out
}

func TestPostgres(t *testing.T) {
	dsn := pgDSN(t)
	pgDB(t, dsn)
	h := newHarness(t, Config{Connections: []Connection{{Name: "pg", Driver: "postgres", DSN: dsn, SensitiveTables: []string{"public.secrets"}}}, TimeoutSeconds: 1, MaxColumns: 3})
	d := h.ok(map[string]any{"action": "connections"})
	if got := fmt.Sprint(d["connections"]); !strings.Contains(got, "postgres 127.0.0.1:5432/clawbridge_test as clawbridge_test") {
		t.Fatalf("connections = %s", got)
	}
	d = h.ok(map[string]any{"action": "describe"})
	if got := fmt.Sprint(d["tables"]); strings.Contains(got, "secrets") || !strings.Contains(got, "map[name:orders type:table]") {
		t.Fatalf("tables = %s", got)
	}
	d = h.ok(map[string]any{"action": "describe", "table": "orders"})
	if got := fmt.Sprint(d["columns"]); !strings.Contains(got, "name:amount nullable:true type:numeric") || !strings.Contains(got, "examples:[2024-03-01T10:00:00Z") {
		t.Fatalf("columns = %s", got)
	}
	if _, te := h.run(map[string]any{"action": "describe", "table": "secrets"}); te == nil {
		t.Fatal("sensitive table described")
	}
	d = h.ok(map[string]any{"action": "query", "sql": "SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name ORDER BY total DESC"})
	if got := resultRows(d); got != "[[Li Si 300.25] [张三 200.50]]" {
		t.Fatalf("rows = %s", got)
	}
	// Row cap (default 200) and column cap (3 here).
	d = h.ok(map[string]any{"action": "query", "sql": "SELECT g, g * 2, g * 3, g * 4 FROM generate_series(1, 1000) AS g"})
	r := d["result"].(map[string]any)
	if r["row_count"] != 200.0 || r["truncated"] != true || r["columns_truncated"] != 1.0 || len(r["columns"].([]any)) != 3 {
		t.Fatalf("caps: %v", r["notice"])
	}
	d = h.ok(map[string]any{"action": "query", "sql": "SELECT 1 AS one", "limit": 5})
	if got := resultRows(d); got != "[[1]]" || d["result"].(map[string]any)["truncated"] == true {
		t.Fatalf("limit 5 on one row: rows = %s, result %v", got, d["result"])
	}
	// Statement timeout: a long computation is cancelled by the server.
	_, te := h.run(map[string]any{"action": "query", "sql": "SELECT count(*) FROM generate_series(1, 300000000)"})
	if te == nil || te.Code != tool.CodeTimeout {
		t.Fatalf("timeout: %+v", te)
	}
	d = h.ok(map[string]any{"action": "explain", "sql": "SELECT * FROM orders WHERE customer_id = 1"})
	if !strings.Contains(d["plan"].(string), "Scan") {
		t.Fatalf("plan = %v", d["plan"])
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := state(t, db)
	for _, hs := range sqlcheck_hostile(sqlcheck.Postgres) {
		if _, te := h.run(map[string]any{"action": "query", "sql": hs}); te == nil {
			t.Errorf("admitted %q", hs)
		}
	}
	// Depth: writes that slip past the checker die in the read-only
	// transaction.
	q := &dbq{d: tooltest.Deps(t), cfg: Config{TimeoutSeconds: 5}}
	for _, w := range []string{"INSERT INTO orders (id) VALUES (77)", "WITH u AS (UPDATE orders SET amount = 0 RETURNING 1) SELECT * FROM u",
		"SELECT * INTO orders_copy FROM orders", "SELECT * FROM orders FOR UPDATE", "SELECT nextval('orders_id_seq')", "SET default_transaction_read_only = off; DELETE FROM orders"} {
		s, err := q.open(t.Context(), &h.cs[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.tx.Exec(w); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("read-only transaction: %q -> %v", w, err)
		}
		s.close()
	}
	if after := state(t, db); after != before {
		t.Fatalf("database changed: %s -> %s", before, after)
	}
	// A bad DSN: the password never shows.
	bad := Connection{Name: "badpg", Driver: "postgres", DSN: strings.Replace(dsn, "127.0.0.1:5432", "127.0.0.1:1", 1)}
	h2 := newHarness(t, Config{Connections: []Connection{bad}})
	if _, te := h2.run(map[string]any{"action": "query", "sql": "SELECT 1"}); te == nil || te.Code != tool.CodeUnavailable {
		t.Fatalf("bad dsn: %+v", te)
	}
	wrongPass := Connection{Name: "wrongpw", Driver: "postgres", DSN: strings.Replace(dsn, ":"+passwordOf(t, dsn)+"@", ":not-the-password-xyz@", 1)}
	h3 := newHarness(t, Config{Connections: []Connection{wrongPass}})
	if _, te := h3.run(map[string]any{"action": "describe"}); te == nil || strings.Contains(te.Message, "not-the-password-xyz") {
		t.Fatalf("wrong password: %+v", te)
	}
}

func passwordOf(t *testing.T, dsn string) string {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Password
}

func TestRedact(t *testing.T) {
	cases := []struct{ dsn, text string }{
		{"postgres://u:s3cr3t!@h:5432/db", "failed to connect to postgres://u:s3cr3t!@h:5432/db: s3cr3t!"},
		{"host=h user=u password='p@ss w0rd' dbname=d", "password='p@ss w0rd' rejected"},
		{"u:myPass99@tcp(127.0.0.1:3306)/shop", "Access denied for u:myPass99@tcp"},
	}
	for _, c := range cases {
		conn := &Connection{Name: "x", DSN: c.dsn}
		got := redact(c.text, conn)
		for _, s := range secrets(conn) {
			if strings.Contains(got, s) {
				t.Errorf("%q -> %q still holds %q", c.text, got, s)
			}
		}
		if len(secrets(conn)) == 0 {
			t.Errorf("no secret found in %q", c.dsn)
		}
	}
}
