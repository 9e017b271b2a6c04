// Package storetest runs a test on each store engine: SQLite in a
// temporary directory, and PostgreSQL in a fresh schema of the database
// CLAWBRIDGE_TEST_PG_DSN names (scripts/start-postgres.sh prints it). Without
// that variable the PostgreSQL run is skipped, or fails under
// CLAWBRIDGE_REQUIRE_PROGRAMS=1.
package storetest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/clawbridge/clawbridge/internal/store"
)

// DB is one empty database for a test. Every Open is another handle on it,
// as another instance of clawbridge would have.
type DB struct {
	Engine string // store.SQLite or store.Postgres
	cfg    store.Config
}

// Config is what store.Open needs to reach the database.
func (d *DB) Config() store.Config { return d.cfg }

// Open opens a new handle, closed when the test ends.
func (d *DB) Open(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(d.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Each runs f as a subtest per engine, each on its own empty database.
func Each(t *testing.T, f func(t *testing.T, db *DB)) {
	t.Run(store.SQLite, func(t *testing.T) { f(t, SQLite(t)) })
	t.Run(store.Postgres, func(t *testing.T) { f(t, Postgres(t)) })
}

// SQLite is a database in t's temporary directory.
func SQLite(t testing.TB) *DB {
	return &DB{Engine: store.SQLite, cfg: store.Config{Driver: store.SQLite, DataDir: t.TempDir()}}
}

// DSNVar holds the test PostgreSQL's URL.
const DSNVar = "CLAWBRIDGE_TEST_PG_DSN"

// Postgres is a fresh schema in the test PostgreSQL, dropped when the test
// ends; the test is skipped without one (failed when programs are required).
func Postgres(t testing.TB) *DB {
	t.Helper()
	dsn := os.Getenv(DSNVar)
	if dsn == "" {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
			t.Fatalf("%s is not set: run eval \"$(scripts/start-postgres.sh)\"", DSNVar)
		}
		t.Skipf("%s is not set (eval \"$(scripts/start-postgres.sh)\" sets it)", DSNVar)
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var b [6]byte
	rand.Read(b[:])
	schema := "cbtest_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema in %s: %v", store.Redact(dsn), err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer db.Close()
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return &DB{Engine: store.Postgres, cfg: store.Config{Driver: store.Postgres, DSN: u.String()}}
}
