package dbquery

import (
	"context"
	"database/sql"
	"sort"
	"strings"
	"sync/atomic"

	"modernc.org/sqlite"
)

// sqliteAccess is the allow-list SQLite's authorizer enforces on one
// connection. SQLite asks the authorizer about every table, column and
// function while it compiles a statement, with names already resolved
// (a computed argument such as pragma_table_info('us'||'ers') or a table
// behind a view arrives as the real name), so this decides on what the
// statement touches rather than on how its text is spelt.
//
// Admitted: SELECT, recursive CTEs, reading the main schema's tables and
// views that are not sensitive, the table-valued functions in readableTVF,
// and the scalar, aggregate and window functions in sqliteFuncs. Refused:
// everything else — sqlite_master/sqlite_schema and other sqlite_* tables,
// the temp schema, attached databases, sqlite_dbpage, dbstat, every pragma_*
// table and PRAGMA, ATTACH, writes and schema changes, load_extension and
// any function not on the list.
type sqliteAccess struct {
	tables map[string]tableRef // the readable tables and views, by lower-case name
	// catalogue is set while describe reads a readable table's columns
	// through pragma_table_info; no model-written statement runs then.
	catalogue atomic.Bool
}

// readableTVF are table-valued functions that read only their arguments.
var readableTVF = map[string]bool{"json_each": true, "json_tree": true, "jsonb_each": true, "jsonb_tree": true}

// sqliteFuncs are the ordinary functions a query may call: none reads
// files, the schema or connection state, or loads code.
var sqliteFuncs = setOf(
	// scalar
	"abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull", "iif", "if", "instr",
	"length", "octet_length", "like", "likelihood", "likely", "unlikely", "lower", "upper", "ltrim", "rtrim", "trim",
	"max", "min", "nullif", "printf", "quote", "random", "replace", "round", "sign", "soundex", "substr", "substring",
	"typeof", "subtype", "unhex", "unicode", "unistr", "unistr_quote", "regexp",
	// date and time
	"date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff", "current_date", "current_time", "current_timestamp",
	// math
	"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp", "floor",
	"ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
	// aggregate
	"avg", "count", "group_concat", "string_agg", "sum", "total", "median", "percentile", "percentile_cont", "percentile_disc",
	// window
	"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value",
	// full-text search over a readable FTS table
	"match", "bm25", "highlight", "snippet",
	// JSON
	"json", "jsonb", "json_array", "jsonb_array", "json_array_length", "json_error_position", "json_extract", "jsonb_extract",
	"json_insert", "jsonb_insert", "json_object", "jsonb_object", "json_patch", "jsonb_patch", "json_pretty", "json_quote",
	"json_remove", "jsonb_remove", "json_replace", "jsonb_replace", "json_set", "jsonb_set", "json_type", "json_valid",
	"json_group_array", "jsonb_group_array", "json_group_object", "jsonb_group_object", "->", "->>",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// loadSQLiteAccess lists the main schema's readable objects. It runs before
// the authorizer is installed, on the read-only connection.
func loadSQLiteAccess(ctx context.Context, conn *sql.Conn, c *Connection) (*sqliteAccess, error) {
	rows, err := conn.QueryContext(ctx, "SELECT name, type FROM pragma_table_list WHERE schema = 'main'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	a := &sqliteAccess{tables: map[string]tableRef{}}
	var shadows []tableRef
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, err
		}
		lower := strings.ToLower(name)
		if strings.HasPrefix(lower, "sqlite_") || isSensitive(c, tableRef{Name: name}) || isSensitive(c, tableRef{Schema: "main", Name: name}) {
			continue
		}
		t := tableRef{Name: name, Type: typ}
		if typ != "view" {
			t.Type = "table"
		}
		if typ == "shadow" {
			shadows = append(shadows, t)
			continue
		}
		a.tables[lower] = t
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// A virtual table's shadow tables (an FTS index's content and data)
	// hold its rows: readable only when their owner is.
	for _, sh := range shadows {
		if lower := strings.ToLower(sh.Name); ownerReadable(a.tables, lower) {
			a.tables[lower] = sh
		}
	}
	return a, nil
}

// ownerReadable reports whether some readable table owns shadow table sh
// (names like <owner>_content, where owner may contain "_" itself).
func ownerReadable(tables map[string]tableRef, sh string) bool {
	for i := len(sh) - 1; i > 0; i-- {
		if _, ok := tables[sh[:i]]; ok && sh[i] == '_' {
			return true
		}
	}
	return false
}

// authorize is the sqlite.AuthorizerFn of the connection.
func (a *sqliteAccess) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, dbName, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthTransaction:
		// database/sql's BEGIN and ROLLBACK of the read-only transaction.
		if s := strings.ToUpper(arg1); s == "BEGIN" || s == "ROLLBACK" || s == "COMMIT" {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthRead:
		// dbName is "" only when no column is read (count(*)); the table
		// name is then still checked.
		if dbName != "main" && dbName != "" {
			return sqlite.AuthorizerDeny
		}
		t := strings.ToLower(arg1)
		if a.readable(t) || readableTVF[t] || t == "pragma_table_info" && a.catalogue.Load() {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthPragma:
		// FTS5 reads data_version (a change counter) on its own; a
		// statement cannot name it, as pragma_data_version is no readable
		// table. Otherwise only describe's pragma_table_info of a readable
		// table.
		if strings.EqualFold(arg1, "data_version") && arg2 == "" {
			return sqlite.AuthorizerOK
		}
		if a.catalogue.Load() && strings.EqualFold(arg1, "table_info") && a.readable(arg2) {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthFunction:
		if sqliteFuncs[strings.ToLower(arg2)] {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

func (a *sqliteAccess) readable(name string) bool {
	_, ok := a.tables[strings.ToLower(name)]
	return ok
}

// list returns the readable tables and views for describe, by name.
func (a *sqliteAccess) list() []tableRef {
	out := make([]tableRef, 0, len(a.tables))
	for _, t := range a.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
