package table

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // pure-Go SQLite driver ("sqlite")

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// DB is a throw-away SQLite database in a temp directory: the one query
// engine behind query, filter, sort, group, pivot and join.
type DB struct {
	SQL    *sql.DB
	dir    string
	Tables []*TableInfo
}

// TableInfo reports how a file became a table.
type TableInfo struct {
	Name      string       `json:"table"`
	Source    string       `json:"source"`
	Sheet     string       `json:"sheet,omitempty"`
	Rows      int          `json:"rows"`
	HeaderRow int          `json:"header_row,omitempty"`
	Encoding  string       `json:"encoding,omitempty"`
	Columns   []ColumnInfo `json:"columns"`
	Notes     []string     `json:"notes,omitempty"`
}

// ColumnInfo is one column: its SQL name, the header it came from, its
// inferred type and the cells that do not fit that type.
type ColumnInfo struct {
	Name     string    `json:"name"`
	Original string    `json:"original,omitempty"`
	Type     Kind      `json:"type"`
	Bad      []BadCell `json:"bad_cells,omitempty"`
}

// BadCell is a value that does not match its column's type.
type BadCell struct {
	Cell  string `json:"cell"`
	Value string `json:"value"`
}

// NewDB creates an empty database in a fresh temp directory.
func NewDB(ctx context.Context) (*DB, error) {
	dir, err := os.MkdirTemp("", "clawbridge-data-*")
	if err != nil {
		return nil, fmt.Errorf("query engine: temp dir: %w", err)
	}
	dsn := "file:" + filepath.Join(dir, "data.db") + "?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=temp_store(FILE)&_pragma=cache_size(-65536)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("query engine: open: %w", err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("query engine: open: %w", err)
	}
	return &DB{SQL: db, dir: dir}, nil
}

// Close drops the database.
func (d *DB) Close() error {
	err := d.SQL.Close()
	os.RemoveAll(d.dir)
	return err
}

// UniqueTableName sanitises name and makes it unique among loaded tables.
func (d *DB) UniqueTableName(name string) string {
	base := SanitizeIdent(name)
	if base == "" {
		base = "t"
	}
	n := base
	for k := 2; d.Table(n) != nil; k++ {
		n = fmt.Sprintf("%s_%d", base, k)
	}
	return n
}

// Table finds a loaded table by name (case-insensitive).
func (d *DB) Table(name string) *TableInfo {
	for _, t := range d.Tables {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// Load streams a reader into a new table. progress, when not nil, is called
// every few thousand rows.
func (d *DB) Load(ctx context.Context, name string, r *Reader, progress func(rows int)) (*TableInfo, error) {
	return d.LoadColumns(ctx, name, r, nil, progress)
}

// LoadColumns loads only the columns whose keep flag is set (all when keep
// is nil): a group-by over two columns of a wide sheet need not copy the rest.
func (d *DB) LoadColumns(ctx context.Context, name string, r *Reader, keep []bool, progress func(rows int)) (*TableInfo, error) {
	name = d.UniqueTableName(name)
	var idx []int
	for i := range r.Names {
		if keep == nil || i < len(keep) && keep[i] {
			idx = append(idx, i)
		}
	}
	cols := make([]string, len(idx))
	for j, i := range idx {
		cols[j] = Quote(r.Names[i])
	}
	if len(cols) == 0 {
		return nil, toolerr.Invalidf("path", "", "%s has no columns", filepath.Base(r.Path))
	}
	if _, err := d.SQL.ExecContext(ctx, "CREATE TABLE "+Quote(name)+" ("+strings.Join(cols, ", ")+")"); err != nil {
		return nil, fmt.Errorf("query engine: create table: %w", err)
	}
	inf := newInference(r, len(cols))
	total, err := d.insertRows(ctx, name, r, idx, inf, progress)
	if err != nil {
		return nil, err
	}
	info := &TableInfo{Name: name, Source: filepath.Base(r.Path), Sheet: r.Sheet, Rows: total, HeaderRow: r.HeaderRow, Encoding: r.Encoding, Notes: r.Notes}
	for j, i := range idx {
		ci := ColumnInfo{Name: r.Names[i], Type: inf.kind(j), Bad: inf.bad(j)}
		if r.Header[i] != r.Names[i] {
			ci.Original = r.Header[i]
		}
		info.Columns = append(info.Columns, ci)
	}
	d.Tables = append(d.Tables, info)
	return info, nil
}

// insertRows inserts the idx columns of r's rows into table name in one
// transaction, in batches, noting each cell in inf; it returns the row
// count.
func (d *DB) insertRows(ctx context.Context, name string, r *Reader, idx []int, inf *inference, progress func(rows int)) (int, error) {
	cols := len(idx)
	tx, err := d.SQL.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	batch := max(1, min(500, 30000/cols))
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	full, err := tx.PrepareContext(ctx, "INSERT INTO "+Quote(name)+" VALUES "+strings.TrimSuffix(strings.Repeat(one+",", batch), ","))
	if err != nil {
		return 0, fmt.Errorf("query engine: prepare: %w", err)
	}
	defer full.Close()
	args := make([]any, 0, batch*cols)
	pending, total := 0, 0
	flush := func(stmt *sql.Stmt) error {
		if pending == 0 {
			return nil
		}
		if stmt == nil {
			s, err := tx.PrepareContext(ctx, "INSERT INTO "+Quote(name)+" VALUES "+strings.TrimSuffix(strings.Repeat(one+",", pending), ","))
			if err != nil {
				return err
			}
			defer s.Close()
			stmt = s
		}
		_, err := stmt.ExecContext(ctx, args...)
		args, pending = args[:0], 0
		return err
	}
	for {
		cells, num, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return 0, err
		}
		for j, i := range idx {
			args = append(args, inf.add(j, i, num, cells[i]))
		}
		pending++
		total++
		if pending == batch {
			if err := flush(full); err != nil {
				return 0, fmt.Errorf("query engine: insert: %w", err)
			}
			if total%20000 == 0 {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
				if progress != nil {
					progress(total)
				}
			}
		}
	}
	if err := flush(nil); err != nil {
		return 0, fmt.Errorf("query engine: insert: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return total, nil
}

// Rows runs a query and streams its rows to each (values are int64,
// float64, string or nil). It returns the column names.
func (d *DB) Rows(ctx context.Context, query string, args []any, each func(row []any) error) ([]string, error) {
	return d.RowsWithHeader(ctx, query, args, nil, each)
}

// RowsWithHeader is Rows with a callback that sees the column names before
// the first row.
func (d *DB) RowsWithHeader(ctx context.Context, query string, args []any, header func(cols []string) error, each func(row []any) error) ([]string, error) {
	rows, err := d.SQL.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if header != nil {
		if err := header(cols); err != nil {
			return cols, err
		}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return cols, err
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				v = string(x)
			case float64:
				// A computed value (SUM, AVG, an expression) shows at
				// most 15 significant digits, as sqlite3's shell does.
				v = wording.Round(x, 15)
			}
			row[i] = v
		}
		if err := each(row); err != nil {
			return cols, err
		}
		n++
		if n%10000 == 0 {
			if err := ctx.Err(); err != nil {
				return cols, err
			}
		}
	}
	return cols, rows.Err()
}

// inference tallies cell kinds per column while loading.
type inference struct {
	r      *Reader
	counts []map[Kind]int
	first  []map[Kind][]BadCell
}

func newInference(r *Reader, n int) *inference {
	inf := &inference{r: r, counts: make([]map[Kind]int, n), first: make([]map[Kind][]BadCell, n)}
	for i := range n {
		inf.counts[i] = map[Kind]int{}
		inf.first[i] = map[Kind][]BadCell{}
	}
	return inf
}

func (inf *inference) add(col, fileCol, row int, s string) any {
	k, v := Classify(s)
	inf.counts[col][k]++
	if k != KindEmpty && len(inf.first[col][k]) < 5 {
		inf.first[col][k] = append(inf.first[col][k], BadCell{Cell: inf.r.CellRef(row, fileCol), Value: clip(s, 60)})
	}
	return stored(k, v, s)
}

// kind picks a column type: the one kind of all its values, number for a
// mix of integers and decimals, else the kind of at least 90% of the values
// (the rest are reported as bad cells), else text.
func (inf *inference) kind(col int) Kind {
	return DecideKind(inf.counts[col])
}

func DecideKind(c map[Kind]int) Kind {
	nonEmpty := 0
	for k, n := range c {
		if k != KindEmpty {
			nonEmpty += n
		}
	}
	if nonEmpty == 0 {
		return KindEmpty
	}
	num := c[KindInteger] + c[KindNumber]
	switch {
	case c[KindInteger] == nonEmpty:
		return KindInteger
	case num == nonEmpty:
		return KindNumber
	case c[KindDate] == nonEmpty:
		return KindDate
	case c[KindBoolean] == nonEmpty:
		return KindBoolean
	case tolerable(num, nonEmpty):
		if c[KindNumber] == 0 {
			return KindInteger
		}
		return KindNumber
	case tolerable(c[KindDate], nonEmpty):
		return KindDate
	}
	return KindText
}

// tolerable: a typed column may hold a few stray values (a "N/A", a note):
// at most 10% of the values, or a single one among at least three good ones.
func tolerable(good, nonEmpty int) bool {
	bad := nonEmpty - good
	return good > 0 && (bad*10 <= nonEmpty || bad == 1 && good >= 3)
}

func (inf *inference) bad(col int) []BadCell {
	k := inf.kind(col)
	if k == KindText || k == KindEmpty || k == KindBoolean {
		return nil
	}
	var out []BadCell
	for _, kind := range []Kind{KindText, KindBoolean, KindDate, KindNumber, KindInteger} {
		cells := inf.first[col][kind]
		if kind == k || (k == KindNumber && kind == KindInteger) {
			continue
		}
		out = append(out, cells...)
	}
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
