package finance

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// readTable reads an import file's rows by what its bytes are, not its
// name: an xlsx workbook (WeChat Pay offers its bill as xlsx too) through
// excelize, text as CSV. An Excel 97-2003 workbook or other binary file is
// refused with what to do instead.
func readTable(raw []byte, encoding string) (sheet, error) {
	switch {
	case bytes.HasPrefix(raw, []byte("PK\x03\x04")):
		return readXLSX(raw)
	case bytes.HasPrefix(raw, []byte("\xd0\xcf\x11\xe0")):
		return sheet{}, fieldErr{"path", "an Excel 97-2003 (.xls) workbook, which import does not read; save it as .xlsx or CSV"}
	case bytes.IndexByte(raw, 0) >= 0:
		return sheet{}, fieldErr{"path", "not a CSV or xlsx file (it holds binary data; UTF-16 text too: save it as UTF-8 CSV)"}
	}
	text, err := decodeText(raw, encoding)
	if err != nil {
		return sheet{}, fieldErr{"encoding", err.Error()}
	}
	sh, err := readCSV(text)
	if err != nil {
		return sheet{}, fieldErr{"path", "not CSV: " + err.Error()}
	}
	return sh, nil
}

// readXLSX reads the first worksheet's cells as text. A number cell is its
// stored value, not its display, so a format showing "12" does not drop
// the cents of 12.34; a number shown as a date is the date (ISO), since
// xlsx stores dates as day counts.
func readXLSX(raw []byte) (sheet, error) {
	x, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		return sheet{}, fieldErr{"path", fmt.Sprintf("not a readable xlsx workbook: %v", err)}
	}
	defer x.Close()
	name := x.GetSheetName(0)
	shown, err := x.GetRows(name)
	if err != nil {
		return sheet{}, fieldErr{"path", fmt.Sprintf("sheet %q: %v", name, err)}
	}
	stored, err := x.GetRows(name, excelize.Options{RawCellValue: true})
	if err != nil {
		return sheet{}, fieldErr{"path", fmt.Sprintf("sheet %q: %v", name, err)}
	}
	var out sheet
	for i, row := range shown {
		cells := make([]string, len(row))
		for j, s := range row {
			if i < len(stored) && j < len(stored[i]) {
				s = cellText(s, stored[i][j])
			}
			cells[j] = strings.Trim(s, " \t\u3000")
		}
		if len(cells) > 0 {
			out.rows = append(out.rows, cells)
			out.lines = append(out.lines, i+1)
		}
	}
	return out, nil
}

// cellText is a cell's text: shown as a date or time, the ISO date-time
// of the stored day count; another number, the stored value.
func cellText(shown, stored string) string {
	v, err := strconv.ParseFloat(stored, 64)
	if err != nil || shown == stored {
		return shown
	}
	if strings.ContainsAny(shown, "/:年") || strings.Contains(strings.TrimPrefix(shown, "-"), "-") {
		if t, err := excelize.ExcelDateToTime(v, false); err == nil {
			return t.Format("2006-01-02 15:04:05")
		}
	}
	return stored
}
