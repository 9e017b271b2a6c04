// Package store is clawbridge's database: an embedded SQLite file
// (modernc.org/sqlite, pure Go, no cgo) by default, or PostgreSQL (pgx's
// database/sql adapter) for several instances that share state. Components
// own their tables and create them with MigrateVersions; writes go through
// transactions. SQL is written once for both engines: $n placeholders,
// ON CONFLICT upserts, BIGINT Unix times, TEXT; Dialect covers the little
// DDL that truly differs. The store does not hide concurrency between
// instances: a component that must act once across them writes a
// conditional UPDATE/DELETE and checks the rows it affected.
//
// On SQLite a process writes through one connection (DB): SQLite takes one writer at
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
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Drivers.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Config says which database to open.
type Config struct {
	Driver   string // SQLite (default) or Postgres
	DataDir  string // SQLite: the directory of clawbridge.db
	DSN      string // Postgres: postgres://user@host:port/db?sslmode=...
	Password string // Postgres: the password, kept out of the DSN and of every message
}

// Open opens the database c names: SQLite in c.DataDir, or PostgreSQL at
// c.DSN. Errors never carry the password.
func Open(c Config) (*Store, error) {
	switch c.Driver {
	case "", SQLite:
		return OpenSQLite(c.DataDir)
	case Postgres:
		return openPostgres(c.DSN, c.Password)
	}
	return nil, fmt.Errorf("store: driver must be sqlite or postgres, not %q", c.Driver)
}

// pgConns bounds the PostgreSQL pool of one instance.
const pgConns = 16

func openPostgres(dsn, password string) (*Store, error) {
	shown := Redact(dsn)
	cc, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors can quote the DSN: say only what was wrong.
		return nil, fmt.Errorf("store: store.dsn %s is not a PostgreSQL URL such as postgres://user@host:5432/db?sslmode=disable", shown)
	}
	if password != "" {
		cc.Password = password
	}
	password = cc.Password
	db := stdlib.OpenDB(*cc)
	db.SetMaxOpenConns(pgConns)
	db.SetMaxIdleConns(pgConns)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to %s: %s", shown, scrub(err.Error(), password))
	}
	return &Store{db: db, read: db, path: shown, driver: Postgres, done: map[string]bool{}, appenders: map[string]*Appender{}}, nil
}

// Redact is dsn without its password, for messages.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return "(unparsable dsn)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// scrub removes secret from msg, in case a driver quotes it.
func scrub(msg, secret string) string {
	if secret == "" {
		return msg
	}
	return strings.ReplaceAll(msg, secret, "xxxxx")
}

// Store is the shared database handle.
type Store struct {
	db        *sql.DB // SQLite: the one writer connection; PostgreSQL: the pool
	read      *sql.DB // query-only readers; db itself for an in-memory store and PostgreSQL
	path      string  // the file, or the redacted DSN
	driver    string
	mu        sync.Mutex
	done      map[string]bool
	appenders map[string]*Appender
}

// readers bounds the SQLite read pool: reads are short, and each
// connection holds descriptors on the database, its WAL and its
// shared-memory index.
const readers = 4

// OpenSQLite opens (creating) the SQLite database in dataDir.
func OpenSQLite(dataDir string) (*Store, error) {
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
	return &Store{db: db, read: read, path: path, driver: SQLite, done: map[string]bool{}, appenders: map[string]*Appender{}}, nil
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
	return &Store{db: db, read: db, path: ":memory:", driver: SQLite, done: map[string]bool{}, appenders: map[string]*Appender{}}, nil
}

// DB is the writer: one connection, so a statement waits its turn in the
// process instead of failing with SQLITE_BUSY. Do not call DB inside a Tx's
// fn (the connection is the Tx's until it ends); use the tx.
func (s *Store) DB() *sql.DB { return s.db }

// Read is the read pool, for queries outside a transaction. It sees what
// was committed before the query began.
func (s *Store) Read() *sql.DB { return s.read }

// Path is the database file, or for PostgreSQL the DSN without password.
func (s *Store) Path() string { return s.path }

// Driver is SQLite or Postgres.
func (s *Store) Driver() string { return s.driver }

// ForUpdate is the clause that locks the rows a SELECT in a transaction
// reads, until it ends: " FOR UPDATE" on PostgreSQL; empty on SQLite, whose
// write transactions hold the database's write lock from their start.
func (s *Store) ForUpdate() string {
	if s.driver == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

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
