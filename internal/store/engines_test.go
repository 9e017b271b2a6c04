package store_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// TestStoreEngines_MigrateOnceAcrossInstances: two handles (two instances)
// migrating the same component at once, from several goroutines each, run
// each step once and record its version once; a newer recorded version is
// refused on both engines.
func TestStoreEngines_MigrateOnceAcrossInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := db.Open(t), db.Open(t)
		// The INSERT is not idempotent: the row count shows how often step 1 ran.
		steps := []records.Migration{
			{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS m (id BIGINT)`, `INSERT INTO m VALUES (1)`}},
			{Version: 2, Stmts: []string{`INSERT INTO m VALUES (2)`}},
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := range 8 {
			s := a
			if i%2 == 1 {
				s = b
			}
			wg.Go(func() { errs <- s.MigrateVersions("comp", steps...) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		var n, v int
		if err := a.DB().QueryRow(`SELECT count(*) FROM m`).Scan(&n); err != nil || n != 2 {
			t.Fatalf("rows %d (%v): each step must run once", n, err)
		}
		if err := b.DB().QueryRow(`SELECT version FROM schema_versions WHERE component = $1`, "comp").Scan(&v); err != nil || v != 2 {
			t.Fatalf("version %d (%v), want 2", v, err)
		}
		err := db.Open(t).MigrateVersions("comp", steps[:1]...)
		if !errors.Is(err, store.ErrSchemaNewer) {
			t.Fatalf("an older binary migrated newer tables: %v", err)
		}
	})
}

// TestStoreEngines_TxAndTrash: a transaction that fails leaves nothing; the
// trash keeps a row and gives it back once.
func TestStoreEngines_TxAndTrash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		s := db.Open(t)
		if err := s.MigrateWithTrash("kv", records.Migration{Version: 1, Stmts: []string{`CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)`}}); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		bad := errors.New("bad")
		err := s.Tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.Exec(`INSERT INTO kv (k, v) VALUES ($1, $2)`, "a", "1"); err != nil {
				return err
			}
			return bad
		})
		if !errors.Is(err, bad) {
			t.Fatal(err)
		}
		var n int
		if s.Read().QueryRow(`SELECT count(*) FROM kv`).Scan(&n); n != 0 {
			t.Fatalf("a failed transaction left %d rows", n)
		}
		err = s.Tx(ctx, func(tx *sql.Tx) error {
			return records.Trash(tx, "kv", "pair", "a", "a=1", map[string]string{"k": "a", "v": "1"})
		})
		if err != nil {
			t.Fatal(err)
		}
		items, err := db.Open(t).TrashList("kv")
		if err != nil || len(items) != 1 || items[0].Label != "a=1" {
			t.Fatalf("trash from another handle: %+v %v", items, err)
		}
		for i, want := range []error{nil, records.ErrNotInTrash} {
			err := s.Tx(ctx, func(tx *sql.Tx) error { _, err := records.Restore(tx, "kv", "a"); return err })
			if !errors.Is(err, want) {
				t.Fatalf("restore %d: %v, want %v", i, err, want)
			}
		}
	})
}

// TestStoreEngines_AppenderWrites: the group-committing appender stores
// every row on both engines.
func TestStoreEngines_AppenderWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		s := db.Open(t)
		if err := s.MigrateVersions("r", records.Migration{Version: 1, Stmts: []string{`CREATE TABLE r (session TEXT, n BIGINT)`}}); err != nil {
			t.Fatal(err)
		}
		a := s.Appender("r", `INSERT INTO r (session, n) VALUES ($1, $2)`, zerolog.Nop())
		for i := range 600 {
			a.Add("s", i)
		}
		if err := a.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.Open(t).Read().QueryRow(`SELECT count(*) FROM r`).Scan(&n); err != nil || n != 600 || a.Dropped() != 0 {
			t.Fatalf("%d rows (%v), %d dropped", n, err, a.Dropped())
		}
	})
}

// TestStoreEngines_ConditionalDeleteOnce: the pattern components use to act
// once across instances (a DELETE checked by rows affected) lets exactly one
// of 20 racers, on two handles, win.
func TestStoreEngines_ConditionalDeleteOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := db.Open(t), db.Open(t)
		if err := a.MigrateVersions("tok", records.Migration{Version: 1, Stmts: []string{`CREATE TABLE tok (id TEXT PRIMARY KEY)`}}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.DB().Exec(`INSERT INTO tok (id) VALUES ($1)`, "x"); err != nil {
			t.Fatal(err)
		}
		var won atomic.Int32
		var wg sync.WaitGroup
		for i := range 20 {
			s := a
			if i%2 == 1 {
				s = b
			}
			wg.Go(func() {
				err := s.Tx(context.Background(), func(tx *sql.Tx) error {
					res, err := tx.Exec(`DELETE FROM tok WHERE id = $1`, "x")
					if err != nil {
						return err
					}
					if n, _ := res.RowsAffected(); n == 1 {
						won.Add(1)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%d winners, want 1", won.Load())
		}
	})
}

// TestStore_PostgresMessagesHideThePassword: a failed connection names the
// server without the password, whether it came in the DSN or separately;
// an unknown driver is named.
func TestStore_PostgresMessagesHideThePassword(t *testing.T) {
	for _, c := range []store.Config{
		{Driver: store.Postgres, DSN: "postgres://u:Sekr3tPw@127.0.0.1:1/db?sslmode=disable&connect_timeout=2"},
		{Driver: store.Postgres, DSN: "postgres://u@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", Password: "Sekr3tPw"},
		{Driver: store.Postgres, DSN: "postgres://u:Sekr3tPw@[::1/db"},
	} {
		_, err := store.Open(c)
		if err == nil || strings.Contains(err.Error(), "Sekr3tPw") {
			t.Fatalf("err = %v", err)
		}
	}
	if _, err := store.Open(store.Config{Driver: "mysql"}); err == nil || !strings.Contains(err.Error(), `"mysql"`) {
		t.Fatalf("unknown driver: %v", err)
	}
	if got := store.Redact("postgres://u:pw@h/db?password=pw2"); strings.Contains(got, "pw@") || strings.Contains(got, "pw2") {
		t.Fatalf("Redact = %s", got)
	}
}
