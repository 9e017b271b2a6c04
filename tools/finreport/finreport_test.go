package finreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const fixtureDir = "../../fixtures/data"

type env struct {
	t    *testing.T
	tl   tool.Tool
	root string
}

func newEnv(t *testing.T) *env {
	d := tooltest.Deps(t)
	root := d.Sandbox.Root()
	os.MkdirAll(filepath.Join(root, "books"), 0o755)
	for _, n := range []string{"ledger_balanced.csv", "ledger_unbalanced.csv"} {
		b := tooltest.ReadFile(t, filepath.Join(fixtureDir, n))
		os.WriteFile(filepath.Join(root, "books", n), b, 0o644)
	}
	return &env{t: t, tl: tooltest.Build(t, New, d), root: root}
}

func (e *env) run(args map[string]any) (map[string]any, *tool.Result, error) {
	res, err := tooltest.Run(e.t, e.tl, args)
	if err != nil {
		return nil, nil, err
	}
	return tooltest.JSONMap(e.t, res.Data), res, nil
}

func get(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		v = v.(map[string]any)[k]
	}
	return v
}

func TestBalancedLedger(t *testing.T) {
	e := newEnv(t)
	d, _, err := e.run(map[string]any{"action": "check", "path": "books/ledger_balanced.csv", "start": "2024-01-01", "end": "2024-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"income_statement.revenue": "30000.00", "income_statement.gross_profit": "12000.00", "income_statement.operating_expenses": "3500.00",
		"income_statement.net_income": "6500.00", "balance_sheet.current_assets": "132000.00", "balance_sheet.non_current_assets": "61500.00",
		"balance_sheet.total_assets": "193500.00", "balance_sheet.current_liabilities": "37000.00", "balance_sheet.non_current_liabilities": "50000.00",
		"balance_sheet.total_equity": "106500.00", "cash_flow.operating": "12000.00", "cash_flow.investing": "-12000.00", "cash_flow.financing": "-5000.00",
		"cash_flow.net_change": "-5000.00", "cash_flow.reconciliation_gap": "0.00", "check.gap": "0.00",
		"ratios.gross_margin": "0.4", "ratios.net_margin": "0.2167", "ratios.current_ratio": "3.5676", "ratios.debt_ratio": "0.4496", "ratios.roe": "0.063",
	}
	for k, v := range want {
		if got := get(d, k); got != v {
			t.Errorf("%s = %v, want %s", k, got, v)
		}
	}
	if get(d, "check.balanced") != true {
		t.Fatal("balanced ledger reported unbalanced")
	}
}

func TestUnbalancedLedger(t *testing.T) {
	e := newEnv(t)
	d, res, err := e.run(map[string]any{"action": "check", "path": "books/ledger_unbalanced.csv", "start": "2024-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	if get(d, "check.balanced") != false || get(d, "check.gap") != "300.00" || get(d, "check.debits") != "305500.00" || get(d, "check.credits") != "305200.00" {
		t.Fatalf("check = %v", d["check"])
	}
	if !strings.Contains(res.Summary, "do not balance") || !strings.Contains(res.Summary, "gap 300.00") {
		t.Fatalf("summary = %s", res.Summary)
	}
}

func TestReportWorkbookLibreOffice(t *testing.T) {
	e := newEnv(t)
	d, res, err := e.run(map[string]any{"action": "report", "path": "books/ledger_balanced.csv", "start": "2024-01-01", "end": "2024-03-31", "company": "示例公司", "output": "out/q1.xlsx"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || !strings.HasSuffix(res.Files[1].Path, "q1.md") {
		t.Fatalf("files = %+v", res.Files)
	}
	md, _ := os.ReadFile(res.Files[1].Path)
	for _, s := range []string{"# 示例公司 利润表", "| **净利润** | **6,500.00** |", "毛利率", "40.00%", "✅"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	xlsx := res.Files[0].Path
	// The workbook holds live formulas.
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	cells := get(d, "cells").(map[string]any)
	formulaOf := func(ref string) string {
		sheet, cell, _ := strings.Cut(ref, "!")
		fo, _ := f.GetCellFormula(strings.Trim(sheet, "'"), cell)
		return fo
	}
	if fo := formulaOf(cells["total_assets"].(string)); !strings.Contains(fo, "+") {
		t.Errorf("total assets formula = %q", fo)
	}
	if fo := formulaOf(cells["gross_margin"].(string)); !strings.Contains(fo, "利润表") {
		t.Errorf("gross margin formula = %q", fo)
	}
	f.Close()
	// A probe whose cached value is wrong: LibreOffice must recalculate it,
	// which shows that the statement totals it prints come from formulas.
	probe := filepath.Join(t.TempDir(), "probe.xlsx")
	pf := excelize.NewFile()
	sw, _ := pf.NewStreamWriter("Sheet1")
	sw.SetRow("A1", []any{2, 3, excelize.Cell{Formula: "A1+B1", Value: 99}})
	sw.Flush()
	pf.SaveAs(probe)
	lo := officetest.SheetsCSV(t, xlsx, probe)
	if got := lo["probe-Sheet1"]; len(got) == 0 || got[0][2] != "5" {
		t.Fatalf("LibreOffice did not recalculate the probe: %v", got)
	}
	find := func(sheet, label string) string {
		for _, row := range lo["q1-"+sheet] {
			if len(row) > 1 && strings.TrimSpace(row[0]) == label {
				return row[1]
			}
		}
		t.Errorf("%s: no row %q in %v", sheet, label, lo["q1-"+sheet])
		return ""
	}
	checks := []struct{ sheet, label, want string }{
		{"利润表", "营业收入合计", "30000"}, {"利润表", "毛利", "12000"}, {"利润表", "净利润", "6500"},
		{"资产负债表", "资产总计", "193500"}, {"资产负债表", "负债和所有者权益总计", "193500"}, {"资产负债表", "校验：资产-（负债+所有者权益）", "0"},
		{"现金流量表", "经营活动现金流量净额", "12000"}, {"现金流量表", "现金净增加额", "-5000"}, {"现金流量表", "校验：现金实际变动-现金净增加额", "0"},
		{"财务比率", "毛利率", "40%"}, {"财务比率", "流动比率", "3.56756756756757"},
	}
	for _, c := range checks {
		if got := find(c.sheet, c.label); got != c.want {
			t.Errorf("%s / %s = %q, want %s", c.sheet, c.label, got, c.want)
		}
	}
	// Outputs are never silently replaced.
	if _, _, err := e.run(map[string]any{"action": "report", "path": "books/ledger_balanced.csv", "output": "out/q1.xlsx"}); err == nil {
		t.Fatal("overwrote an existing report")
	}
}

func TestLedgerFormsAndErrors(t *testing.T) {
	e := newEnv(t)
	en := "Posted,GL,Amount,Type\n2024-01-01,Cash,1000,cash\n2024-01-01,Owner capital,-1000,equity\n2024-01-05,Cash,250.10,cash\n2024-01-05,Consulting,(250.10),revenue\n2024-01-09,Rent,100,expense\n2024-01-09,Cash,-100,cash\n"
	os.WriteFile(filepath.Join(e.root, "books", "en.csv"), []byte(en), 0o644)
	d, _, err := e.run(map[string]any{"action": "check", "path": "books/en.csv", "columns": map[string]any{"date": "Posted", "account": "GL"}})
	if err != nil {
		t.Fatal(err)
	}
	if get(d, "income_statement.net_income") != "150.10" || get(d, "balance_sheet.total_assets") != "1150.10" || get(d, "check.balanced") != true {
		t.Fatalf("en ledger: %v %v", d["income_statement"], d["balance_sheet"])
	}
	bad := "日期,科目,借方,贷方\n2024-01-01,银行存款,abc,\n"
	os.WriteFile(filepath.Join(e.root, "books", "bad.csv"), []byte(bad), 0o644)
	_, _, err = e.run(map[string]any{"action": "check", "path": "books/bad.csv"})
	if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Message, `row 2, column "借方"`) {
		t.Fatalf("bad amount: %v", err)
	}
	unk := "date,account,debit,credit\n2024-01-01,Widget fund,5,\n"
	os.WriteFile(filepath.Join(e.root, "books", "unk.csv"), []byte(unk), 0o644)
	_, _, err = e.run(map[string]any{"action": "check", "path": "books/unk.csv"})
	if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Message, `"Widget fund"`) || !strings.Contains(te.Hint, "category") {
		t.Fatalf("unknown account: %v", err)
	}
}
