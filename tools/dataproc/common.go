package dataproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/sqlcheck"
	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// toolErr turns reader and engine errors into tool errors the model can act on.
func toolErr(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := tool.AsError(err); ok {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return tool.Errorf(tool.CodeTimeout, "filter the data first or use a smaller file", "stopped: %v", err)
	}
	return err
}

// input resolves one workspace input path.
func (p *processor) input(path string) (string, error) {
	if path == "" {
		return "", tool.Invalid("path", "path is required", "give the file to read, e.g. data/sales.xlsx")
	}
	abs, err := p.d.Sandbox.Resolve(path)
	if err != nil {
		return "", tool.PathError("path", path, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return "", tool.NotFoundf("path", "check the path (relative paths start at the workspace root)", "file not found: %s", path)
	}
	return abs, nil
}

func (p *processor) readOptions(c *tool.Call, sheet string) table.Options {
	o := table.Options{Sheet: sheet, Limits: p.limits, HeaderRow: c.Args.Int("header_row", 0)}
	if c.Args.Has("header") {
		h := c.Args.Bool("header", true)
		o.Header = &h
	}
	return o
}

// open opens the `path` argument (or the spec "file#sheet").
func (p *processor) open(c *tool.Call, spec string) (*table.Reader, error) {
	path, sheet := splitSpec(spec)
	if sheet == "" {
		sheet = c.Args.String("sheet")
	}
	abs, err := p.input(path)
	if err != nil {
		return nil, err
	}
	r, err := table.Open(abs, p.readOptions(c, sheet))
	if err != nil {
		// A file that cannot be read as a table is about the argument
		// that named it; so is a sheet named in the spec ("file.xlsx#Sheet").
		if te, ok := tool.AsError(err); ok && (te.Field == "" || te.Field == "path" || te.Field == "sheet" && sheet != c.Args.String("sheet")) {
			te.Field = "path"
			if spec != c.Args.String("path") && len(c.Args.Strings("paths")) > 0 {
				te.Field = "paths"
			}
		}
		return nil, toolErr(err)
	}
	return r, nil
}

// splitSpec splits "file.xlsx#Sheet 2" into the file and the sheet.
func splitSpec(spec string) (string, string) {
	if i := strings.LastIndexByte(spec, '#'); i > 0 {
		if _, err := table.FormatOf(spec[:i]); err == nil {
			return spec[:i], spec[i+1:]
		}
	}
	return spec, ""
}

// load loads each spec into one table of a fresh engine.
func (p *processor) load(ctx context.Context, c *tool.Call, specs []string) (*table.DB, error) {
	return p.loadKeep(ctx, c, specs, nil)
}

// loadKeep is load with a column filter (given the reader of each spec).
func (p *processor) loadKeep(ctx context.Context, c *tool.Call, specs []string, keep func(r *table.Reader) []bool) (*table.DB, error) {
	if len(specs) == 0 {
		return nil, tool.Invalid("paths", "no input files", "give paths: [\"data/sales.xlsx\"]")
	}
	db, err := table.NewDB(ctx)
	if err != nil {
		return nil, err
	}
	for i, spec := range specs {
		r, err := p.open(c, spec)
		if err != nil {
			db.Close()
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path))
		if _, sheet := splitSpec(spec); sheet != "" {
			name += "_" + sheet
		}
		var k []bool
		if keep != nil {
			k = keep(r)
		}
		_, err = db.LoadColumns(ctx, name, r, k, func(n int) {
			c.Progress(float64(i), float64(len(specs)), fmt.Sprintf("loaded %s of %s", wording.Count(n, "row", "rows"), filepath.Base(r.Path)))
		})
		r.Close()
		if err != nil {
			db.Close()
			return nil, toolErr(err)
		}
	}
	// The engine only answers queries from here on.
	if _, err := db.SQL.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// specs returns the inputs of a call: paths, else path.
func specs(c *tool.Call) []string {
	if ps := c.Args.Strings("paths"); len(ps) > 0 {
		return ps
	}
	if p := c.Args.String("path"); p != "" {
		return []string{p}
	}
	return nil
}

// checkSQL admits one read-only statement for the engine.
func checkSQL(q string) (string, error) {
	st, err := sqlcheck.Check(q, sqlcheck.SQLite, sqlcheck.Options{NoExplain: true})
	if err != nil {
		return "", tool.Invalid("sql", "query refused: "+err.Error(), "write one SELECT (or WITH ... SELECT) over the loaded tables")
	}
	return st.SQL, nil
}

// page is a window of query results.
type page struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int      `json:"row_count"`
	Offset    int      `json:"offset,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
}

// run executes q and keeps the rows of the requested window, counting all.
func run(ctx context.Context, db *table.DB, q string, args []any, offset, limit int) (*page, error) {
	pg := &page{Offset: offset, Rows: [][]any{}}
	n := 0
	cols, err := db.Rows(ctx, q, args, func(row []any) error {
		if n >= offset && len(pg.Rows) < limit {
			pg.Rows = append(pg.Rows, row)
		}
		n++
		return nil
	})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, toolErr(err)
		}
		return nil, tool.Invalid("sql", "query failed: "+err.Error(), "check table and column names against the tables listed in the result of a previous call")
	}
	pg.Columns, pg.RowCount = cols, n
	pg.Truncated = offset+len(pg.Rows) < n
	typeBooleans(db, pg)
	return pg, nil
}

// typeBooleans turns the spellings of a boolean ("true", "yes", "是") in
// a result column into booleans, as read does, when the column carries the
// name of a boolean column of the loaded tables and of no other column.
// The tables keep the spellings (an export writes what the file had); only
// what the model reads is typed.
func typeBooleans(db *table.DB, pg *page) {
	kinds := map[string]map[table.Kind]bool{}
	for _, t := range db.Tables {
		for _, c := range t.Columns {
			k := strings.ToLower(c.Name)
			if kinds[k] == nil {
				kinds[k] = map[table.Kind]bool{}
			}
			kinds[k][c.Type] = true
		}
	}
	for j, name := range pg.Columns {
		ks := kinds[strings.ToLower(name)]
		if len(ks) != 1 || !ks[table.KindBoolean] {
			continue
		}
		for _, row := range pg.Rows {
			if s, ok := row[j].(string); ok {
				if b, ok := table.ParseBool(s); ok {
					row[j] = b
				}
			}
		}
	}
}

// column finds a table column by its sanitised name or original header.
func column(t *table.TableInfo, name string) (*table.ColumnInfo, error) {
	n := strings.TrimSpace(name)
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, n) {
			return &t.Columns[i], nil
		}
	}
	for i := range t.Columns {
		if t.Columns[i].Original != "" && strings.EqualFold(strings.TrimSpace(t.Columns[i].Original), n) {
			return &t.Columns[i], nil
		}
	}
	s := table.SanitizeIdent(n)
	for i := range t.Columns {
		if s != "" && strings.EqualFold(t.Columns[i].Name, s) {
			return &t.Columns[i], nil
		}
	}
	var names []string
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	return nil, tool.Invalid("column", fmt.Sprintf("column %q not found in %s", name, t.Source), "columns: "+strings.Join(names, ", "))
}

// readerInfo describes a reader's columns as a table, to resolve names
// before loading.
func readerInfo(r *table.Reader) *table.TableInfo {
	t := &table.TableInfo{Source: filepath.Base(r.Path)}
	for i, n := range r.Names {
		ci := table.ColumnInfo{Name: n}
		if r.Header[i] != n {
			ci.Original = r.Header[i]
		}
		t.Columns = append(t.Columns, ci)
	}
	return t
}

// neededColumns marks the columns a group or pivot call refers to; names
// that do not resolve are kept out here and reported after loading.
func neededColumns(c *tool.Call) func(r *table.Reader) []bool {
	if c.Action != "group" && c.Action != "pivot" {
		return nil
	}
	return func(r *table.Reader) []bool {
		t := readerInfo(r)
		keep := make([]bool, len(r.Names))
		mark := func(name string) {
			name, _, _ = strings.Cut(name, ":")
			if col, err := column(t, name); err == nil {
				for i := range t.Columns {
					if t.Columns[i].Name == col.Name {
						keep[i] = true
					}
				}
			}
		}
		names := append(c.Args.Strings("group_by"), c.Args.Strings("index")...)
		names = append(names, c.Args.String("pivot_column"), c.Args.String("values"))
		for _, o := range c.Args.Strings("order_by") {
			f := strings.Fields(strings.TrimPrefix(o, "-"))
			if len(f) > 0 {
				names = append(names, strings.Join(f[:max(1, len(f)-1)], " "), f[0])
			}
		}
		for _, key := range []string{"where", "aggregations"} {
			var items []struct {
				Column string `json:"column"`
			}
			if c.Args.Has(key) && c.Args.Decode(key, &items) == nil {
				for _, it := range items {
					names = append(names, it.Column)
				}
			}
		}
		for _, n := range names {
			if n != "" {
				mark(n)
			}
		}
		return keep
	}
}

// output plans the table a call writes: `output` (whose extension picks
// the format when `format` is not given) or outputs/<stem>.<format>; see
// tool.PlanOutput.
func (p *processor) output(c *tool.Call, stem string, inputs ...string) (*tool.Outputs, string, error) {
	format := c.Args.String("format")
	if format == "" {
		format = "xlsx"
		if out := c.Args.String("output"); out != "" {
			format = table.FormatFromPath(out)
		}
	}
	out, err := tool.PlanOutput(p.d.Sandbox, c.Args, tool.Output{Stem: stem, Exts: []string{"." + format}, Inputs: inputs})
	return out, format, err
}

// writeTable streams a table into the planned output: fill gets a writer
// for the header it chooses and returns after its last row. A failed fill
// leaves nothing behind.
func writeTable(out *tool.Outputs, format, sheet string, fill func(start func(header []string) (table.Writer, error)) error) (tool.File, error) {
	return out.WriteFrom("."+format, func(fw io.Writer) error {
		var tw table.Writer
		start := func(header []string) (table.Writer, error) {
			w, err := table.NewWriter(fw, format, sheet, header)
			tw = w
			return w, err
		}
		defer func() {
			if tw != nil {
				tw.Abort()
			}
		}()
		if err := fill(start); err != nil {
			return err
		}
		if tw == nil {
			return errors.New("no table was started")
		}
		return tw.Close()
	})
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }
