package dbquery

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite" // pure-Go SQLite driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/sqlcheck"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func dialect(c *Connection) (sqlcheck.Dialect, error) {
	switch strings.ToLower(c.Driver) {
	case "sqlite", "sqlite3":
		return sqlcheck.SQLite, nil
	case "postgres", "postgresql", "pg":
		return sqlcheck.Postgres, nil
	case "mysql", "mariadb":
		return sqlcheck.MySQL, nil
	}
	return 0, tool.Errorf(tool.CodeUnavailable, "driver must be sqlite, postgres or mysql", "connection %s: unknown driver %q", c.Name, c.Driver)
}

// session is one open connection with a read-only transaction running.
type session struct {
	db   *sql.DB
	conn *sql.Conn
	tx   *sql.Tx
	d    sqlcheck.Dialect
	// sqlite is the authorizer's allow-list (SQLite connections only).
	sqlite *sqliteAccess
}

func (s *session) close() {
	if s.tx != nil {
		s.tx.Rollback() // read-only: nothing to keep
	}
	if s.conn != nil {
		s.conn.Close()
	}
	s.db.Close()
}

// maxSQLiteValue caps the size of any one SQLite string or blob (16 MiB).
const maxSQLiteValue = 16 << 20

// open connects and starts a read-only transaction with a statement timeout.
func (q *dbq) open(ctx context.Context, c *Connection) (*session, error) {
	d, err := dialect(c)
	if err != nil {
		return nil, err
	}
	timeoutMS := q.cfg.TimeoutSeconds * 1000
	db, err := openDB(c, d, timeoutMS)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	s := &session{db: db, d: d}
	if s.conn, err = db.Conn(ctx); err != nil {
		s.close()
		return nil, err
	}
	switch d {
	case sqlcheck.MySQL:
		if _, err := s.conn.ExecContext(ctx, fmt.Sprintf("SET SESSION MAX_EXECUTION_TIME = %d", timeoutMS)); err != nil {
			s.close()
			return nil, err
		}
	case sqlcheck.SQLite:
		if err := s.lockSQLite(ctx, c); err != nil {
			s.close()
			return nil, err
		}
	}
	tx, err := s.conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		s.close()
		return nil, err
	}
	s.tx = tx
	if d == sqlcheck.Postgres {
		for _, set := range []string{
			fmt.Sprintf("SET LOCAL statement_timeout = %d", timeoutMS),
			fmt.Sprintf("SET LOCAL lock_timeout = %d", min(timeoutMS, 5000)),
			fmt.Sprintf("SET LOCAL idle_in_transaction_session_timeout = %d", timeoutMS*2),
		} {
			if _, err := tx.ExecContext(ctx, set); err != nil {
				s.close()
				return nil, err
			}
		}
	}
	return s, nil
}

// openDB opens the connection's database read-only where the driver can:
// a SQLite file in ro mode with query_only, a PostgreSQL session whose
// transactions default to read-only, a MySQL connection without multiple
// statements or local files.
func openDB(c *Connection, d sqlcheck.Dialect, timeoutMS int) (*sql.DB, error) {
	var db *sql.DB
	var err error
	switch d {
	case sqlcheck.SQLite:
		path := strings.TrimPrefix(c.DSN, "file:")
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		if _, err := os.Stat(path); err != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "check the dsn of this connection in the config", "connection %s: database file %s not found", c.Name, filepath.Base(path))
		}
		u := url.URL{Scheme: "file", Opaque: path}
		v := url.Values{}
		v.Set("mode", "ro")
		v.Add("_pragma", "query_only(1)")
		v.Add("_pragma", "trusted_schema(0)")
		v.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", min(timeoutMS, 5000)))
		u.RawQuery = v.Encode()
		db, err = sql.Open("sqlite", u.String())
	case sqlcheck.Postgres:
		cfg, perr := pgx.ParseConfig(c.DSN)
		if perr != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "fix the dsn of this connection in the config", "connection %s: bad PostgreSQL dsn: %s", c.Name, redact(perr.Error(), c))
		}
		// Every transaction on this connection is read-only unless changed,
		// and the explicit BEGIN READ ONLY in open says so again.
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
		cfg.RuntimeParams["statement_timeout"] = fmt.Sprint(timeoutMS)
		cfg.RuntimeParams["application_name"] = "clawbridge db_query"
		db = stdlib.OpenDB(*cfg)
	case sqlcheck.MySQL:
		cfg, merr := mysql.ParseDSN(c.DSN)
		if merr != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "fix the dsn of this connection in the config", "connection %s: bad MySQL dsn: %s", c.Name, redact(merr.Error(), c))
		}
		cfg.MultiStatements = false
		cfg.AllowAllFiles = false
		cfg.ParseTime = true
		conn, cerr := mysql.NewConnector(cfg)
		if cerr != nil {
			return nil, cerr
		}
		db = sql.OpenDB(conn)
	}
	return db, err
}

// lockSQLite limits a SQLite session: no ATTACH, no oversized values, and
// an authorizer that admits only the configured tables.
func (s *session) lockSQLite(ctx context.Context, c *Connection) error {
	var err error
	if _, err := sqlite.Limit(s.conn, sqlite3.SQLITE_LIMIT_ATTACHED, 0); err != nil {
		return err
	}
	// No value (a printf or randomblob result) larger than this.
	if _, err := sqlite.Limit(s.conn, sqlite3.SQLITE_LIMIT_LENGTH, maxSQLiteValue); err != nil {
		return err
	}
	if s.sqlite, err = loadSQLiteAccess(ctx, s.conn, c); err != nil {
		return err
	}
	return s.conn.Raw(func(dc any) error {
		ar, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("sqlite driver without authorizer support (%T)", dc)
		}
		return ar.RegisterAuthorizer(s.sqlite.authorize)
	})
}

// secrets returns the credential parts of a DSN.
func secrets(c *Connection) []string {
	var out []string
	dsn := c.DSN
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
		}
		for k, vs := range u.Query() {
			if logging.SecretName(k) {
				out = append(out, vs...)
			}
		}
	}
	for _, m := range kvSecret.FindAllStringSubmatch(dsn, -1) {
		out = append(out, strings.Trim(m[2], `'"`))
	}
	if cfg, err := mysql.ParseDSN(dsn); err == nil && cfg.Passwd != "" {
		out = append(out, cfg.Passwd)
	}
	var keep []string
	for _, s := range out {
		if len(s) >= 3 {
			keep = append(keep, s)
		}
	}
	return keep
}

var kvSecret = regexp.MustCompile(`(?i)\b(password|passwd|pwd|sslpassword)\s*=\s*('[^']*'|"[^"]*"|[^\s&;]+)`)

// redact masks a connection's secrets and any credential-looking text.
func redact(s string, c *Connection) string {
	if c != nil {
		for _, sec := range secrets(c) {
			s = strings.ReplaceAll(s, sec, "***")
		}
		if c.DSN != "" {
			s = strings.ReplaceAll(s, c.DSN, "<dsn of "+c.Name+">")
		}
	}
	s = kvSecret.ReplaceAllString(s, "$1=***")
	return logging.RedactString(s)
}

// describeTarget shows where a connection points without credentials.
func describeTarget(c Connection) string {
	switch d, _ := dialect(&c); d {
	case sqlcheck.SQLite:
		return "sqlite file " + filepath.Base(strings.TrimPrefix(strings.SplitN(c.DSN, "?", 2)[0], "file:"))
	case sqlcheck.Postgres:
		if cfg, err := pgx.ParseConfig(c.DSN); err == nil {
			return fmt.Sprintf("postgres %s:%d/%s as %s", cfg.Host, cfg.Port, cfg.Database, cfg.User)
		}
	case sqlcheck.MySQL:
		if cfg, err := mysql.ParseDSN(c.DSN); err == nil {
			return fmt.Sprintf("mysql %s/%s as %s", cfg.Addr, cfg.DBName, cfg.User)
		}
	}
	return c.Driver
}
