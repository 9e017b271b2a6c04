package dbquery

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/clawbridge/clawbridge/internal/sqlcheck"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// check admits the statement for a connection, in the connection's dialect.
func check(c *Connection, q string, noExplain bool) (*sqlcheck.Statement, sqlcheck.Dialect, error) {
	d, err := dialect(c)
	if err != nil {
		return nil, d, err
	}
	st, err := sqlcheck.Check(q, d, sqlcheck.Options{Sensitive: c.SensitiveTables, NoExplain: noExplain})
	if err != nil {
		return nil, d, tool.Invalid("sql", "query refused: "+err.Error(), "db_query runs one read-only SELECT/WITH/VALUES statement; describe lists the tables you can use")
	}
	return st, d, nil
}

// resultSet is what a query returns to the model.
type resultSet struct {
	Columns          []string `json:"columns"`
	Rows             [][]any  `json:"rows"`
	RowCount         int      `json:"row_count"`
	Truncated        bool     `json:"truncated"`
	ColumnsTruncated int      `json:"columns_truncated,omitempty"`
	Notice           string   `json:"notice,omitempty"`
}

// fetch runs a statement in the session and keeps up to maxRows rows and
// the configured number of columns.
func (q *dbq) fetch(ctx context.Context, s *session, c *Connection, stmt string, maxRows int, args ...any) (*resultSet, error) {
	return q.fetchCols(ctx, s, c, stmt, maxRows, q.cfg.MaxColumns, args...)
}

func (q *dbq) fetchCols(ctx context.Context, s *session, c *Connection, stmt string, maxRows, maxCols int, args ...any) (*resultSet, error) {
	rows, err := s.tx.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, q.dbError(err, c)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, q.dbError(err, c)
	}
	rs := &resultSet{Columns: cols, Rows: [][]any{}}
	keep := len(cols)
	if keep > maxCols {
		keep = maxCols
		rs.ColumnsTruncated = len(cols) - keep
		rs.Columns = cols[:keep]
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	secrets := secrets(c)
	for rows.Next() {
		if len(rs.Rows) >= maxRows {
			rs.Truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, q.dbError(err, c)
		}
		row := make([]any, keep)
		for i := range keep {
			row[i] = q.jsonValue(vals[i], secrets)
		}
		rs.Rows = append(rs.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, q.dbError(err, c)
	}
	rs.RowCount = len(rs.Rows)
	var notes []string
	if rs.Truncated {
		notes = append(notes, fmt.Sprintf("only the first %s are shown; add WHERE conditions, aggregate, or use LIMIT/OFFSET to see the rest", wording.Count(maxRows, "row", "rows")))
	}
	if rs.ColumnsTruncated > 0 {
		notes = append(notes, fmt.Sprintf("%d more columns were cut (at most %d); select fewer columns", rs.ColumnsTruncated, maxCols))
	}
	rs.Notice = strings.Join(notes, "; ")
	return rs, nil
}

// jsonValue converts a driver value for the result.
func (q *dbq) jsonValue(v any, secrets []string) any {
	if vr, ok := v.(driver.Valuer); ok {
		if x, err := vr.Value(); err == nil {
			v = x
		}
	}
	switch x := v.(type) {
	case nil, bool, int64, float64, int32, int, float32:
		return x
	case []byte:
		if utf8.Valid(x) {
			return q.text(string(x), secrets)
		}
		if len(x) > 256 {
			return fmt.Sprintf("<%s of binary data>", wording.Count(len(x), "byte", "bytes"))
		}
		return "base64:" + base64.StdEncoding.EncodeToString(x)
	case string:
		return q.text(x, secrets)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format(time.RFC3339Nano)
	}
	return q.text(fmt.Sprint(v), secrets)
}

func (q *dbq) text(s string, secrets []string) string {
	for _, sec := range secrets {
		s = strings.ReplaceAll(s, sec, "***")
	}
	if utf8.RuneCountInString(s) > q.cfg.MaxCellChars {
		r := []rune(s)
		s = string(r[:q.cfg.MaxCellChars]) + fmt.Sprintf("… (%s cut)", wording.Count(len(r)-q.cfg.MaxCellChars, "character", "characters"))
	}
	return s
}

// dbError turns a database error into a tool error without secrets.
func (q *dbq) dbError(err error, c *Connection) error {
	msg := redact(err.Error(), c)
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57014":
			return tool.Errorf(tool.CodeTimeout, "narrow the query (WHERE, LIMIT, an index) so that it finishes in time", "%s: the statement ran longer than %d s and was cancelled", c.Name, q.cfg.TimeoutSeconds)
		case "25006":
			return tool.Errorf(tool.CodeDenied, "db_query is read-only", "%s: refused by the database: %s", c.Name, redact(pe.Message, c))
		case "42501":
			return tool.Errorf(tool.CodeDenied, "the configured database user lacks the privilege", "%s: %s", c.Name, redact(pe.Message, c))
		}
		return tool.Invalid("sql", fmt.Sprintf("%s: %s", c.Name, msg), "describe lists tables and columns")
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || strings.Contains(msg, "interrupted") || strings.Contains(msg, "max_execution_time") {
		return tool.Errorf(tool.CodeTimeout, "narrow the query so that it finishes in time", "%s: the statement was stopped after %d s", c.Name, q.cfg.TimeoutSeconds)
	}
	if strings.Contains(msg, "not authorized") || strings.Contains(msg, "prohibited") {
		return tool.Invalid("sql", fmt.Sprintf("%s: query refused: it reads a table, view or function that db_query does not open", c.Name),
			"use the tables that describe lists and ordinary SQL functions; SQLite's internal tables (sqlite_schema, sqlite_dbpage, dbstat, pragma_*), other schemas and extensions are not available")
	}
	if strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") || strings.Contains(msg, "READ ONLY") {
		return tool.Errorf(tool.CodeDenied, "db_query is read-only", "%s: refused by the database: %s", c.Name, msg)
	}
	if strings.Contains(msg, "syntax") || strings.Contains(msg, "no such") || strings.Contains(msg, "doesn't exist") || strings.Contains(msg, "Unknown column") {
		return tool.Invalid("sql", fmt.Sprintf("%s: %s", c.Name, msg), "describe lists tables and columns")
	}
	return fmt.Errorf("%s", msg)
}

// begin opens a session on c under the statement timeout; end closes the
// session and releases the timeout.
func (q *dbq) begin(ctx context.Context, c *Connection) (_ context.Context, _ *session, end func(), _ error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(q.cfg.TimeoutSeconds)*time.Second)
	s, err := q.open(ctx, c)
	if err != nil {
		cancel()
		return nil, nil, nil, q.connError(err, c)
	}
	return ctx, s, func() { s.close(); cancel() }, nil
}

func (q *dbq) query(ctx context.Context, c *Connection, text string, limit int) (*tool.Result, error) {
	st, _, err := check(c, text, false)
	if err != nil {
		return nil, err
	}
	maxRows := q.cfg.MaxRows
	if c.MaxRows > 0 && c.MaxRows < maxRows {
		maxRows = c.MaxRows
	}
	if limit > 0 && limit < maxRows {
		maxRows = limit
	}
	ctx, s, end, err := q.begin(ctx, c)
	if err != nil {
		return nil, err
	}
	defer end()
	start := time.Now()
	rs, err := q.fetch(ctx, s, c, st.SQL, maxRows)
	if err != nil {
		if ctx.Err() != nil {
			return nil, tool.Errorf(tool.CodeTimeout, "narrow the query so that it finishes in time", "%s: the statement was stopped after %d s", c.Name, q.cfg.TimeoutSeconds)
		}
		return nil, err
	}
	sum := fmt.Sprintf("%s from %s", wording.Count(rs.RowCount, "row", "rows"), c.Name)
	if rs.Truncated {
		sum += " (truncated: more rows exist)"
	}
	return &tool.Result{Summary: sum, Data: map[string]any{
		"connection": c.Name, "sql": st.SQL, "result": rs, "elapsed_ms": time.Since(start).Milliseconds(),
	}}, nil
}

func (q *dbq) connError(err error, c *Connection) error {
	if _, ok := tool.AsError(err); ok {
		return err
	}
	msg := redact(err.Error(), c)
	q.d.Log.Warn().Str("tool", "db_query").Str("connection", c.Name).Str("error", msg).Msg("connect failed")
	return tool.Errorf(tool.CodeUnavailable, "check that the database is running and the connection's settings are right", "cannot connect to %s: %s", c.Name, msg)
}

func (q *dbq) explain(ctx context.Context, c *Connection, text string) (*tool.Result, error) {
	st, d, err := check(c, text, true)
	if err != nil {
		return nil, err
	}
	prefix := "EXPLAIN "
	if d == sqlcheck.SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	ctx, s, end, err := q.begin(ctx, c)
	if err != nil {
		return nil, err
	}
	defer end()
	rs, err := q.fetch(ctx, s, c, prefix+st.SQL, 500)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, r := range rs.Rows {
		var parts []string
		for _, v := range r {
			if v != nil {
				parts = append(parts, fmt.Sprint(v))
			}
		}
		lines = append(lines, strings.Join(parts, " | "))
	}
	return &tool.Result{Summary: fmt.Sprintf("query plan from %s (%s)", c.Name, wording.Count(len(lines), "line", "lines")), Data: map[string]any{
		"connection": c.Name, "sql": st.SQL, "plan": strings.Join(lines, "\n"), "columns": rs.Columns, "rows": rs.Rows,
	}}, nil
}

// tableRef is a listed table.
type tableRef struct {
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	Type   string `json:"type"`
}

func (t tableRef) full() string {
	if t.Schema == "" {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

func isSensitive(c *Connection, t tableRef) bool {
	for _, s := range c.SensitiveTables {
		schema, name, ok := strings.Cut(s, ".")
		if !ok {
			name, schema = s, ""
		}
		if !strings.EqualFold(name, t.Name) {
			continue
		}
		ts := t.Schema
		if ts == "" {
			ts = "public"
		}
		if schema == "" || strings.EqualFold(schema, ts) || strings.EqualFold(schema, t.Schema) {
			return true
		}
	}
	return false
}

func (q *dbq) tables(ctx context.Context, s *session, c *Connection) ([]tableRef, error) {
	var stmt string
	switch s.d {
	case sqlcheck.SQLite:
		// What the authorizer admits is the list, so the two cannot differ.
		return s.sqlite.list(), nil
	case sqlcheck.Postgres:
		stmt = "SELECT table_schema, table_name, lower(table_type) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog','information_schema') ORDER BY 1, 2"
	case sqlcheck.MySQL:
		stmt = "SELECT '' AS s, table_name, lower(table_type) FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 2"
	}
	rows, err := s.tx.QueryContext(ctx, stmt)
	if err != nil {
		return nil, q.dbError(err, c)
	}
	defer rows.Close()
	var out []tableRef
	for rows.Next() {
		var t tableRef
		var schema sql.NullString
		if err := rows.Scan(&schema, &t.Name, &t.Type); err != nil {
			return nil, q.dbError(err, c)
		}
		t.Schema = schema.String
		if s.d == sqlcheck.Postgres && t.Schema == "public" {
			t.Schema = ""
		}
		t.Type = strings.TrimPrefix(t.Type, "base ")
		if !isSensitive(c, t) {
			out = append(out, t)
		}
	}
	return out, rows.Err()
}

func quoteIdent(d sqlcheck.Dialect, s string) string {
	if d == sqlcheck.MySQL {
		return "`" + strings.ReplaceAll(s, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (q *dbq) describe(ctx context.Context, c *Connection, table string) (*tool.Result, error) {
	ctx, s, end, err := q.begin(ctx, c)
	if err != nil {
		return nil, err
	}
	defer end()
	list, err := q.tables(ctx, s, c)
	if err != nil {
		return nil, err
	}
	if table == "" {
		return &tool.Result{Summary: fmt.Sprintf("%s in %s", wording.Count(len(list), "table", "tables"), c.Name), Data: map[string]any{"connection": c.Name, "tables": list}}, nil
	}
	var t *tableRef
	for i := range list {
		if strings.EqualFold(list[i].full(), table) || strings.EqualFold(list[i].Name, table) && t == nil {
			t = &list[i]
		}
	}
	if t == nil {
		// Sensitive tables get the same answer as missing ones.
		var names []string
		for _, x := range list {
			names = append(names, x.full())
		}
		return nil, tool.Invalid("table", fmt.Sprintf("table %q is not available in %s", table, c.Name), "tables: "+strings.Join(names, ", "))
	}
	cols, err := q.columns(ctx, s, c, t)
	if err != nil {
		return nil, err
	}
	// A few example values per column help the model write correct filters
	// (date formats, codes, enum spellings).
	ref := quoteIdent(s.d, t.Name)
	if t.Schema != "" {
		ref = quoteIdent(s.d, t.Schema) + "." + ref
	}
	ex, err := q.fetchCols(ctx, s, c, "SELECT * FROM "+ref+" LIMIT 3", 3, 1000)
	if err == nil {
		for i := range cols {
			for j, name := range ex.Columns {
				if name == cols[i].Name {
					for _, r := range ex.Rows {
						cols[i].Examples = append(cols[i].Examples, r[j])
					}
				}
			}
		}
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.%s: %s", c.Name, t.full(), wording.Count(len(cols), "column", "columns")), Data: map[string]any{
		"connection": c.Name, "table": t.full(), "type": t.Type, "columns": cols,
	}}, nil
}

// dbColumn describes a column of a table, with a few example values.
type dbColumn struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
	Primary  bool   `json:"primary_key,omitempty"`
	Examples []any  `json:"examples,omitempty"`
}

// columns lists t's columns from the database's catalogue.
func (q *dbq) columns(ctx context.Context, s *session, c *Connection, t *tableRef) ([]dbColumn, error) {
	var stmt string
	var args []any
	switch s.d {
	case sqlcheck.SQLite:
		stmt, args = `SELECT name, type, CASE WHEN "notnull" = 1 THEN 'NO' ELSE 'YES' END, pk FROM pragma_table_info(?) ORDER BY cid`, []any{t.Name}
	case sqlcheck.Postgres:
		schema := t.Schema
		if schema == "" {
			schema = "public"
		}
		stmt, args = `SELECT column_name, data_type, is_nullable, 0 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, []any{schema, t.Name}
	case sqlcheck.MySQL:
		stmt, args = `SELECT column_name, column_type, is_nullable, column_key = 'PRI' FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position`, []any{t.Name}
	}
	if s.sqlite != nil {
		s.sqlite.catalogue.Store(true)
	}
	rows, err := s.tx.QueryContext(ctx, stmt, args...)
	if s.sqlite != nil {
		// SQLite authorizes while compiling, which QueryContext has done.
		s.sqlite.catalogue.Store(false)
	}
	if err != nil {
		return nil, q.dbError(err, c)
	}
	var cols []dbColumn
	for rows.Next() {
		var cl dbColumn
		var nullable string
		var pk int
		if err := rows.Scan(&cl.Name, &cl.Type, &nullable, &pk); err != nil {
			rows.Close()
			return nil, q.dbError(err, c)
		}
		cl.Nullable, cl.Primary = nullable == "YES", pk > 0
		cols = append(cols, cl)
	}
	rows.Close()
	return cols, nil
}
