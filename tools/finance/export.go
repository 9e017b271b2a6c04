package finance

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// export writes the entries as an xlsx: an Entries sheet (one row each,
// income, expense and not counted (neutral) in their own columns) whose
// Total and Net rows are SUM formulas, and a By category sheet of SUMIFS over it, so a total
// follows when a row is edited. Each formula also carries its value,
// computed in integer cents, for readers that do not recalculate. Amounts
// are written as the decimal text of the cents, not through a float.
func (f *fintool) export(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	fl, err := f.rangeFilter(call.Args)
	if err != nil {
		return nil, err
	}
	es, err := loadEntries(f.st.Read(), fl, 0)
	if err != nil {
		return nil, err
	}
	out, err := tool.PlanOutput(f.sb, call.Args, tool.Output{Stem: "finance", Exts: []string{".xlsx"}})
	if err != nil {
		return nil, err
	}
	x := excelize.NewFile()
	defer x.Close()
	num, err := x.NewStyle(&excelize.Style{NumFmt: 4}) // #,##0.00
	if err != nil {
		return nil, err
	}
	amount := func(c int64) excelize.Cell { return excelize.Cell{StyleID: num, Value: exactNumber(money(c))} }
	formula := func(fo string, c int64) excelize.Cell {
		return excelize.Cell{StyleID: num, Formula: fo, Value: exactNumber(money(c))}
	}

	const sheet = "Entries"
	x.SetSheetName("Sheet1", sheet)
	sw, err := x.NewStreamWriter(sheet)
	if err != nil {
		return nil, err
	}
	sw.SetColWidth(1, 4, 14)
	sw.SetColWidth(8, 8, 40)
	row := func(sw *excelize.StreamWriter, r int, cells ...any) error {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		return sw.SetRow(cell, cells)
	}
	if err := row(sw, 1, "Date", "Kind", "Category", "Account", "Income", "Expense", "Not counted", "Note", "ID"); err != nil {
		return nil, err
	}
	var in, ex, nt int64
	cats := map[string]int64{}
	for i, e := range es {
		inc, exp, neu := any(nil), any(nil), any(nil)
		switch e.Kind {
		case "income":
			inc, in = amount(e.Cents), in+e.Cents
		case "expense":
			exp, ex = amount(e.Cents), ex+e.Cents
		default: // neutral: kept, in neither total
			neu, nt = amount(e.Cents), nt+e.Cents
		}
		cats[e.Kind+"\x00"+e.Category] += e.Cents
		if err := row(sw, i+2, e.Day, e.Kind, e.Category, e.Account, inc, exp, neu, e.Note, e.ID); err != nil {
			return nil, err
		}
	}
	last := max(len(es)+1, 2) // SUM(E2:E2) over an empty ledger is still a formula
	tr := len(es) + 2
	if err := row(sw, tr, "Total", nil, nil, nil, formula(fmt.Sprintf("SUM(E2:E%d)", last), in), formula(fmt.Sprintf("SUM(F2:F%d)", last), ex), formula(fmt.Sprintf("SUM(G2:G%d)", last), nt)); err != nil {
		return nil, err
	}
	if err := row(sw, tr+1, "Net", nil, nil, nil, formula(fmt.Sprintf("E%d-F%d", tr, tr), in-ex)); err != nil {
		return nil, err
	}
	if err := sw.Flush(); err != nil {
		return nil, err
	}

	const bycat = "By category"
	if _, err := x.NewSheet(bycat); err != nil {
		return nil, err
	}
	cw, err := x.NewStreamWriter(bycat)
	if err != nil {
		return nil, err
	}
	cw.SetColWidth(1, 2, 16)
	if err := row(cw, 1, "Kind", "Category", "Amount"); err != nil {
		return nil, err
	}
	for i, k := range sortedKeys(cats) {
		r := i + 2
		kind, cat, _ := strings.Cut(k, "\x00")
		col := map[string]string{"income": "E", "expense": "F"}[kind]
		if col == "" {
			col = "G"
		}
		fo := fmt.Sprintf("SUMIFS(Entries!%s$2:%s$%d,Entries!$B$2:$B$%d,A%d,Entries!$C$2:$C$%d,B%d)", col, col, last, last, r, last, r)
		if err := row(cw, r, kind, cat, formula(fo, cats[k])); err != nil {
			return nil, err
		}
	}
	if err := cw.Flush(); err != nil {
		return nil, err
	}
	file, err := out.WriteFrom(".xlsx", func(w io.Writer) error { return x.Write(w) })
	if err != nil {
		return nil, err
	}
	rel := f.sb.Rel(file.Path)
	return &tool.Result{Summary: fmt.Sprintf("Exported %s to %s: income %s, expense %s, net %s %s (totals are formulas).", wording.Count(len(es), "entry", "entries"), rel, money(in), money(ex), money(in-ex), f.cfg.Currency),
		Data: map[string]any{"path": rel, "entries": len(es), "income": money(in), "expense": money(ex), "net": money(in - ex)}, Files: []tool.File{file}}, nil
}
