package finance

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type rig struct {
	f *fintool
	t tool.Tool
	d *tool.Deps
}

func newRig(t *testing.T, db *storetest.DB, now time.Time) *rig {
	t.Helper()
	f, tl, d := tooltest.Records(t, db, lifecycle, "Asia/Shanghai")
	f.now = func() time.Time { return now }
	return &rig{f: f, t: tl, d: d}
}

func (r *rig) must(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.MustRun(t, r.t, args)
}

func (r *rig) count(t *testing.T) int {
	t.Helper()
	return tooltest.Count(t, r.d, `SELECT COUNT(*) FROM finance_entries`)
}

func (r *rig) fixture(t *testing.T, name string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	raw := tooltest.ReadFile(t, filepath.Join(filepath.Dir(here), "..", "..", "fixtures", "finance", name))
	tooltest.WriteFile(t, filepath.Join(r.d.Config.Workspace[0], "bills", name), raw)
	return "bills/" + name
}

var april = time.Date(2024, 4, 30, 20, 0, 0, 0, time.UTC) // 2024-05-01 04:00 in Shanghai

// TestFinanceAmounts_Exact: decimal strings and integer cents give the
// same cents, sums are integer (0.1 + 0.2 is 0.30), fractional cents are
// refused, and "today" is the configured zone's date.
func TestFinanceAmounts_Exact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		for _, tc := range []struct {
			in   string
			want int64
			bad  bool
		}{{"12.5", 1250, false}, {"1,234.56", 123456, false}, {"¥0.10", 10, false}, {"-3", -300, false}, {"0.20元", 20, false},
			{"12.345", 0, true}, {"1e3", 0, true}, {"abc", 0, true}, {"", 0, true}, {"0x10", 0, true}} {
			got, err := parseAmount(tc.in)
			if tc.bad != (err != nil) || got != tc.want {
				t.Errorf("parseAmount(%q) = %d, %v", tc.in, got, err)
			}
		}
		r := newRig(t, db, april)
		a := r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "0.1", "category": "snack"})
		if a["date"] != "2024-05-01" || a["amount_cents"] != int64(10) {
			t.Fatalf("add = %v", a)
		}
		r.must(t, map[string]any{"action": "add", "kind": "expense", "amount_cents": 20, "category": "snack", "date": "2024-05-01"})
		l := r.must(t, map[string]any{"action": "list", "from": "2024-05"})
		if l["expense"] != "0.30" || len(l["entries"].([]map[string]any)) != 2 {
			t.Fatalf("list = %v", l)
		}
	})
}

// TestFinanceBadInput_NamesFieldWritesNothing: each wrong or missing field
// is named in the error and no row is written.
func TestFinanceBadInput_NamesFieldWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		ok := map[string]any{"action": "add", "kind": "expense", "amount": "5", "category": "food"}
		for _, tc := range []struct {
			change map[string]any
			drop   string
			field  string
		}{
			{map[string]any{"amount": "5.001"}, "", "amount"},
			{map[string]any{"amount": "five"}, "", "amount"},
			{map[string]any{"amount": "0"}, "", "amount"},
			{map[string]any{"amount": "-5"}, "", "amount"},
			{nil, "amount", "amount"},
			{map[string]any{"amount_cents": 500}, "", "amount"}, // both given
			{map[string]any{"category": "  "}, "", "category"},
			{nil, "category", "category"},
			{map[string]any{"kind": "loan"}, "", "kind"},
			{nil, "kind", "kind"},
			{map[string]any{"date": "2024-02-30"}, "", "date"},
			{map[string]any{"date": "yesterday"}, "", "date"},
			{map[string]any{"account": ""}, "", "account"},
		} {
			args := map[string]any{}
			for k, v := range ok {
				args[k] = v
			}
			for k, v := range tc.change {
				args[k] = v
			}
			delete(args, tc.drop)
			tooltest.RefusedNaming(t, r.t, args, tc.field)
		}
		for _, args := range []map[string]any{
			{"action": "budget_set", "category": "food", "amount": "1.234"},
			{"action": "budget_set", "category": "food", "amount": "100", "month": "2024-13"},
			{"action": "budget_check", "month": "May"},
			{"action": "list", "from": "2024-05-01", "to": "2024-04-01"},
		} {
			if _, err := tooltest.Run(t, r.t, args); err == nil {
				t.Errorf("%v: accepted", args)
			}
		}
		if n := r.count(t); n != 0 {
			t.Fatalf("%d rows written by refused calls", n)
		}
	})
}

// TestFinanceSummary_MonthOverMonth: totals by month, category and account
// and the month-over-month change, exact.
func TestFinanceSummary_MonthOverMonth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		for _, e := range []map[string]any{
			{"kind": "income", "amount": "8000", "category": "salary", "account": "bank", "date": "2024-03-10"},
			{"kind": "expense", "amount": "200.10", "category": "food", "date": "2024-03-11"},
			{"kind": "expense", "amount": "50", "category": "transport", "date": "2024-03-31"},
			{"kind": "expense", "amount": "300.20", "category": "food", "date": "2024-04-01"},
			{"kind": "expense", "amount": "75.05", "category": "transport", "account": "bank", "date": "2024-04-30"},
		} {
			e["action"] = "add"
			r.must(t, e)
		}
		s := r.must(t, map[string]any{"action": "summary", "from": "2024-03", "to": "2024-04"})
		if s["income"] != "8000.00" || s["expense"] != "625.35" || s["net"] != "7374.65" {
			t.Fatalf("totals = %v", s)
		}
		months := s["by_month"].([]map[string]any)
		if len(months) != 2 || months[0]["expense"] != "250.10" || months[1]["expense"] != "375.25" ||
			months[1]["expense_change"] != "125.15" || months[1]["expense_change_percent"] != "50.0" || months[1]["income_change"] != "-8000.00" {
			t.Fatalf("by_month = %v", months)
		}
		cats := s["by_category"].([]map[string]any)
		if len(cats) != 3 || cats[0]["category"] != "food" || cats[0]["amount"] != "500.30" {
			t.Fatalf("by_category = %v", cats)
		}
		accts := s["by_account"].([]map[string]any)
		if len(accts) != 2 || accts[0]["account"] != "bank" || accts[0]["net"] != "7924.95" || accts[1]["expense"] != "550.30" {
			t.Fatalf("by_account = %v", accts)
		}
	})
}

// TestFinanceBudget_OverFlagged: a month's own budget wins over the every-
// month one; spent, remaining and over_budget are exact.
func TestFinanceBudget_OverFlagged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		r.must(t, map[string]any{"action": "budget_set", "category": "food", "amount": "500"})
		r.must(t, map[string]any{"action": "budget_set", "category": "food", "amount": "250", "month": "2024-04"})
		r.must(t, map[string]any{"action": "budget_set", "category": "transport", "amount_cents": 10000})
		r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "250.01", "category": "food", "date": "2024-04-02"})
		r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "99.99", "category": "transport", "date": "2024-04-02"})
		r.must(t, map[string]any{"action": "add", "kind": "income", "amount": "1000", "category": "food", "date": "2024-04-02"}) // income is not spending
		c := r.must(t, map[string]any{"action": "budget_check", "month": "2024-04"})
		bs := c["budgets"].([]map[string]any)
		if c["over_budget"] != 1 || len(bs) != 2 || bs[0]["budget"] != "250.00" || bs[0]["remaining"] != "-0.01" || bs[0]["over_budget"] != true ||
			bs[1]["remaining"] != "0.01" || bs[1]["over_budget"] != false {
			t.Fatalf("check = %v", c)
		}
		may := r.must(t, map[string]any{"action": "budget_check"}) // this month in Shanghai: 2024-05
		if may["month"] != "2024-05" || may["budgets"].([]map[string]any)[0]["budget"] != "500.00" {
			t.Fatalf("default month = %v", may)
		}
	})
}

// TestFinanceImport_RealFormats: Alipay (GBK), WeChat Pay (UTF-8 BOM) and a
// GBK bank CSV with a mapping import with their exact amounts; neutral rows
// are kept out of the totals, closed rows left out; identical rows within a file both count; the
// same file again adds nothing.
func TestFinanceImport_RealFormats(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		al := r.must(t, map[string]any{"action": "import", "path": r.fixture(t, "alipay_2024.csv")})
		if al["format"] != "alipay" || al["added"] != 5 || al["skipped"].(map[string]int)["closed or failed"] != 1 {
			t.Fatalf("alipay = %v", al)
		}
		wx := r.must(t, map[string]any{"action": "import", "path": r.fixture(t, "wechat_2024.csv")})
		if wx["format"] != "wechat" || wx["added"] != 5 {
			t.Fatalf("wechat = %v", wx)
		}
		bankArgs := map[string]any{"action": "import", "path": r.fixture(t, "icbc_gbk.csv"), "account": "icbc",
			"mapping": map[string]any{"date": "交易日期", "income": "收入金额", "expense": "支出金额", "note": "摘要"}}
		bk := r.must(t, bankArgs)
		if bk["format"] != "csv" || bk["added"] != 4 {
			t.Fatalf("bank = %v", bk)
		}
		if n := r.count(t); n != 14 {
			t.Fatalf("%d rows", n)
		}
		for _, again := range []map[string]any{
			{"action": "import", "path": "bills/alipay_2024.csv"},
			{"action": "import", "path": "bills/wechat_2024.csv", "format": "wechat"},
			bankArgs,
		} {
			if m := r.must(t, again); m["added"] != 0 || m["duplicates"] == 0 {
				t.Fatalf("second import of %v = %v", again["path"], m)
			}
		}
		if n := r.count(t); n != 14 {
			t.Fatalf("%d rows after importing again", n)
		}
		s := r.must(t, map[string]any{"action": "summary"})
		// alipay: in 8000.00, out 25.50+45.80+100.00; wechat: in 66.00, out 12.50*2+29.50; bank: in 12000.00, out 6*2+4500
		if s["income"] != "20066.00" || s["expense"] != "4737.80" {
			t.Fatalf("imported totals = %v", s)
		}
		l := r.must(t, map[string]any{"action": "list", "account": "alipay", "category": "餐饮美食"})
		e := l["entries"].([]map[string]any)
		if len(e) != 1 || e[0]["amount"] != "25.50" || e[0]["date"] != "2024-04-28" || !strings.Contains(e[0]["note"].(string), "沙县小吃") {
			t.Fatalf("alipay row = %v", e)
		}
		l = r.must(t, map[string]any{"action": "list", "account": "icbc", "kind": "income"})
		if e := l["entries"].([]map[string]any); len(e) != 1 || e[0]["amount"] != "12000.00" || e[0]["note"] != "工资" {
			t.Fatalf("bank row = %v", e)
		}
	})
}

// TestFinanceImport_BadFileWritesNothing: a row with a bad amount or date
// stops the import with its line and column; a mapping naming a missing
// column is named; nothing is written.
func TestFinanceImport_BadFileWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		ws := r.d.Config.Workspace[0]
		tooltest.WriteFile(t, filepath.Join(ws, "b.csv"), []byte("Date,Amount,Memo\n2024-04-01,-5.00,ok\n2024-04-02,-5.005,bad\n"))
		tooltest.WriteFile(t, filepath.Join(ws, "d.csv"), []byte("Date,Amount,Memo\n2024-04-01,-5.00,ok\n2024-13-02,-5.00,bad\n"))
		for _, tc := range []struct {
			args  map[string]any
			field string
			want  string
		}{
			{map[string]any{"path": "b.csv", "mapping": map[string]any{"date": "Date", "amount": "Amount"}}, "path", "line 3, column Amount"},
			{map[string]any{"path": "d.csv", "mapping": map[string]any{"date": "Date", "amount": "Amount"}}, "path", "line 3, column Date"},
			{map[string]any{"path": "b.csv", "mapping": map[string]any{"date": "Date", "amount": "Betrag"}}, "mapping", `no column "Betrag"`},
			{map[string]any{"path": "b.csv"}, "mapping", "mapping.date is required"},
			{map[string]any{"path": "b.csv", "format": "alipay"}, "format", "no alipay header"},
			{map[string]any{"path": "b.csv", "encoding": "utf-8", "mapping": map[string]any{"date": "Date", "amount": "Amount", "income": "Memo"}}, "mapping", "not both"},
		} {
			tc.args["action"] = "import"
			_, err := tooltest.Run(t, r.t, tc.args)
			te := tooltest.ToolError(t, err, tool.CodeInvalid)
			if te.Field != tc.field || !strings.Contains(te.Message, tc.want) {
				t.Errorf("%v: %s: %s, want %s: %s", tc.args, te.Field, te.Message, tc.field, tc.want)
			}
		}
		// A missing file is not_found, as every input reader answers it
		// (tool.ReadRegular).
		_, err := tooltest.Run(t, r.t, map[string]any{"action": "import", "path": "missing.csv", "mapping": map[string]any{"date": "Date", "amount": "Amount"}})
		if te := tooltest.ToolError(t, err, tool.CodeNotFound); te.Field != "path" || !strings.Contains(te.Message, "missing.csv") {
			t.Errorf("missing file: %+v", te)
		}
		// GBK read as UTF-8 on request is refused, not mangled.
		r.fixture(t, "icbc_gbk.csv")
		_, err = tooltest.Run(t, r.t, map[string]any{"action": "import", "path": "bills/icbc_gbk.csv", "encoding": "utf-8", "mapping": map[string]any{"date": "交易日期", "amount": "收入金额"}})
		if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "encoding" {
			t.Fatalf("field %s", te.Field)
		}
		if n := r.count(t); n != 0 {
			t.Fatalf("%d rows written by refused imports", n)
		}
	})
}

// TestFinanceTrash_DeleteRestore: delete moves an entry to the trash;
// restore brings it back whole.
func TestFinanceTrash_DeleteRestore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		a := r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "9.90", "category": "book", "note": "小说"})
		id := a["id"].(string)
		r.must(t, map[string]any{"action": "delete", "id": id})
		if r.count(t) != 0 {
			t.Fatal("not deleted")
		}
		if items, _ := r.d.Store.(*store.Store).TrashList("finance"); len(items) != 1 || items[0].ID != id {
			t.Fatalf("trash = %v", items)
		}
		back := r.must(t, map[string]any{"action": "restore", "id": id})
		if back["amount"] != "9.90" || back["note"] != "小说" || r.count(t) != 1 {
			t.Fatalf("restored %v", back)
		}
		// An id with nothing under it is not_found on id, in the trash or not.
		_, err := tooltest.Run(t, r.t, map[string]any{"action": "restore", "id": id})
		if te := tooltest.ToolError(t, err, tool.CodeNotFound); te.Field != "id" {
			t.Errorf("restore again: field %q", te.Field)
		}
		_, err = tooltest.Run(t, r.t, map[string]any{"action": "delete", "id": "nope"})
		if te := tooltest.ToolError(t, err, tool.CodeNotFound); te.Field != "id" {
			t.Errorf("delete nope: field %q", te.Field)
		}
	})
}

// TestFinanceExport_FormulaTotals: the xlsx totals are SUM/SUMIFS formulas
// with exact cached values, and LibreOffice recalculating them gets the
// same numbers.
func TestFinanceExport_FormulaTotals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		for _, e := range []map[string]any{
			{"kind": "income", "amount": "1000.10", "category": "salary", "date": "2024-04-01"},
			{"kind": "expense", "amount": "0.10", "category": "food", "date": "2024-04-02"},
			{"kind": "expense", "amount": "0.20", "category": "food", "date": "2024-04-03"},
			{"kind": "expense", "amount": "33.33", "category": "交通", "date": "2024-04-04"},
		} {
			e["action"] = "add"
			r.must(t, e)
		}
		x := r.must(t, map[string]any{"action": "export"})
		if x["expense"] != "33.63" || x["net"] != "966.47" {
			t.Fatalf("export = %v", x)
		}
		path := filepath.Join(r.d.Config.Workspace[0], x["path"].(string))
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for cell, want := range map[string]string{"E6": "SUM(E2:E5)", "F6": "SUM(F2:F5)", "E7": "E6-F6"} {
			if fo, _ := f.GetCellFormula("Entries", cell); fo != want {
				t.Errorf("Entries!%s formula = %q, want %q", cell, fo, want)
			}
		}
		if fo, _ := f.GetCellFormula("By category", "C2"); !strings.HasPrefix(fo, "SUMIFS(Entries!F$2:F$5") {
			t.Errorf("by category formula = %q", fo)
		}
		f.Close()
		lo := officetest.SheetsCSV(t, path)
		find := func(sheet, label string, col int) string {
			for _, row := range lo["finance-"+sheet] {
				if len(row) > col && (row[0] == label || (len(row) > 1 && row[1] == label)) {
					return row[col]
				}
			}
			t.Errorf("%s: no row %q in %v", sheet, label, lo["finance-"+sheet])
			return ""
		}
		for _, c := range []struct {
			sheet, label string
			col          int
			want         string
		}{{"Entries", "Total", 4, "1000.1"}, {"Entries", "Total", 5, "33.63"}, {"Entries", "Net", 4, "966.47"},
			{"By category", "food", 2, "0.3"}, {"By category", "交通", 2, "33.33"}, {"By category", "salary", 2, "1000.1"}} {
			if got := find(c.sheet, c.label, c.col); got != c.want {
				t.Errorf("LibreOffice %s %s = %q, want %s", c.sheet, c.label, got, c.want)
			}
		}
	})
}
