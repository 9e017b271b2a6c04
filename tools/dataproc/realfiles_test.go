package dataproc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// Regression tests on workbooks other programs wrote (fixtures/data/SOURCES.md).

// TestXLSXDates_NumberFormatDecides: in exceljs's gold.xlsx the numbers 3.14
// and 5 share a column with a date; only the date cell's own format (id 14)
// makes it a date, in read and in query.
func TestXLSXDates_NumberFormatDecides(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "read", "path": "data/gold.xlsx", "header": false})
	got := map[string]any{}
	for _, r := range rows(d, "rows") {
		got[r[0].(string)] = r[1]
	}
	if got["Number"] != 3.14 || got["Integer"] != float64(5) || got["Date"] != "2016-05-17" {
		t.Fatalf("gold.xlsx values = %v, want Number 3.14, Integer 5, Date 2016-05-17", got)
	}
	q := e.call(map[string]any{"action": "query", "paths": []any{"data/gold.xlsx"}, "header": false,
		"sql": "SELECT col_2 FROM gold WHERE col_1 IN ('Number', 'Integer', 'Date') ORDER BY col_1"})
	rs := rows(q["result"].(map[string]any), "rows")
	if len(rs) != 3 || rs[0][0] != "2016-05-17" || rs[1][0] != float64(5) || rs[2][0] != 3.14 {
		t.Fatalf("query rows = %v, want 2016-05-17, 5, 3.14", rs)
	}
}

// TestXLSXDates_Date1904: tealeg's testcelltypes.xlsx counts days from 1904;
// its date cell (serial 40543) is 2015-01-01.
func TestXLSXDates_Date1904(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "read", "path": "data/testcelltypes.xlsx", "header": false})
	got := map[string]any{}
	for _, r := range rows(d, "rows") {
		got[r[1].(string)] = r[0]
	}
	if got["date"] != "2015-01-01" {
		t.Fatalf("date cell = %v, want 2015-01-01 (1904 date system)", got["date"])
	}
	if got["bool"] != "true" || got["float"] != 1.024 || got["error"] != "#DIV/0!" {
		t.Fatalf("cells = %v", got)
	}
}

// TestXLSXBooleans_TypedBoolean: boolean cells read as true/false and a
// column of them is typed boolean, not integer 1/0, and its cells are
// booleans, not the strings "true"/"false" (they were).
func TestXLSXBooleans_TypedBoolean(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for i, v := range []any{"paid", true, false, true} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetCellValue("Sheet1", cell, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(filepath.Join(e.root, "data", "bools.xlsx")); err != nil {
		t.Fatal(err)
	}
	d := e.call(map[string]any{"action": "read", "path": "data/bools.xlsx"})
	col := d["columns"].([]any)[0].(map[string]any)
	if col["type"] != "boolean" {
		t.Fatalf("column = %v, want type boolean", col)
	}
	if rs := rows(d, "rows"); len(rs) != 3 || rs[0][0] != true || rs[1][0] != false || rs[2][0] != true {
		t.Fatalf("rows = %v, want true, false, true", rs)
	}
	// query answers the same column with booleans too; SQL still sees the
	// file's spellings, and an expression over it is not retyped.
	q := e.call(map[string]any{"action": "query", "paths": []any{"data/bools.xlsx"},
		"sql": "SELECT paid, paid = 'true' AS is_true FROM bools"})
	if rs := rows(q["result"].(map[string]any), "rows"); len(rs) != 3 || rs[0][0] != true || rs[1][0] != false || rs[0][1] != float64(1) {
		t.Fatalf("query rows = %v, want [true 1] [false 0] [true 1]", rs)
	}
}

// TestXLSXSheets_ChartSheetNeverDefault: exceljs's chart-sheet.xlsx has a
// chart sheet before Sheet1; read defaults to Sheet1, sheets lists only
// what read accepts, and naming the chart sheet says what it is.
func TestXLSXSheets_ChartSheetNeverDefault(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "read", "path": "data/chart-sheet.xlsx"})
	if d["sheet"] != "Sheet1" || d["total_rows"] != float64(6) {
		t.Fatalf("read sheet %v with %v rows, want Sheet1 with 6", d["sheet"], d["total_rows"])
	}
	s := e.call(map[string]any{"action": "sheets", "path": "data/chart-sheet.xlsx"})
	list := s["sheets"].([]any)
	for _, it := range list {
		name := it.(map[string]any)["name"].(string)
		e.call(map[string]any{"action": "read", "path": "data/chart-sheet.xlsx", "sheet": name})
	}
	if len(list) != 1 || s["other_sheets"] == nil {
		t.Fatalf("sheets = %v", s)
	}
	te := e.fail(map[string]any{"action": "read", "path": "data/chart-sheet.xlsx", "sheet": "Chart1"})
	if te.Code != tool.CodeInvalid || !strings.Contains(te.Message, "chart sheet") || !strings.Contains(te.Hint, "Sheet1") {
		t.Fatalf("error = %+v", te)
	}
	// Numbers count among worksheets, as sheets shows them.
	if d := e.call(map[string]any{"action": "read", "path": "data/chart-sheet.xlsx", "sheet": "1"}); d["sheet"] != "Sheet1" {
		t.Fatalf("sheet 1 = %v", d["sheet"])
	}
}

// TestXLSXErrors_EncryptedAndEmpty: an Office-encrypted workbook (excelize's
// encryptAES.xlsx, an OLE container) says it is password-protected; a
// workbook without worksheets (tealeg's badfile_noWorksheets.xlsx) says so.
func TestXLSXErrors_EncryptedAndEmpty(t *testing.T) {
	e := newEnv(t)
	for _, action := range []string{"read", "sheets"} {
		te := e.fail(map[string]any{"action": action, "path": "data/encryptAES.xlsx"})
		if te.Code != tool.CodeInvalid || !strings.Contains(te.Message, "password-protected") || strings.Contains(te.Message, "zip") {
			t.Fatalf("%s encrypted: %+v", action, te)
		}
		te = e.fail(map[string]any{"action": action, "path": "data/badfile_noWorksheets.xlsx"})
		if te.Code != tool.CodeInvalid || !strings.Contains(te.Message, "no worksheets") {
			t.Fatalf("%s no worksheets: %+v", action, te)
		}
	}
}

// TestXLSXSheets_DefaultIsFirstWithData: an empty first worksheet is
// passed over for the first one holding cells.
func TestXLSXSheets_DefaultIsFirstWithData(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	if _, err := f.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	for i, v := range []any{"n", 1, 2} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetCellValue("Data", cell, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(filepath.Join(e.root, "data", "second.xlsx")); err != nil {
		t.Fatal(err)
	}
	if d := e.call(map[string]any{"action": "read", "path": "data/second.xlsx"}); d["sheet"] != "Data" || d["total_rows"] != float64(2) {
		t.Fatalf("read sheet %v (%v rows), want Data (2)", d["sheet"], d["total_rows"])
	}
}
