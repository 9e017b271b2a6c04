package sqlcheck

import (
	"strings"
	"testing"
)

// Hostile are statements that must be refused, per dialect ("*" = all).
var Hostile = []struct {
	dialects string
	sql      string
}{
	{"*", "DROP TABLE orders"},
	{"*", "DELETE FROM orders"},
	{"*", "UPDATE orders SET amount = 0"},
	{"*", "INSERT INTO orders VALUES (1, 2)"},
	{"*", "WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x"},
	{"*", "WITH x AS (INSERT INTO orders VALUES (9, 9) RETURNING *) SELECT 1"},
	{"*", "WITH u AS (UPDATE orders SET amount = 1 RETURNING *) SELECT * FROM u"},
	{"*", "SELECT * INTO orders_copy FROM orders"},
	{"*", "SELECT * FROM orders FOR UPDATE"},
	{"*", "SELECT * FROM orders FOR SHARE"},
	{"*", "SELECT * FROM orders FOR NO KEY UPDATE"},
	{"*", "SELECT * FROM orders FOR KEY SHARE"},
	{"*", "SELECT pg_sleep(10)"},
	{"*", "SELECT pg_catalog.pg_sleep(10)"},
	{"postgres,sqlite", `SELECT "pg_sleep"(10)`},
	{"*", "SELECT pg_read_file('/etc/passwd')"},
	{"*", "SELECT * FROM pg_ls_dir('.')"},
	{"*", "SELECT lo_import('/etc/passwd')"},
	{"*", "COPY orders TO PROGRAM 'id'"},
	{"*", "COPY (SELECT 1) TO '/tmp/out'"},
	{"*", "SELECT 1; DROP TABLE orders"},
	{"*", "SELECT 1; SELECT 2"},
	{"*", "SELECT 1 /* ; */ ; DELETE FROM orders"},
	{"*", "SELECT 1 -- hidden\n; DELETE FROM orders"},
	{"*", "/*! DELETE FROM orders */ SELECT 1"},
	{"*", "ATTACH DATABASE '/tmp/x.db' AS x"},
	{"*", "SELECT 1 FROM orders WHERE 1 = 1; ATTACH DATABASE '/tmp/x.db' AS x"},
	{"*", "PRAGMA writable_schema = 1"},
	{"*", "SELECT load_extension('/tmp/evil.so')"},
	{"*", "SELECT * FROM dblink('host=evil', 'select 1') AS t(a int)"},
	{"*", "CREATE TABLE x (a int)"},
	{"*", "ALTER TABLE orders ADD COLUMN b int"},
	{"*", "TRUNCATE orders"},
	{"*", "GRANT ALL ON orders TO public"},
	{"*", "SET ROLE postgres"},
	{"*", "SELECT set_config('default_transaction_read_only', 'off', false)"},
	{"*", "EXPLAIN ANALYZE DELETE FROM orders"},
	{"*", "SELECT * FROM pg_shadow"},
	{"postgres", "SELECT $$ x $$ ; DELETE FROM orders"},
	{"postgres", `SELECT E'\\'; DELETE FROM orders; --'`},
	{"postgres,mysql", `SELECT 'x\'; DELETE FROM orders; --'`},
	{"*", "CALL cleanup()"},
	{"postgres", "DO $$ BEGIN DELETE FROM orders; END $$"},
	{"*", "VACUUM"},
	{"*", "REINDEX TABLE orders"},
	{"*", "LOCK TABLE orders"},
	{"*", "SELECT nextval('orders_id_seq')"},
	{"*", "SELECT id FROM orders UNION SELECT pg_read_file('/etc/passwd')"},
	{"*", "SELECT query_to_xml('delete from orders', true, true, '')"},
	{"postgres", `SELECT U&"pg_sleep"(1)`},
	{"mysql", "SELECT * FROM orders INTO OUTFILE '/tmp/x'"},
	{"mysql", "SELECT SLEEP(10)"},
	{"mysql", "SELECT LOAD_FILE('/etc/passwd')"},
	{"mysql", "SELECT 1 # comment\n; DELETE FROM orders"},
	{"mysql", "SELECT * FROM orders LOCK IN SHARE MODE"},
	{"mysql", "SELECT BENCHMARK(100000000, MD5('a'))"},
	{"*", "LOAD DATA INFILE '/etc/passwd' INTO TABLE orders"},
	{"*", "REPLACE INTO orders VALUES (1, 2)"},
	{"*", "MERGE INTO orders USING src ON (orders.id = src.id) WHEN MATCHED THEN DELETE"},
	{"*", "SELECT * FROM secrets"},
	{"*", `SELECT * FROM "Secrets"`},
	{"*", "SELECT * FROM public.secrets"},
	{"*", "SELECT * FROM orders WHERE id IN (SELECT id FROM secrets)"},
	{"*", "SELECT 'abc"},
	{"*", "SELECT 1 /* unterminated"},
	{"*", "   "},
	{"*", "SELECT 1union select 2"},
	{"*", "BEGIN; DELETE FROM orders; COMMIT"},
	{"*", "ROLLBACK"},
	{"*", "NOTIFY ch, 'x'"},
	{"*", "PREPARE p AS DELETE FROM orders"},
	{"*", "EXECUTE p"},
	{"*", "VALUES (1); DELETE FROM orders"},
	{"*", "SELECT pg_terminate_backend(1)"},
	{"*", "SELECT\u00a0pg_sleep(1)"},
}

// Allowed are read-only statements that must pass.
var Allowed = []struct {
	dialects string
	sql      string
}{
	{"*", "SELECT 1"},
	{"*", "select * from orders where note = 'DELETE FROM orders; DROP TABLE x'"},
	{"*", "WITH x AS (SELECT 1 AS a) SELECT * FROM x"},
	{"*", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT * FROM n"},
	{"*", "VALUES (1), (2)"},
	{"*", "SELECT 1;"},
	{"*", "SELECT 1; -- trailing comment"},
	{"*", "(SELECT 1) UNION (SELECT 2)"},
	{"*", "EXPLAIN SELECT * FROM orders"},
	{"postgres", "EXPLAIN (FORMAT JSON) SELECT * FROM orders"},
	{"sqlite", "EXPLAIN QUERY PLAN SELECT * FROM orders"},
	{"*", "SELECT last_update, updated_at, deleted FROM orders"},
	{"*", "SELECT replace(name, 'a', 'b') FROM customers"},
	{"postgres,sqlite", `SELECT "update", "delete" FROM weird`},
	{"*", "SELECT CASE WHEN amount > 10 THEN 'big' ELSE 'small' END FROM orders"},
	{"postgres", "SELECT * FROM orders FETCH FIRST 5 ROWS ONLY"},
	{"postgres", "SELECT $$it's$$"},
	{"*", "SELECT 'a'';DELETE FROM orders;--'"},
	{"postgres", "TABLE orders"},
	{"*", "SELECT count(*) FROM orders /* comment; with semicolon */"},
	{"postgres", "SELECT '2024-01-01'::date, amount::numeric(10,2) FROM orders"},
	{"*", "SELECT secret_count FROM stats"},
	{"*", "SELECT owner, handler, cluster, refresh, notify, rename, import FROM jobs"},
	{"*", "SELECT * FROM orders WHERE id = ?"},
	{"postgres", "SELECT * FROM orders WHERE id = $1"},
	{"mysql", "SELECT `name` FROM `customers`"},
	{"sqlite", "SELECT [name] FROM [customers]"},
	{"*", "SELECT 1 -- a comment\n"},
	{"postgres", "SELECT /* nested /* comment */ still */ 1"},
	{"*", "SELECT 客户, SUM(金额) FROM 订单 GROUP BY 客户"},
}

func dialects(spec string) []Dialect {
	if spec == "*" {
		return []Dialect{SQLite, Postgres, MySQL}
	}
	var out []Dialect
	for _, s := range strings.Split(spec, ",") {
		out = append(out, map[string]Dialect{"sqlite": SQLite, "postgres": Postgres, "mysql": MySQL}[s])
	}
	return out
}

var names = map[Dialect]string{SQLite: "sqlite", Postgres: "postgres", MySQL: "mysql"}

func TestHostileRefused(t *testing.T) {
	if len(Hostile) < 30 {
		t.Fatalf("want at least 30 hostile statements, have %d", len(Hostile))
	}
	for _, h := range Hostile {
		for _, d := range dialects(h.dialects) {
			if st, err := Check(h.sql, d, Options{Sensitive: []string{"public.secrets"}}); err == nil {
				t.Errorf("%s admitted %q as %s", names[d], h.sql, st.Kind)
			}
		}
	}
}

func TestAllowed(t *testing.T) {
	for _, a := range Allowed {
		for _, d := range dialects(a.dialects) {
			if _, err := Check(a.sql, d, Options{Sensitive: []string{"secrets"}}); err != nil {
				t.Errorf("%s refused %q: %v", names[d], a.sql, err)
			}
		}
	}
}

func TestStatementText(t *testing.T) {
	st, err := Check("  SELECT 1 ;; ", Postgres, Options{})
	if err != nil || st.SQL != "SELECT 1" || st.Kind != "select" {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := Check("EXPLAIN SELECT 1", SQLite, Options{NoExplain: true}); err == nil {
		t.Fatal("NoExplain admitted EXPLAIN")
	}
}

// FuzzCheck: whatever is admitted tokenizes without a statement separator
// or a denied word, and stays admitted when checked again.
func FuzzCheck(f *testing.F) {
	for _, h := range Hostile {
		f.Add(h.sql, uint8(0))
	}
	for _, a := range Allowed {
		f.Add(a.sql, uint8(1))
	}
	f.Fuzz(func(t *testing.T, sql string, dd uint8) {
		d := Dialect(dd % 3)
		st, err := Check(sql, d, Options{Sensitive: []string{"secrets"}})
		if err != nil {
			return
		}
		toks, err := Tokenize(st.SQL, d)
		if err != nil {
			t.Fatalf("admitted %q but its text does not tokenize: %v", sql, err)
		}
		for _, tk := range toks {
			if tk.Kind == Punct && tk.Text == ";" {
				t.Fatalf("admitted %q with a ';' inside", sql)
			}
			if tk.Kind == Word && denyWords[tk.Upper()] {
				t.Fatalf("admitted %q containing %s", sql, tk.Text)
			}
			if (tk.Kind == Word || tk.Kind == QuotedIdent) && strings.EqualFold(tk.Text, "secrets") {
				t.Fatalf("admitted %q naming a sensitive table", sql)
			}
		}
		if _, err := Check(st.SQL, d, Options{Sensitive: []string{"secrets"}}); err != nil {
			t.Fatalf("admitted %q, but not its own text %q: %v", sql, st.SQL, err)
		}
	})
}
