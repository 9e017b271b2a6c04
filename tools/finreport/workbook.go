package finreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// sheetBuilder writes one statement top to bottom with the stream writer:
// line items as values, subtotals and totals as live formulas that also carry
// their computed value (so readers that do not calculate still see numbers).
type sheetBuilder struct {
	sw   *excelize.StreamWriter
	name string
	row  int
	st   *styles
}

type styles struct{ title, head, money, total, pct, note int }

func newStyles(f *excelize.File) *styles {
	money := "#,##0.00;[Red]-#,##0.00"
	s := &styles{}
	s.title, _ = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}})
	s.head, _ = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}}})
	s.money, _ = f.NewStyle(&excelize.Style{CustomNumFmt: &money})
	s.total, _ = f.NewStyle(&excelize.Style{CustomNumFmt: &money, Font: &excelize.Font{Bold: true}, Border: []excelize.Border{{Type: "top", Color: "000000", Style: 1}}})
	s.pct, _ = f.NewStyle(&excelize.Style{NumFmt: 10})
	s.note, _ = f.NewStyle(&excelize.Style{Font: &excelize.Font{Italic: true, Color: "666666"}})
	return s
}

func (b *sheetBuilder) put(values ...any) int {
	b.row++
	cell, _ := excelize.CoordinatesToCellName(1, b.row)
	b.sw.SetRow(cell, values)
	return b.row
}

func (b *sheetBuilder) ref(row int) string { return fmt.Sprintf("B%d", row) }

// xref is a reference to a cell of this sheet from another sheet.
func (b *sheetBuilder) xref(row int) string {
	return "'" + strings.ReplaceAll(b.name, "'", "''") + "'!" + b.ref(row)
}

func (b *sheetBuilder) title(s string) { b.put(excelize.Cell{StyleID: b.st.title, Value: s}) }
func (b *sheetBuilder) head(s string) {
	b.put(excelize.Cell{StyleID: b.st.head, Value: s}, excelize.Cell{StyleID: b.st.head, Value: ""})
}
func (b *sheetBuilder) blank() { b.row++ }

func (b *sheetBuilder) value(label string, v decimal.Decimal) int {
	f, _ := v.Float64()
	return b.put("  "+label, excelize.Cell{StyleID: b.st.money, Value: f})
}

func (b *sheetBuilder) formula(label, formula string, v decimal.Decimal, style int) int {
	f, _ := v.Float64()
	return b.put(label, excelize.Cell{StyleID: style, Formula: formula, Value: f})
}

// section writes a header, the lines and a SUM subtotal; it returns the
// subtotal's row.
func (b *sheetBuilder) section(s Section, totalLabel string) int {
	b.head(s.Title)
	first := b.row + 1
	for _, l := range s.Lines {
		b.value(l.Label, l.Amount)
	}
	if len(s.Lines) == 0 {
		return b.formula(totalLabel, "0", decimal.Zero, b.st.total)
	}
	return b.formula(totalLabel, fmt.Sprintf("SUM(B%d:B%d)", first, b.row), s.Total, b.st.total)
}

func newSheet(f *excelize.File, name string, st *styles, first bool) (*sheetBuilder, error) {
	if first {
		if err := f.SetSheetName("Sheet1", name); err != nil {
			return nil, err
		}
	} else if _, err := f.NewSheet(name); err != nil {
		return nil, err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return nil, err
	}
	sw.SetColWidth(1, 1, 46)
	sw.SetColWidth(2, 2, 20)
	sw.SetColWidth(3, 3, 40)
	return &sheetBuilder{sw: sw, name: name, st: st}, nil
}

// cellRefs remembers where the key figures landed, for tests and ratios.
type cellRefs map[string]string

// writeWorkbook writes the report to w and returns the cell of each key
// figure ("Sheet!B7").
func writeWorkbook(w io.Writer, r *Report, company string, t func(string) string) (cellRefs, error) {
	f := excelize.NewFile()
	defer f.Close()
	st := newStyles(f)
	refs := cellRefs{}
	period := fmt.Sprintf("%s – %s", r.Start, r.End)
	if err := incomeSheet(f, st, r, company, period, t, refs); err != nil {
		return nil, err
	}
	if err := balanceSheet(f, st, r, company, t, refs); err != nil {
		return nil, err
	}
	if err := cashFlowSheet(f, st, r, company, period, t, refs); err != nil {
		return nil, err
	}
	if err := ratioSheet(f, st, r, t, refs); err != nil {
		return nil, err
	}
	full := true
	if err := f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &full}); err != nil {
		return nil, err
	}
	if _, err := f.WriteTo(w); err != nil {
		return nil, err
	}
	return refs, nil
}

// incomeSheet writes the income statement, noting its key cells in refs.
func incomeSheet(f *excelize.File, st *styles, r *Report, company, period string, t func(string) string, refs cellRefs) error {
	is, err := newSheet(f, t("Income Statement"), st, true)
	if err != nil {
		return err
	}
	is.title(strings.TrimSpace(company + " " + t("Income Statement")))
	is.put(t("Period") + ": " + period)
	is.blank()
	rev := is.section(r.Revenue, t("Total revenue"))
	cogs := is.section(r.COGS, t("Total cost of sales"))
	gp := is.formula(t("Gross profit"), fmt.Sprintf("%s-%s", is.ref(rev), is.ref(cogs)), r.GrossProfit, st.total)
	exp := is.section(r.Expenses, t("Total operating expenses"))
	op := is.formula(t("Operating profit"), fmt.Sprintf("%s-%s", is.ref(gp), is.ref(exp)), r.OperatingProfit, st.total)
	oi := is.section(r.OtherIncome, t("Total other income"))
	pt := is.formula(t("Profit before tax"), fmt.Sprintf("%s+%s", is.ref(op), is.ref(oi)), r.PreTax, st.total)
	tax := is.section(r.Tax, t("Total income tax"))
	ni := is.formula(t("Net income"), fmt.Sprintf("%s-%s", is.ref(pt), is.ref(tax)), r.NetIncome, st.total)
	refs["revenue"], refs["cogs"], refs["gross_profit"], refs["net_income"] = is.xref(rev), is.xref(cogs), is.xref(gp), is.xref(ni)
	return is.sw.Flush()
}

// balanceSheet writes the balance sheet, noting its key cells in refs.
func balanceSheet(f *excelize.File, st *styles, r *Report, company string, t func(string) string, refs cellRefs) error {
	bs, err := newSheet(f, t("Balance Sheet"), st, false)
	if err != nil {
		return err
	}
	bs.title(strings.TrimSpace(company + " " + t("Balance Sheet")))
	bs.put(t("As of") + " " + r.End)
	bs.blank()
	ca := bs.section(r.CurrentAssets, t("Total current assets"))
	nca := bs.section(r.NonCurrentAssets, t("Total non-current assets"))
	ta := bs.formula(t("Total assets"), fmt.Sprintf("%s+%s", bs.ref(ca), bs.ref(nca)), r.TotalAssets, st.total)
	bs.blank()
	cl := bs.section(r.CurrentLiabs, t("Total current liabilities"))
	ncl := bs.section(r.NonCurrentLiabs, t("Total non-current liabilities"))
	tl := bs.formula(t("Total liabilities"), fmt.Sprintf("%s+%s", bs.ref(cl), bs.ref(ncl)), r.TotalLiabs, st.total)
	eq := bs.section(r.EquitySec, t("Total equity"))
	tle := bs.formula(t("Total liabilities and equity"), fmt.Sprintf("%s+%s", bs.ref(tl), bs.ref(eq)), r.TotalLiabs.Add(r.TotalEquity), st.total)
	bs.blank()
	gap := bs.formula(t("Check: assets - (liabilities + equity)"), fmt.Sprintf("ROUND(%s-%s,2)", bs.ref(ta), bs.ref(tle)), r.Gap, st.total)
	refs["current_assets"], refs["total_assets"], refs["current_liabilities"], refs["total_liabilities"] = bs.xref(ca), bs.xref(ta), bs.xref(cl), bs.xref(tl)
	refs["total_equity"], refs["gap"] = bs.xref(eq), bs.xref(gap)
	return bs.sw.Flush()
}

// cashFlowSheet writes the cash flow statement (indirect method, starting
// from the income statement's net income), noting its key cells in refs.
func cashFlowSheet(f *excelize.File, st *styles, r *Report, company, period string, t func(string) string, refs cellRefs) error {
	cf, err := newSheet(f, t("Cash Flow"), st, false)
	if err != nil {
		return err
	}
	cf.title(strings.TrimSpace(company + " " + t("Cash Flow Statement")))
	cf.put(t("Period") + ": " + period + " (" + t("indirect method") + ")")
	cf.blank()
	cf.head(r.Operating.Title)
	first := cf.row + 1
	niF, _ := r.NetIncome.Float64()
	cf.put("  "+t("Net income"), excelize.Cell{StyleID: st.money, Formula: refs["net_income"], Value: niF})
	for _, l := range r.Operating.Lines[1:] {
		cf.value(l.Label, l.Amount)
	}
	opc := cf.formula(t("Net cash from operating activities"), fmt.Sprintf("SUM(B%d:B%d)", first, cf.row), r.Operating.Total, st.total)
	inv := cf.section(r.Investing, t("Net cash from investing activities"))
	fin := cf.section(r.Financing, t("Net cash from financing activities"))
	net := cf.formula(t("Net change in cash"), fmt.Sprintf("%s+%s+%s", cf.ref(opc), cf.ref(inv), cf.ref(fin)), r.NetCashChange, st.total)
	cf.blank()
	open := cf.value(t("Cash at beginning of period"), r.CashOpening)
	closeRow := cf.value(t("Cash at end of period"), r.CashClosing)
	rec := cf.formula(t("Check: actual change in cash - net change"), fmt.Sprintf("ROUND(%s-%s-%s,2)", cf.ref(closeRow), cf.ref(open), cf.ref(net)), r.CashReconGap, st.total)
	refs["operating"], refs["investing"], refs["financing"], refs["net_cash_change"], refs["cash_recon_gap"] = cf.xref(opc), cf.xref(inv), cf.xref(fin), cf.xref(net), cf.xref(rec)
	return cf.sw.Flush()
}

// ratioSheet writes the ratios as formulas over the statements' cells in
// refs, noting each ratio's cell.
func ratioSheet(f *excelize.File, st *styles, r *Report, t func(string) string, refs cellRefs) error {
	rs, err := newSheet(f, t("Ratios"), st, false)
	if err != nil {
		return err
	}
	rs.title(t("Financial ratios"))
	rs.blank()
	openEq, _ := r.OpeningEquity.Float64()
	oeRow := rs.put(t("Equity at beginning of period"), excelize.Cell{StyleID: st.money, Value: openEq})
	formulas := map[string]string{
		"gross_margin":  fmt.Sprintf(`IF(%[1]s=0,"",(%[1]s-%[2]s)/%[1]s)`, refs["revenue"], refs["cogs"]),
		"net_margin":    fmt.Sprintf(`IF(%[1]s=0,"",%[2]s/%[1]s)`, refs["revenue"], refs["net_income"]),
		"current_ratio": fmt.Sprintf(`IF(%[2]s=0,"",%[1]s/%[2]s)`, refs["current_assets"], refs["current_liabilities"]),
		"debt_ratio":    fmt.Sprintf(`IF(%[2]s=0,"",%[1]s/%[2]s)`, refs["total_liabilities"], refs["total_assets"]),
		"roe":           fmt.Sprintf(`IF(IF(B%[3]d=0,%[2]s,(%[2]s+B%[3]d)/2)=0,"",%[1]s/IF(B%[3]d=0,%[2]s,(%[2]s+B%[3]d)/2))`, refs["net_income"], refs["total_equity"], oeRow),
	}
	for _, ra := range r.Ratios {
		var v any = ""
		if ra.Value != nil {
			v, _ = ra.Value.Float64()
		}
		style := st.pct
		if ra.Key == "current_ratio" {
			style = st.money
		}
		row := rs.put(ra.Name, excelize.Cell{StyleID: style, Formula: formulas[ra.Key], Value: v}, excelize.Cell{StyleID: st.note, Value: ra.Formula})
		refs[ra.Key] = rs.xref(row)
	}
	return rs.sw.Flush()
}
