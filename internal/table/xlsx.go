package table

import (
	"fmt"
	"io"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/xlsxcell"
)

// SheetInfo describes one worksheet: the sheets that read accepts, by name
// or by Index.
type SheetInfo struct {
	Name      string `json:"name"`
	Index     int    `json:"index"`
	Visible   bool   `json:"visible"`
	Dimension string `json:"dimension,omitempty"`
}

// OtherSheet is a sheet without cells (a chart or dialog sheet).
type OtherSheet struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

func openWorkbook(p string, l Limits) (*xlsxcell.Workbook, error) {
	return xlsxcell.Open(p, xlsxcell.Limits{MaxUnzipBytes: l.MaxUnzipBytes, Setting: "tools.data_processor.max_unzip_mb"})
}

// ListSheets lists the worksheets of a workbook, and apart from them the
// sheets that hold no cells.
func ListSheets(p string, l Limits) ([]SheetInfo, []OtherSheet, error) {
	if l == (Limits{}) {
		l = DefaultLimits
	}
	wb, err := openWorkbook(p, l)
	if err != nil {
		return nil, nil, err
	}
	defer wb.Close()
	if _, err := wb.Find(""); err != nil { // no worksheets
		return nil, nil, err
	}
	var out []SheetInfo
	for i, s := range wb.Worksheets() {
		out = append(out, SheetInfo{Name: s.Name, Index: i + 1, Visible: s.Visible, Dimension: wb.Dimension(s)})
	}
	var other []OtherSheet
	for _, s := range wb.Sheets {
		if s.Kind != xlsxcell.KindWorksheet {
			t := s.Kind
			if t == "" {
				t = "missing"
			}
			other = append(other, OtherSheet{Name: s.Name, Type: t})
		}
	}
	return out, other, nil
}

func (r *Reader) openXLSX(o Options) error {
	wb, err := openWorkbook(r.Path, r.limits)
	if err != nil {
		return err
	}
	r.closer = wb.Close
	for _, s := range wb.Worksheets() {
		r.Sheets = append(r.Sheets, s.Name)
	}
	sheet, err := wb.Find(o.Sheet)
	if err != nil {
		return err
	}
	r.Sheet = sheet.Name
	r.Encoding = "xlsx"
	merges, err := wb.MergedRanges(sheet)
	if err != nil {
		return errf(toolerr.CodeFailed, "", "read sheet %q: %v", sheet.Name, err)
	}
	if len(merges) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d merged ranges: each cell of a range carries the range's value", len(merges)))
	}
	rows, err := wb.Rows(sheet)
	if err != nil {
		return errf(toolerr.CodeFailed, "", "read sheet %q: %v", sheet.Name, err)
	}
	r.closer = func() error { rows.Close(); return wb.Close() }
	mergeVal := map[int]string{} // merge index -> value of its top-left cell
	r.raw = func() ([]string, int, error) {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return nil, 0, errf(toolerr.CodeFailed, "the file may be damaged; open and re-save it in Excel or LibreOffice", "%v", err)
			}
			return nil, 0, io.EOF
		}
		num := rows.Num()
		row := rows.Cells()
		cells := make([]string, len(row))
		for c, v := range row {
			cells[c] = v.String()
		}
		for i, m := range merges {
			if num < m.R1 || num > m.R2 {
				continue
			}
			if num == m.R1 && m.C1-1 < len(cells) {
				mergeVal[i] = cells[m.C1-1]
			}
			v := mergeVal[i]
			if v == "" {
				continue
			}
			for len(cells) < m.C2 {
				cells = append(cells, "")
			}
			for c := m.C1; c <= m.C2; c++ {
				cells[c-1] = v
			}
			if num == m.R2 {
				delete(mergeVal, i)
			}
		}
		return cells, num, nil
	}
	return nil
}
