// Package dbquery is the db_query tool: read-only SQL against databases
// named in config (SQLite files, PostgreSQL, MySQL). Read-only holds in
// depth: one statement admitted by a tokenizer-based check (sqlcheck), run
// inside a read-only transaction with a statement timeout, on a connection
// that is itself read-only where the database allows it (SQLite mode=ro and
// query_only, PostgreSQL default_transaction_read_only), with row and
// column caps. On SQLite an authorizer allow-list (sqliteauth.go) decides
// which tables and functions a statement may touch; sensitive tables are
// refused there whatever the statement's text looks like. DSN secrets never reach results or logs.
package dbquery

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Connection is one configured database.
type Connection struct {
	Name            string   `yaml:"name"`
	Driver          string   `yaml:"driver"` // sqlite, postgres, mysql
	DSN             string   `yaml:"dsn"`
	SensitiveTables []string `yaml:"sensitive_tables"`
	MaxRows         int      `yaml:"max_rows"`
}

// Config is the tools.db_query section.
type Config struct {
	Connections    []Connection `yaml:"connections"`
	MaxRows        int          `yaml:"max_rows"`        // default 200
	MaxColumns     int          `yaml:"max_columns"`     // default 50
	TimeoutSeconds int          `yaml:"timeout_seconds"` // statement timeout, default 15
	MaxCellChars   int          `yaml:"max_cell_chars"`  // long text is cut, default 2000
}

// Validate refuses negative limits (zero means the default), connections
// without a name or with a name used twice, and unknown drivers. Messages
// name the connection, never its DSN.
func (c *Config) Validate() error {
	errs := []error{
		config.AtLeast("max_rows", c.MaxRows, 0),
		config.AtLeast("max_columns", c.MaxColumns, 0),
		config.AtLeast("timeout_seconds", c.TimeoutSeconds, 0),
		config.AtLeast("max_cell_chars", c.MaxCellChars, 0),
	}
	seen := map[string]bool{}
	for i := range c.Connections {
		conn := &c.Connections[i]
		switch {
		case conn.Name == "":
			errs = append(errs, fmt.Errorf("connections[%d]: name is required", i))
		case seen[conn.Name]:
			errs = append(errs, fmt.Errorf("connections[%d]: the name %q is used twice", i, conn.Name))
		}
		seen[conn.Name] = true
		if _, err := dialect(conn); err != nil {
			errs = append(errs, fmt.Errorf("connections[%d] (%s): unknown driver %q (sqlite, postgres or mysql)", i, conn.Name, conn.Driver))
		}
		errs = append(errs, config.AtLeast(fmt.Sprintf("connections[%d].max_rows", i), conn.MaxRows, 0))
	}
	return errors.Join(errs...)
}

type dbq struct {
	d   *tool.Deps
	cfg Config
}

// New builds db_query.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "db_query", Provision: func(d *tool.Deps, cfg Config) (tool.Tool, error) {
		return NewWithConfig(d, cfg), nil
	}}.New(d)
}

// NewWithConfig builds db_query over an explicit configuration (tests, embedding).
func NewWithConfig(d *tool.Deps, cfg Config) tool.Tool {
	return (&dbq{d: d, cfg: cfg}).tool()
}

func (q *dbq) tool() tool.Tool {
	if q.cfg.MaxRows <= 0 {
		q.cfg.MaxRows = 200
	}
	if q.cfg.MaxColumns <= 0 {
		q.cfg.MaxColumns = 50
	}
	if q.cfg.TimeoutSeconds <= 0 {
		q.cfg.TimeoutSeconds = 15
	}
	if q.cfg.MaxCellChars <= 0 {
		q.cfg.MaxCellChars = 2000
	}
	pConn := tool.Param{Name: "connection", Type: tool.String, Description: "Optional when only one."}
	pSQL := tool.Param{Name: "sql", Type: tool.String, Required: true, Description: "One read-only SELECT, WITH or VALUES."}
	pTable := tool.Param{Name: "table", Type: tool.String, Description: "schema.table allowed; omit to list tables."}
	pLimit := tool.Param{Name: "limit", Type: tool.Integer, Description: "Rows (default the maximum).", Min: tool.Ptr(1), Max: tool.Ptr(float64(q.cfg.MaxRows))}
	return tool.Tool{
		Name:        "db_query",
		Title:       "Database query (read-only SQL)",
		Description: "Runs read-only SQL against the databases configured for this server (SQLite, PostgreSQL, MySQL). Nothing is ever written.",
		Actions: []tool.Action{
			{Name: "connections", Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return q.connections(), nil }, Description: "", Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
			{Name: "describe", Handler: q.onConnection(func(ctx context.Context, conn *Connection, a tool.Args) (*tool.Result, error) {
				return q.describe(ctx, conn, a.String("table"))
			}), Description: "tables, or a table's columns", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{pConn, pTable}},
			{Name: "query", Handler: q.onConnection(func(ctx context.Context, conn *Connection, a tool.Args) (*tool.Result, error) {
				return q.query(ctx, conn, a.String("sql"), a.Int("limit", 0))
			}), Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{pConn, pSQL, pLimit}},
			{Name: "explain", Handler: q.onConnection(func(ctx context.Context, conn *Connection, a tool.Args) (*tool.Result, error) {
				return q.explain(ctx, conn, a.String("sql"))
			}), Description: "its plan, not run", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{pConn, pSQL}},
		},
		OpenWorld: true,
		Examples: []string{
			"Query the sales database for last week's orders",
			"What tables are in the analytics database?",
			"Show the top 10 customers by revenue from the orders table",
			"Explain why this SQL query is slow",
			"查一下数据库里上周的订单数量",
			"列出数据库里有哪些表和字段",
			"用 SQL 统计每个地区的销售额",
		},
	}
}

// onConnection runs an action against the connection the call names, under
// the configured timeout, and keeps every secret of it out of the error.
func (q *dbq) onConnection(run func(ctx context.Context, conn *Connection, a tool.Args) (*tool.Result, error)) tool.Handler {
	return func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		conn, err := q.connection(c.Args.String("connection"))
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(ctx, time.Duration(q.cfg.TimeoutSeconds+5)*time.Second)
		defer cancel()
		res, err := run(ctx, conn, c.Args)
		if err != nil {
			return nil, q.redacted(err, conn)
		}
		return res, nil
	}
}

// redacted turns a failure into a tool error without the connection's secrets.
func (q *dbq) redacted(err error, conn *Connection) error {
	if err == nil {
		return nil
	}
	// Whatever happened, no secret leaves in the error.
	if te, ok := tool.AsError(err); ok {
		te.Message = redact(te.Message, conn)
		te.Hint = redact(te.Hint, conn)
		return te
	}
	msg := redact(err.Error(), conn)
	q.d.Log.Warn().Str("tool", "db_query").Str("connection", conn.Name).Str("error", msg).Msg("query failed")
	return tool.Errorf(tool.CodeFailed, "check that the database is reachable", "%s: %s", conn.Name, msg)
}

func (q *dbq) connection(name string) (*Connection, error) {
	cs := q.cfg.Connections
	if len(cs) == 0 {
		return nil, tool.Errorf(tool.CodeUnavailable, "add connections under tools.db_query.connections in the config (name, driver: sqlite|postgres|mysql, dsn)", "no databases are configured")
	}
	if name == "" {
		if len(cs) == 1 {
			return &cs[0], nil
		}
		return nil, tool.Invalid("connection", "several databases are configured; name one", "connections: "+strings.Join(q.names(), ", "))
	}
	for i := range cs {
		if strings.EqualFold(cs[i].Name, name) {
			return &cs[i], nil
		}
	}
	return nil, tool.Invalid("connection", fmt.Sprintf("no connection named %q", name), "connections: "+strings.Join(q.names(), ", "))
}

func (q *dbq) names() []string {
	var out []string
	for _, c := range q.cfg.Connections {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

func (q *dbq) connections() *tool.Result {
	list := []map[string]any{}
	for _, c := range q.cfg.Connections {
		list = append(list, map[string]any{"name": c.Name, "driver": c.Driver, "target": describeTarget(c)})
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s configured", wording.Count(len(list), "database", "databases")),
		Data:    map[string]any{"connections": list, "max_rows": q.cfg.MaxRows, "read_only": true},
	}
}
