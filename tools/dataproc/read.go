package dataproc

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (p *processor) sheets(_ context.Context, c *tool.Call) (*tool.Result, error) {
	abs, err := p.input(c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	if !table.IsSpreadsheet(abs) {
		return &tool.Result{Summary: filepath.Base(abs) + " is not a workbook; it is one table", Data: map[string]any{"sheets": []table.SheetInfo{{Name: "", Index: 1, Visible: true}}}}, nil
	}
	list, other, err := table.ListSheets(abs, p.limits)
	if err != nil {
		return nil, toolErr(err)
	}
	data := map[string]any{"sheets": list}
	summary := fmt.Sprintf("%s has %s", filepath.Base(abs), wording.Count(len(list), "worksheet", "worksheets"))
	if len(other) > 0 {
		// Chart and dialog sheets hold no cells; read does not take them.
		data["other_sheets"] = other
		summary += fmt.Sprintf(" (and %s without cells)", wording.Count(len(other), "sheet", "sheets"))
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}

// openColumns opens the table spec names with the columns the `columns`
// argument picks (all when it is not given), for the caller to close.
func (p *processor) openColumns(c *tool.Call, spec string) (*table.Reader, []int, error) {
	r, err := p.open(c, spec)
	if err != nil {
		return nil, nil, err
	}
	idx, err := selectCols(r, c.Args.Strings("columns"))
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return r, idx, nil
}

// selectCols maps the `columns` argument to reader column indexes.
func selectCols(r *table.Reader, names []string) ([]int, error) {
	if len(names) == 0 {
		idx := make([]int, len(r.Names))
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	t := readerInfo(r)
	var idx []int
	for _, n := range names {
		col, err := column(t, n)
		if err != nil {
			return nil, err
		}
		for i := range t.Columns {
			if &t.Columns[i] == col {
				idx = append(idx, i)
			}
		}
	}
	return idx, nil
}

func (p *processor) read(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	r, idx, err := p.openColumns(c, c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	offset, limit := c.Args.Int("offset", 0), c.Args.Int("limit", 50)
	n := 0 // rows before this one
	rows := [][]any{}
	rowNums := []int{}
	kinds := make([]map[table.Kind]int, len(idx))
	for i := range kinds {
		kinds[i] = map[table.Kind]int{}
	}
	more := false
	_, err = eachRow(ctx, c, r, "rows read", func(cells []string, num int) error {
		if n >= offset+limit {
			more = true
			return errStop
		}
		if n >= offset {
			row := make([]any, len(idx))
			for j, i := range idx {
				k, _ := table.Classify(cells[i])
				kinds[j][k]++
				row[j] = table.SQLValue(cells[i])
			}
			rows = append(rows, row)
			rowNums = append(rowNums, num)
		}
		n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	cols := readColumns(r, idx, kinds, rows)
	data := map[string]any{
		"file": filepath.Base(r.Path), "columns": cols, "rows": rows, "row_numbers": rowNums,
		"offset": offset, "has_more": more,
	}
	if r.Sheet != "" {
		data["sheet"] = r.Sheet
		data["sheets"] = r.Sheets
	}
	if r.HasHeader {
		data["header_row"] = r.HeaderRow
	}
	if r.Encoding != "" && r.Format == "csv" {
		data["encoding"] = r.Encoding
	}
	if !more {
		data["total_rows"] = n
	}
	if len(r.Notes) > 0 {
		data["notes"] = r.Notes
	}
	return &tool.Result{Summary: readSummary(filepath.Base(r.Path), offset, len(rows), n, more), Data: data}, nil
}

// readColumns describes the read columns with the type most of their
// cells have, turning a boolean column's spellings into booleans in rows.
func readColumns(r *table.Reader, idx []int, kinds []map[table.Kind]int, rows [][]any) []map[string]any {
	cols := make([]map[string]any, len(idx))
	for j, i := range idx {
		k := kindOf(kinds[j])
		// A column typed boolean holds booleans, not their spellings
		// ("true", "yes", "是"); numbers and dates are typed per cell
		// already, and a text column's "true" stays text.
		if k == table.KindBoolean {
			for _, row := range rows {
				if s, ok := row[j].(string); ok {
					if b, ok := table.ParseBool(s); ok {
						row[j] = b
					}
				}
			}
		}
		m := map[string]any{"name": r.Names[i], "type": k}
		if r.Header[i] != r.Names[i] {
			m["original"] = r.Header[i]
		}
		cols[j] = m
	}
	return cols
}

// readSummary says which rows of file were read: got of them at offset,
// n rows counted so far, more when rows follow.
func readSummary(file string, offset, got, n int, more bool) string {
	var sum string
	switch {
	case got == 0 && n == 0:
		sum = fmt.Sprintf("no rows in %s", file)
	case got == 0:
		sum = fmt.Sprintf("no rows at offset %d of %s", offset, file)
	case got == 1:
		sum = fmt.Sprintf("row %d of %s", offset+1, file)
	default:
		sum = fmt.Sprintf("rows %d-%d of %s", offset+1, offset+got, file)
	}
	switch {
	case more:
		sum += " (more follow: raise offset)"
	case n > 0:
		sum += fmt.Sprintf(" (%s in total)", wording.Count(n, "row", "rows"))
	}
	return sum
}

func kindOf(c map[table.Kind]int) table.Kind { return table.DecideKind(c) }

func (p *processor) describe(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	r, idx, err := p.openColumns(c, c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d := table.NewDescriber(r)
	n, err := eachRow(ctx, c, r, "rows read", func(cells []string, num int) error {
		d.Add(cells, num)
		return nil
	})
	if err != nil {
		return nil, err
	}
	all := d.Result()
	stats := make([]table.ColumnStats, 0, len(idx))
	for _, i := range idx {
		stats = append(stats, all[i])
	}
	data := map[string]any{"file": filepath.Base(r.Path), "rows": n, "columns": stats}
	if r.Sheet != "" {
		data["sheet"] = r.Sheet
		data["sheets"] = r.Sheets
	}
	if r.HasHeader {
		data["header_row"] = r.HeaderRow
	}
	if len(r.Notes) > 0 {
		data["notes"] = r.Notes
	}
	return &tool.Result{Summary: fmt.Sprintf("%s x %s described in %s", wording.Count(n, "row", "rows"), wording.Count(len(stats), "column", "columns"), filepath.Base(r.Path)), Data: data}, nil
}

func (p *processor) query(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	q, err := checkSQL(c.Args.String("sql"))
	if err != nil {
		return nil, err
	}
	db, err := p.load(ctx, c, specs(c))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	pg, err := run(ctx, db, q, nil, c.Args.Int("offset", 0), c.Args.Int("limit", 100))
	if err != nil {
		return nil, withTables(err, db)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("query returned %s", wording.Count(pg.RowCount, "row", "rows")),
		Data:    map[string]any{"tables": db.Tables, "sql": q, "result": pg},
	}, nil
}

// withTables adds the loaded tables to a query error's hint, so the model
// can fix names.
func withTables(err error, db *table.DB) error {
	te, ok := tool.AsError(err)
	if !ok {
		return err
	}
	hint := "tables:"
	for _, t := range db.Tables {
		hint += " " + t.Name + "("
		for i, col := range t.Columns {
			if i > 0 {
				hint += ", "
			}
			hint += col.Name
		}
		hint += ")"
	}
	te.Hint = hint
	return te
}
