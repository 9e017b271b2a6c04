package finance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// degFixture copies one of double-entry-generator's example exports
// (fixtures/finance/deg, see SOURCES.md) into the workspace.
func (r *rig) degFixture(t *testing.T, name string) string {
	t.Helper()
	return r.fixture(t, filepath.Join("deg", name))
}

// kindTotals lists one kind's entries of an account: how many, and their sum.
func (r *rig) kindTotals(t *testing.T, account, kind string) (int, string) {
	t.Helper()
	l := r.must(t, map[string]any{"action": "list", "account": account, "kind": kind})
	n := len(l["entries"].([]map[string]any))
	sum := l[kind]
	if sum == nil {
		sum = "0.00"
	}
	return n, sum.(string)
}

// TestFinanceImport_RealBankExports: real exports import every row with
// the kind and amount an independent reader (Python's csv) gives them.
// HSBC pads quoted amounts with a tab after the closing quote ("-18.00"<tab>,)
// and writes dates day first; BOCOM's type column says "贷 Cr"/"借 Dr"; JD
// says 不计收支 and "131.77(已退款89.84)"; ABC leaves empty cells off a
// row's end; a CGB card's negative amount in the expense column is money
// back. Before, HSBC imported 0 rows and reported success, BOCOM and JD were
// refused and ABC lost its short row.
func TestFinanceImport_RealBankExports(t *testing.T) {
	type want struct {
		kind  string
		n     int
		total string
	}
	for _, tc := range []struct {
		file    string
		mapping map[string]any
		format  string
		want    []want
	}{
		{"hsbchk_credit-records.csv", map[string]any{"date": "Transaction date", "amount": "Billing amount", "type": "Credit / Debit", "note": "Description"}, "csv",
			[]want{{"expense", 9, "1586.79"}, {"income", 2, "3291.16"}}},
		{"hsbchk_debit-records.csv", map[string]any{"date": "Date", "amount": "Billing amount", "note": "Description"}, "csv",
			[]want{{"expense", 6, "3526.50"}, {"income", 4, "25505.45"}}},
		{"bocom_debit-records.csv", map[string]any{"date": "交易日期", "amount": "交易金额", "type": "借贷", "note": "交易类型"}, "csv",
			[]want{{"expense", 3, "114.00"}, {"income", 3, "11.25"}}},
		{"jd-records.csv", nil, "jd", []want{{"expense", 16, "1648.43"}, {"neutral", 7, "1133.20"}, {"income", 0, "0.00"}}},
		{"jd-records.csv", map[string]any{"date": "交易时间", "amount": "金额", "type": "收/支", "note": "交易说明"}, "csv",
			[]want{{"expense", 16, "1648.43"}, {"neutral", 7, "1133.20"}}},
		{"abc_debit-records.csv", map[string]any{"date": "交易日期", "amount": "交易金额", "note": "交易摘要"}, "csv",
			[]want{{"expense", 2, "12355.89"}, {"income", 2, "10000.01"}}},
		{"cgb_credit-records.csv", map[string]any{"date": "交易日期", "expense": "入账金额", "note": "交易摘要"}, "csv",
			[]want{{"expense", 2, "403.32"}, {"income", 2, "1227.88"}}},
		{"wechat-records.csv", nil, "wechat", []want{{"expense", 11, "2904.53"}, {"income", 5, "28.49"}, {"neutral", 11, "26100.89"}}},
	} {
		t.Run(tc.file+"/"+tc.format, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *storetest.DB) {
				r := newRig(t, db, april)
				args := map[string]any{"action": "import", "path": r.degFixture(t, tc.file), "account": "bank"}
				if tc.mapping != nil {
					args["mapping"] = tc.mapping
				}
				res := r.must(t, args)
				if res["format"] != tc.format {
					t.Fatalf("format = %v", res)
				}
				rows := 0
				for _, w := range tc.want {
					rows += w.n
					if n, total := r.kindTotals(t, "bank", w.kind); n != w.n || total != w.total {
						t.Errorf("%s: %d entries, %s; want %d, %s", w.kind, n, total, w.n, w.total)
					}
				}
				if res["rows"] != rows {
					t.Errorf("import = %v, want %d rows", res, rows)
				}
				// Neutral rows are in no total.
				s := r.must(t, map[string]any{"action": "summary", "account": "bank"})
				for _, w := range tc.want {
					if w.kind != "neutral" && w.n > 0 && s[w.kind] != w.total {
						t.Errorf("summary %s = %v, want %s", w.kind, s[w.kind], w.total)
					}
				}
			})
		})
	}
}

// TestFinanceImport_DayFirstDates: HSBC's 31/03/2025 settles the file as
// day first, so 09/04/2025 is 9 April; a file whose dates read both ways
// needs date_order, and says so.
func TestFinanceImport_DayFirstDates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		m := map[string]any{"date": "Date", "amount": "Billing amount", "note": "Description"}
		r.must(t, map[string]any{"action": "import", "path": r.degFixture(t, "hsbchk_debit-records.csv"), "mapping": m})
		l := r.must(t, map[string]any{"action": "list", "from": "2025-03-01", "to": "2025-03-01"})
		if e := l["entries"].([]map[string]any); len(e) != 1 || e[0]["note"] != "INTEREST CREDIT" || e[0]["amount"] != "5.45" {
			t.Fatalf("01/03/2025 = %v", e)
		}
		ws := r.d.Config.Workspace[0]
		tooltest.WriteFile(t, filepath.Join(ws, "us.csv"), []byte("Date,Amount\n05/01/2023,-1.96\n05/02/2023,-12.10\n"))
		_, err := tooltest.Run(t, r.t, map[string]any{"action": "import", "path": "us.csv", "mapping": map[string]any{"date": "Date", "amount": "Amount"}})
		if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "mapping" || !strings.Contains(te.Message, "date_order") {
			t.Fatalf("ambiguous dates: %v", te)
		}
		r.must(t, map[string]any{"action": "import", "path": "us.csv", "mapping": map[string]any{"date": "Date", "amount": "Amount", "date_order": "mdy"}})
		if l := r.must(t, map[string]any{"action": "list", "from": "2023-05-02", "to": "2023-05-02"}); len(l["entries"].([]map[string]any)) != 1 {
			t.Fatalf("05/02/2023 with mdy = %v", l)
		}
	})
}

// TestFinanceImport_WeChatXLSX: WeChat Pay's xlsx bill imports as its
// layout, row for row the entries of the same bill as CSV (same hashes:
// the CSV after it adds nothing).
func TestFinanceImport_WeChatXLSX(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		x := r.must(t, map[string]any{"action": "import", "path": r.degFixture(t, "wechat-records.xlsx")})
		if x["format"] != "wechat" || x["added"] != 27 {
			t.Fatalf("xlsx = %v", x)
		}
		c := r.must(t, map[string]any{"action": "import", "path": r.degFixture(t, "wechat-records.csv")})
		if c["rows"] != 27 || c["added"] != 0 {
			t.Fatalf("csv after xlsx = %v", c)
		}
		if n, total := r.kindTotals(t, "wechat", "expense"); n != 11 || total != "2904.53" {
			t.Fatalf("expense %d %s", n, total)
		}
	})
}

// TestFinanceImport_NothingReadIsAnError: a file that yields no entry is
// an error that says why, and writes nothing: a quoted cell that never
// closes (it used to swallow the rest of the file), rows that are all
// footers or zero, an old .xls workbook.
func TestFinanceImport_NothingReadIsAnError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		ws := r.d.Config.Workspace[0]
		tooltest.WriteFile(t, filepath.Join(ws, "open.csv"), []byte("Date,Amount\n2024-04-01,\"-5.00\n2024-04-02,-6.00\n"))
		tooltest.WriteFile(t, filepath.Join(ws, "zero.csv"), []byte("Date,Amount\n2024-04-01,0.00\nTotal,0.00\n"))
		tooltest.WriteFile(t, filepath.Join(ws, "head.csv"), []byte("note\nDate,Amount\n"))
		tooltest.WriteFile(t, filepath.Join(ws, "old.xls"), []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00"))
		m := map[string]any{"date": "Date", "amount": "Amount"}
		for _, tc := range []struct{ path, want string }{
			{"open.csv", "line 2: a quoted cell is never closed"},
			{"zero.csv", "none of the 2 rows after the header on line 1 is an entry (1 footer or blank, 1 zero amount)"},
			{"head.csv", "no rows follow the header on line 2"},
			{"old.xls", "Excel 97-2003"},
		} {
			_, err := tooltest.Run(t, r.t, map[string]any{"action": "import", "path": tc.path, "mapping": m})
			if te := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(te.Message, tc.want) {
				t.Errorf("%s: %s, want %q", tc.path, te.Message, tc.want)
			}
		}
		if n := r.count(t); n != 0 {
			t.Fatalf("%d rows written", n)
		}
	})
}

// TestFinanceSummary_CalendarMonths: a month is compared with the calendar
// month before it, not the last month that had entries: March after an
// empty February is all change, February is listed with zeros, and a range
// starting in March compares March with February read for that.
func TestFinanceSummary_CalendarMonths(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, april)
		r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "100", "category": "food", "date": "2024-01-15"})
		r.must(t, map[string]any{"action": "add", "kind": "expense", "amount": "150", "category": "food", "date": "2024-03-15"})
		months := r.must(t, map[string]any{"action": "summary"})["by_month"].([]map[string]any)
		if len(months) != 3 || months[1]["month"] != "2024-02" || months[1]["expense"] != "0.00" || months[1]["expense_change"] != "-100.00" ||
			months[2]["expense_change"] != "150.00" || months[2]["expense_change_percent"] != nil || months[0]["expense_change"] != nil {
			t.Fatalf("by_month = %v", months)
		}
		months = r.must(t, map[string]any{"action": "summary", "from": "2024-03"})["by_month"].([]map[string]any)
		if len(months) != 1 || months[0]["expense_change"] != "150.00" {
			t.Fatalf("from March = %v", months)
		}
		months = r.must(t, map[string]any{"action": "summary", "from": "2024-02", "to": "2024-03"})["by_month"].([]map[string]any)
		if len(months) != 2 || months[0]["expense_change"] != "-100.00" || months[1]["expense_change"] != "150.00" {
			t.Fatalf("February to March = %v", months)
		}
	})
}
