// Package store is clawbridge's embedded SQLite database (modernc.org/sqlite,
// pure Go, no cgo). Components own their tables and create them with Migrate;
// writes go through transactions.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is the shared database handle.
type Store struct {
	db   *sql.DB
	path string
	mu   sync.Mutex
	done map[string]bool
}

// Open opens (creating) the database in dataDir.
func Open(dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data dir: %w", err)
	}
	path := filepath.Join(dataDir, "clawbridge.db")
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &Store{db: db, path: path, done: map[string]bool{}}, nil
}

// OpenMemory opens a private in-memory database, for commands that must not
// create or change anything in the data dir. Nothing in it outlives Close.
func OpenMemory() (*Store, error) {
	db, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
	if err != nil {
		return nil, fmt.Errorf("store: open in memory: %w", err)
	}
	db.SetMaxOpenConns(1) // every connection would have its own empty database
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open in memory: %w", err)
	}
	return &Store{db: db, path: ":memory:", done: map[string]bool{}}, nil
}

// DB returns the database handle.
func (s *Store) DB() *sql.DB { return s.db }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Migrate runs a component's DDL statements once per process, in one
// transaction. Statements must be idempotent (CREATE ... IF NOT EXISTS).
func (s *Store) Migrate(component string, stmts ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done[component] {
		return nil
	}
	err := s.Tx(context.Background(), func(tx *sql.Tx) error {
		for _, st := range stmts {
			if _, err := tx.Exec(st); err != nil {
				return fmt.Errorf("store: migrate %s: %w", component, err)
			}
		}
		return nil
	})
	if err == nil {
		s.done[component] = true
	}
	return err
}

// Tx runs fn in a transaction, committing when it returns nil and rolling
// back when it returns an error or panics (an open transaction would keep
// the write lock and block every later write).
func (s *Store) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
