package dataproc

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func stem(p string) string { return tool.StemOf(p) }

// writeErr keeps tool errors and wraps the rest (a full disk, a failed
// rename) with the action.
func writeErr(action string, err error) error {
	if te, ok := tool.AsError(err); ok {
		return te
	}
	return fmt.Errorf("%s: write: %w", action, err)
}

func (p *processor) clean(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	r, err := p.open(c, c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in := r.Path
	out, format, err := p.output(c, stem(in)+"_clean", in)
	if err != nil {
		return nil, err
	}
	fill, err := fillRules(r, c.Args.Object("fill"))
	if err != nil {
		return nil, err
	}
	keep, err := p.keptColumns(ctx, c, len(r.Names), fill)
	if err != nil {
		return nil, err
	}
	var header []string
	var dropped []string
	for i, k := range keep {
		if k {
			header = append(header, r.Header[i])
		} else {
			dropped = append(dropped, r.Header[i])
		}
	}
	cl := &cleaner{fill: fill, keep: keep, dedupe: c.Args.Bool("dedupe", true), normalize: c.Args.Bool("normalize", true),
		prev: make([]string, len(r.Names)), seen: map[[2]uint64]bool{}, vals: make([]any, 0, len(header))}
	file, err := writeTable(out, format, r.Sheet, func(start func([]string) (table.Writer, error)) error {
		w, err := start(header)
		if err != nil {
			return err
		}
		_, err = eachRow(ctx, c, r, "rows cleaned", func(cells []string, _ int) error {
			vals := cl.row(cells)
			if vals == nil {
				return nil
			}
			if err := w.Row(vals); err != nil {
				return toolErr(err)
			}
			cl.rowsOut++
			return nil
		})
		return err
	})
	if err != nil {
		return nil, writeErr("clean", err)
	}
	data := map[string]any{
		"output": p.d.Sandbox.Rel(file.Path), "rows_in": cl.rowsIn, "rows_out": cl.rowsOut, "duplicates_removed": cl.dups,
		"cells_filled": cl.filled, "columns_dropped": dropped, "columns": header,
		"trimmed": "leading and trailing spaces removed from every cell; empty rows dropped",
	}
	if len(r.Notes) > 0 {
		data["notes"] = r.Notes
	}
	return &tool.Result{
		Summary: fmt.Sprintf("cleaned %s: %s in, %d out (%s), saved %s", filepath.Base(in), wording.Count(cl.rowsIn, "row", "rows"), cl.rowsOut, wording.Count(cl.dups, "duplicate", "duplicates"), p.d.Sandbox.Rel(file.Path)),
		Data:    data,
		Files:   []tool.File{file},
	}, nil
}

// fillRules maps the fill argument (column name → "previous", "zero" or a
// value) to column indexes of r.
func fillRules(r *table.Reader, args map[string]any) (map[int]string, error) {
	fill := map[int]string{}
	tinfo := readerInfo(r)
	for name, v := range args {
		col, err := column(tinfo, name)
		if err != nil {
			return nil, err
		}
		for i := range tinfo.Columns {
			if tinfo.Columns[i].Name == col.Name {
				fill[i] = table.Text(sqlArg(v))
				if s, ok := v.(string); ok {
					fill[i] = s
				}
			}
		}
	}
	return fill, nil
}

// keptColumns says which of the n columns clean keeps: with drop_empty,
// only those with a value or a fill rule, which needs a first pass.
func (p *processor) keptColumns(ctx context.Context, c *tool.Call, n int, fill map[int]string) ([]bool, error) {
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	if !c.Args.Bool("drop_empty", true) {
		return keep, nil
	}
	r2, err := p.open(c, c.Args.String("path"))
	if err != nil {
		return nil, err
	}
	seen := make([]bool, n)
	_, err = eachRow(ctx, c, r2, "rows checked for empty columns", func(cells []string, _ int) error {
		for i, s := range cells {
			if s != "" {
				seen[i] = true
			}
		}
		return nil
	})
	r2.Close()
	if err != nil {
		return nil, err
	}
	for i := range keep {
		_, filled := fill[i]
		keep[i] = seen[i] || filled
	}
	return keep, nil
}

// cleaner fills, deduplicates and normalizes rows one at a time, counting
// what it did.
type cleaner struct {
	fill      map[int]string
	keep      []bool
	dedupe    bool
	normalize bool
	prev      []string           // the previous row's cells, after filling
	seen      map[[2]uint64]bool // two hashes of each row kept
	vals      []any

	rowsIn, rowsOut, dups, filled int
}

// row cleans cells and returns the values to write, or nil for a
// duplicate. The slice is reused by the next call.
func (cl *cleaner) row(cells []string) []any {
	cl.rowsIn++
	for i, s := range cells {
		if s == "" {
			if f, ok := cl.fill[i]; ok {
				switch f {
				case "previous":
					cells[i] = cl.prev[i]
				case "zero":
					cells[i] = "0"
				default:
					cells[i] = f
				}
				if cells[i] != "" {
					cl.filled++
				}
			}
		}
		cl.prev[i] = cells[i]
	}
	if cl.dedupe {
		h1, h2 := fnv.New64a(), fnv.New64()
		for _, s := range cells {
			h1.Write([]byte(s))
			h1.Write([]byte{0x1f})
			h2.Write([]byte(s))
			h2.Write([]byte{0x1f})
		}
		key := [2]uint64{h1.Sum64(), h2.Sum64()}
		if cl.seen[key] {
			cl.dups++
			return nil
		}
		cl.seen[key] = true
	}
	cl.vals = cl.vals[:0]
	for i, s := range cells {
		if !cl.keep[i] {
			continue
		}
		if cl.normalize {
			cl.vals = append(cl.vals, table.SQLValue(s))
		} else if s == "" {
			cl.vals = append(cl.vals, nil)
		} else {
			cl.vals = append(cl.vals, s)
		}
	}
	return cl.vals
}

func (p *processor) export(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	q := c.Args.String("sql")
	ins := specs(c)
	if len(ins) == 0 {
		return nil, tool.Invalid("path", "export needs path (a file to convert) or paths + sql (a query to save)", "")
	}
	var inputs []string
	for _, s := range ins {
		f, _ := splitSpec(s)
		abs, err := p.input(f)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, abs)
	}
	name := stem(inputs[0])
	if q != "" {
		name += "_query"
	}
	out, format, err := p.output(c, name, inputs...)
	if err != nil {
		return nil, err
	}
	var header []string
	var n int
	var file tool.File
	if q != "" {
		file, header, n, err = p.exportQuery(ctx, c, q, ins, out, format)
	} else {
		file, header, n, err = p.exportFile(ctx, c, ins[0], out, format)
	}
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Summary: fmt.Sprintf("exported %s to %s", wording.Count(n, "row", "rows"), p.d.Sandbox.Rel(file.Path)),
		Data:    map[string]any{"output": p.d.Sandbox.Rel(file.Path), "format": format, "rows": n, "columns": header},
		Files:   []tool.File{file},
	}, nil
}

// exportQuery saves the result of the query q over the inputs ins to out.
func (p *processor) exportQuery(ctx context.Context, c *tool.Call, q string, ins []string, out *tool.Outputs, format string) (tool.File, []string, int, error) {
	var header []string
	n := 0
	stmt, err := checkSQL(q)
	if err != nil {
		return tool.File{}, nil, 0, err
	}
	db, err := p.load(ctx, c, ins)
	if err != nil {
		return tool.File{}, nil, 0, err
	}
	defer db.Close()
	file, err := writeTable(out, format, "Result", func(start func([]string) (table.Writer, error)) error {
		var w table.Writer
		_, err := db.RowsWithHeader(ctx, stmt, nil, func(cols []string) error {
			if len(cols) == 0 {
				return tool.Invalid("sql", "the query returned no columns", "")
			}
			header = cols
			var err error
			w, err = start(header)
			return err
		}, func(row []any) error {
			// The engine's loop checks ctx itself.
			if n++; n%progressEvery == 0 {
				c.Progress(float64(n), 0, fmt.Sprintf("%s written", wording.Count(n, "row", "rows")))
			}
			return w.Row(row)
		})
		if err == nil && w == nil {
			return tool.Invalid("sql", "the query returned no columns", "")
		}
		return err
	})
	if err != nil {
		if _, ok := tool.AsError(err); ok {
			return tool.File{}, nil, 0, toolErr(err)
		}
		if ctx.Err() != nil {
			return tool.File{}, nil, 0, toolErr(ctx.Err())
		}
		return tool.File{}, nil, 0, withTables(tool.Invalid("sql", "query failed: "+err.Error(), ""), db)
	}
	return file, header, n, nil
}

// exportFile converts the input spec in (its chosen columns) to out.
func (p *processor) exportFile(ctx context.Context, c *tool.Call, in string, out *tool.Outputs, format string) (tool.File, []string, int, error) {
	var header []string
	var n int
	r, idx, err := p.openColumns(c, in)
	if err != nil {
		return tool.File{}, nil, 0, err
	}
	defer r.Close()
	for _, i := range idx {
		header = append(header, r.Header[i])
	}
	file, err := writeTable(out, format, r.Sheet, func(start func([]string) (table.Writer, error)) error {
		w, err := start(header)
		if err != nil {
			return err
		}
		row := make([]any, len(idx))
		n, err = eachRow(ctx, c, r, "rows written", func(cells []string, _ int) error {
			for j, i := range idx {
				row[j] = table.SQLValue(cells[i])
			}
			return toolErr(w.Row(row))
		})
		return err
	})
	if err != nil {
		return tool.File{}, nil, 0, writeErr("export", err)
	}
	return file, header, n, nil
}
