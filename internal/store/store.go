// Package store is clawbridge's embedded SQLite database (modernc.org/sqlite,
// pure Go, no cgo). Components own their tables and create them with Migrate;
// writes go through transactions.
//
// A process writes through one connection (DB): SQLite takes one writer at
// a time anyway, and a pool of writers only turns that into SQLITE_BUSY
// retries and a descriptor set that grows with concurrency. Reads that need
// not see an open transaction use the small Read pool (WAL lets them run
// beside the writer). Rows that need not be durable before a call goes on
// (traces) go through an Appender, which group-commits them off the call
// path. The number of connections, and so of descriptors on the file, is
// fixed: it does not grow with sessions.
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
	db        *sql.DB // the one writer connection
	read      *sql.DB // query-only readers; db itself for an in-memory store
	path      string
	mu        sync.Mutex
	done      map[string]bool
	appenders map[string]*Appender
}

// readers bounds the read pool: reads are short, and each connection holds
// descriptors on the database, its WAL and its shared-memory index.
const readers = 4

// Open opens (creating) the database in dataDir.
func Open(dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data dir: %w", err)
	}
	path := filepath.Join(dataDir, "clawbridge.db")
	// synchronous=NORMAL in WAL mode loses no committed transaction on a
	// process crash, only possibly the last ones on a power loss; busy_timeout
	// covers another process (the approve command) holding the write lock.
	common := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	db, err := openPool(common+"&_txlock=immediate", 1)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	read, err := openPool(common+"&_pragma=query_only(1)", readers)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &Store{db: db, read: read, path: path, done: map[string]bool{}, appenders: map[string]*Appender{}}, nil
}

func openPool(dsn string, conns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
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
	return &Store{db: db, read: db, path: ":memory:", done: map[string]bool{}, appenders: map[string]*Appender{}}, nil
}

// DB is the writer: one connection, so a statement waits its turn in the
// process instead of failing with SQLITE_BUSY. Do not call DB inside a Tx's
// fn (the connection is the Tx's until it ends); use the tx.
func (s *Store) DB() *sql.DB { return s.db }

// Read is the read pool, for queries outside a transaction. It sees what
// was committed before the query began.
func (s *Store) Read() *sql.DB { return s.read }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close writes out what the appenders still hold, then closes the database.
func (s *Store) Close() error {
	s.mu.Lock()
	apps := s.appenders
	s.appenders = map[string]*Appender{}
	s.mu.Unlock()
	for _, a := range apps {
		a.close()
	}
	if s.read != s.db {
		s.read.Close()
	}
	return s.db.Close()
}

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
