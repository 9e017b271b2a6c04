package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenSQLite(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Migrate is a one-step MigrateVersions, for the tests' tables.
func (s *Store) Migrate(component string, stmts ...string) error {
	return s.MigrateVersions(component, Migration{Version: 1, Stmts: stmts})
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestStore_OpenCreatesPrivateDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "data")
	s := open(t, dir)
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("data dir mode %o, want 700", st.Mode().Perm())
	}
	if s.Path() != filepath.Join(dir, "clawbridge.db") {
		t.Errorf("path %s", s.Path())
	}
	var mode string
	if err := s.DB().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q %v, want wal", mode, err)
	}
	if _, err := OpenSQLite(filepath.Join(s.Path(), "x")); err == nil {
		t.Error("a data dir under a file opened")
	}
}

// TestStore_MigrateOnce: a component's statements run once per process
// (the second Migrate, even from many goroutines at once, runs nothing); a
// failed migration leaves nothing behind and is not marked done.
func TestStore_MigrateOnce(t *testing.T) {
	s := open(t, t.TempDir())
	// The INSERT is not idempotent: it shows how often the statements ran.
	stmts := []string{"CREATE TABLE IF NOT EXISTS m (id INTEGER)", "INSERT INTO m VALUES (1)"}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- s.Migrate("comp", stmts...) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Migrate("comp", stmts...); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "m"); n != 1 {
		t.Fatalf("migration ran %d times", n)
	}
	// Another component runs its own statements.
	if err := s.Migrate("other", "INSERT INTO m VALUES (2)"); err != nil || count(t, s, "m") != 2 {
		t.Fatalf("second component: %v, %d rows", err, count(t, s, "m"))
	}

	// A failing statement rolls back the ones before it...
	err := s.Migrate("broken", "CREATE TABLE b (id INTEGER)", "INSERT INTO nosuch VALUES (1)")
	if err == nil {
		t.Fatal("a failing migration succeeded")
	}
	var name string
	if err := s.DB().QueryRow("SELECT name FROM sqlite_master WHERE name = 'b'").Scan(&name); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("table of a failed migration exists: %q %v", name, err)
	}
	// ...and is retried on the next call.
	if err := s.Migrate("broken", "CREATE TABLE b (id INTEGER)"); err != nil {
		t.Fatalf("retry after a failed migration: %v", err)
	}
	count(t, s, "b")
}

// TestStore_TxRollsBackOnError: what fn wrote is undone when it returns an
// error or panics, and the store stays usable for writes afterwards.
func TestStore_TxRollsBackOnError(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.Migrate("t", "CREATE TABLE IF NOT EXISTS t (v TEXT)"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	errBad := errors.New("bad input")
	err := s.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec("INSERT INTO t VALUES ('error')"); err != nil {
			return err
		}
		return errBad
	})
	if !errors.Is(err, errBad) {
		t.Fatalf("Tx returned %v, want fn's error", err)
	}
	if n := count(t, s, "t"); n != 0 {
		t.Fatalf("%d rows after a failed Tx", n)
	}

	func() {
		defer func() { recover() }()
		s.Tx(ctx, func(tx *sql.Tx) error {
			tx.Exec("INSERT INTO t VALUES ('panic')")
			panic("bug in fn")
		})
	}()
	if n := count(t, s, "t"); n != 0 {
		t.Fatalf("%d rows after a Tx that panicked", n)
	}
	// A transaction left open would hold the write lock: this would wait
	// for busy_timeout and fail.
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := s.Tx(wctx, func(tx *sql.Tx) error { _, err := tx.Exec("INSERT INTO t VALUES ('ok')"); return err }); err != nil {
		t.Fatalf("write after a panicking Tx: %v", err)
	}
	if n := count(t, s, "t"); n != 1 {
		t.Fatalf("%d rows, want the one committed", n)
	}
}

// TestStore_ConcurrentWriters: read-modify-write transactions from many
// goroutines and from a second handle on the same file (a second process)
// neither fail with "database is locked" nor lose an update.
func TestStore_ConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	b := open(t, dir)
	if err := a.Migrate("c", "CREATE TABLE IF NOT EXISTS c (n INTEGER)", "INSERT INTO c SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM c)"); err != nil {
		t.Fatal(err)
	}
	const workers, each = 6, 20
	var wg sync.WaitGroup
	for w := range workers {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for i := range each {
				err := s.Tx(context.Background(), func(tx *sql.Tx) error {
					var n int
					if err := tx.QueryRow("SELECT n FROM c").Scan(&n); err != nil {
						return err
					}
					_, err := tx.Exec("UPDATE c SET n = ?", n+1)
					return err
				})
				if err != nil {
					t.Errorf("worker %d write %d: %v", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	var n int
	if err := b.DB().QueryRow("SELECT n FROM c").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != workers*each {
		t.Fatalf("counter %d, want %d: updates lost", n, workers*each)
	}
}
