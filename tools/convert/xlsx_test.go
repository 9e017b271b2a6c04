package convert

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// dataFixture reads a workbook from fixtures/data (see SOURCES.md there).
func dataFixture(t *testing.T, name string) []byte {
	t.Helper()
	return tooltest.ReadFile(t, filepath.Join("..", "..", "fixtures", "data", name))
}

// TestXLSXDates_Date1904SameAsDataProcessor: tealeg's testcelltypes.xlsx
// is on the 1904 date system; xlsx->csv and xlsx->json read its date as
// 2015-01-01 (the cell reader data_processor uses), its boolean as a
// boolean and its error as text.
func TestXLSXDates_Date1904SameAsDataProcessor(t *testing.T) {
	e := newEnv(t, false)
	e.put("cells.xlsx", dataFixture(t, "testcelltypes.xlsx"))
	containsAll(t, "csv", e.output(map[string]any{"path": "cells.xlsx", "to": "csv", "output": "cells.csv"}),
		"2015-01-01,date", "true,bool", "1.024,float", "#DIV/0!,error")
	containsAll(t, "json", e.output(map[string]any{"path": "cells.xlsx", "to": "json", "output": "cells.json"}),
		`"hello world": "2015-01-01"`, `"hello world": true`, `"hello world": 12345`)
}

// TestXLSXDates_NumberFormatDecides: exceljs's gold.xlsx keeps 3.14 and 5
// numbers next to its date cell.
func TestXLSXDates_NumberFormatDecides(t *testing.T) {
	e := newEnv(t, false)
	e.put("gold.xlsx", dataFixture(t, "gold.xlsx"))
	containsAll(t, "csv", e.output(map[string]any{"path": "gold.xlsx", "to": "csv", "output": "gold.csv"}),
		"Number,3.14\n", "Integer,5\n", "Date,2016-05-17\n")
}

// TestXLSXSheets_ChartSheetAndErrors: the default sheet is the first
// worksheet with data, never a chart sheet; encrypted and sheetless
// workbooks say what they are.
func TestXLSXSheets_ChartSheetAndErrors(t *testing.T) {
	e := newEnv(t, false)
	e.put("chart.xlsx", dataFixture(t, "chart-sheet.xlsx"))
	res := e.run(map[string]any{"path": "chart.xlsx", "to": "csv", "output": "chart.csv"})
	if csv := string(read(t, res.Files[0].Path)); !strings.HasPrefix(csv, "Month,Bears,Dolphins,Whales\nJan,8,150,80\n") {
		t.Fatalf("csv = %q", csv)
	}
	te := e.fail(map[string]any{"path": "chart.xlsx", "to": "csv", "output": "c2.csv", "sheet": "Chart1"}, tool.CodeInvalid)
	if !strings.Contains(te.Message, "chart sheet") {
		t.Fatalf("chart sheet error = %+v", te)
	}
	e.put("enc.xlsx", dataFixture(t, "encryptAES.xlsx"))
	if te := e.fail(map[string]any{"path": "enc.xlsx", "to": "csv", "output": "e.csv"}, tool.CodeInvalid); !strings.Contains(te.Message, "password-protected") {
		t.Fatalf("encrypted error = %+v", te)
	}
	e.put("none.xlsx", dataFixture(t, "badfile_noWorksheets.xlsx"))
	if te := e.fail(map[string]any{"path": "none.xlsx", "to": "csv", "output": "n.csv"}, tool.CodeInvalid); !strings.Contains(te.Message, "no worksheets") {
		t.Fatalf("no worksheets error = %+v", te)
	}
}
