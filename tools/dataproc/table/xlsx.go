package table

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"clawbridge/internal/toolerr"
)

// SheetInfo describes one worksheet.
type SheetInfo struct {
	Name      string `json:"name"`
	Index     int    `json:"index"`
	Visible   bool   `json:"visible"`
	Dimension string `json:"dimension,omitempty"`
}

// checkZip refuses workbooks whose uncompressed size or compression ratio
// betrays a zip bomb, before excelize inflates anything.
func checkZip(p string, l Limits) error {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return errf(toolerr.CodeInvalid, "the file may be damaged, or not really an .xlsx (an .xls or .csv renamed?)", "%s is not a valid xlsx workbook: %v", path.Base(p), err)
	}
	defer zr.Close()
	if len(zr.File) > 10000 {
		return errf(toolerr.CodeTooLarge, "", "the workbook has %d parts, too many for a spreadsheet", len(zr.File))
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.CompressedSize64 > 0 && f.UncompressedSize64 > 64<<20 && f.UncompressedSize64/f.CompressedSize64 > 200 {
			return errf(toolerr.CodeTooLarge, "the file looks like a zip bomb; it was not opened", "workbook part %s expands %d times (%d MB)", f.Name, f.UncompressedSize64/f.CompressedSize64, f.UncompressedSize64>>20)
		}
	}
	if total > uint64(l.MaxUnzipBytes) {
		return errf(toolerr.CodeTooLarge, "split the workbook or raise tools.data_processor.max_unzip_mb", "the workbook expands to %d MB, over the %d MB limit", total>>20, l.MaxUnzipBytes>>20)
	}
	return nil
}

func openWorkbook(p string, l Limits, opts excelize.Options) (*excelize.File, error) {
	if err := checkZip(p, l); err != nil {
		return nil, err
	}
	opts.UnzipSizeLimit = l.MaxUnzipBytes
	f, err := excelize.OpenFile(p, opts)
	if err != nil {
		return nil, errf(toolerr.CodeInvalid, "the file may be damaged or password-protected", "cannot open workbook %s: %v", path.Base(p), err)
	}
	return f, nil
}

// ListSheets lists the worksheets of a workbook.
func ListSheets(p string, l Limits) ([]SheetInfo, error) {
	if l == (Limits{}) {
		l = DefaultLimits
	}
	f, err := openWorkbook(p, l, excelize.Options{})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []SheetInfo
	dims := sheetDimensions(p)
	for i, name := range f.GetSheetList() {
		vis, _ := f.GetSheetVisible(name)
		out = append(out, SheetInfo{Name: name, Index: i + 1, Visible: vis, Dimension: dims[name]})
	}
	return out, nil
}

func (r *Reader) openXLSX(o Options) error {
	// ShortDatePattern only affects formatted reads (the date sampling);
	// data rows are read raw.
	f, err := openWorkbook(r.Path, r.limits, excelize.Options{ShortDatePattern: "yyyy-mm-dd"})
	if err != nil {
		return err
	}
	r.closer = f.Close
	r.Sheets = f.GetSheetList()
	sheet := ""
	if o.Sheet == "" {
		for _, s := range r.Sheets {
			if vis, _ := f.GetSheetVisible(s); vis {
				sheet = s
				break
			}
		}
		if sheet == "" && len(r.Sheets) > 0 {
			sheet = r.Sheets[0]
		}
	} else {
		for _, s := range r.Sheets {
			if strings.EqualFold(s, o.Sheet) {
				sheet = s
			}
		}
		if n, err := strconv.Atoi(o.Sheet); sheet == "" && err == nil && n >= 1 && n <= len(r.Sheets) {
			sheet = r.Sheets[n-1]
		}
	}
	if sheet == "" {
		return errf(toolerr.CodeInvalid, "sheets: "+strings.Join(r.Sheets, ", "), "sheet %q not found in %s", o.Sheet, path.Base(r.Path))
	}
	r.Sheet = sheet
	r.Encoding = "xlsx"
	date1904 := false
	if props, err := f.GetWorkbookProps(); err == nil && props.Date1904 != nil {
		date1904 = *props.Date1904
	}
	dateCols, err := sampleDateColumns(f, sheet)
	if err != nil {
		return err
	}
	merges, err := mergedRanges(r.Path, sheet)
	if err != nil {
		return err
	}
	if len(merges) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d merged ranges: each cell of a range carries the range's value", len(merges)))
	}
	rows, err := f.Rows(sheet)
	if err != nil {
		return errf(toolerr.CodeFailed, "", "read sheet %q: %v", sheet, err)
	}
	prevClose := r.closer
	r.closer = func() error { rows.Close(); return prevClose() }
	rawOpt := excelize.Options{RawCellValue: true}
	num := 0
	mergeVal := map[int]string{} // merge index -> value of its top-left cell
	r.raw = func() ([]string, int, error) {
		if !rows.Next() {
			if err := rows.Error(); err != nil {
				return nil, 0, errf(toolerr.CodeFailed, "", "read sheet %q after row %d: %v", sheet, num, err)
			}
			return nil, 0, io.EOF
		}
		num++
		cells, err := rows.Columns(rawOpt)
		if err != nil {
			return nil, 0, errf(toolerr.CodeFailed, "", "read sheet %q row %d: %v", sheet, num, err)
		}
		for c := range cells {
			if dateCols[c] && cells[c] != "" {
				if v, err := strconv.ParseFloat(cells[c], 64); err == nil {
					cells[c] = serialToISO(v, date1904)
				}
			}
		}
		for i, m := range merges {
			if num < m.r1 || num > m.r2 {
				continue
			}
			if num == m.r1 {
				if m.c1-1 < len(cells) {
					mergeVal[i] = cells[m.c1-1]
				}
			}
			v := mergeVal[i]
			if v == "" {
				continue
			}
			for len(cells) < m.c2 {
				cells = append(cells, "")
			}
			for c := m.c1; c <= m.c2; c++ {
				cells[c-1] = v
			}
			if num == m.r2 {
				delete(mergeVal, i)
			}
		}
		return cells, num, nil
	}
	return nil
}

func serialToISO(v float64, date1904 bool) string {
	if v < 1 && v >= 0 && !date1904 {
		secs := int(v*86400 + 0.5)
		return fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	}
	t, err := excelize.ExcelDateToTime(v, date1904)
	if err != nil {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ISO(t.Round(1e9))
}

// sampleDateColumns finds the columns whose numbers are shown as dates, by
// comparing raw and formatted values of the first rows: the row iterator
// does not expose cell styles, and raw values keep full precision.
func sampleDateColumns(f *excelize.File, sheet string) (map[int]bool, error) {
	raw, err := f.Rows(sheet)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	fmtd, err := f.Rows(sheet)
	if err != nil {
		return nil, err
	}
	defer fmtd.Close()
	votes := map[int]int{}
	for i := 0; i < 50 && raw.Next() && fmtd.Next(); i++ {
		rc, err1 := raw.Columns(excelize.Options{RawCellValue: true})
		fc, err2 := fmtd.Columns()
		if err1 != nil || err2 != nil {
			break
		}
		for c := range min(len(rc), len(fc)) {
			if rc[c] == "" || rc[c] == fc[c] {
				continue
			}
			if _, err := strconv.ParseFloat(rc[c], 64); err != nil {
				continue
			}
			if looksLikeDate(fc[c]) {
				votes[c]++
			} else {
				votes[c] -= 10
			}
		}
	}
	out := map[int]bool{}
	for c, v := range votes {
		if v > 0 {
			out[c] = true
		}
	}
	return out, nil
}

func looksLikeDate(s string) bool {
	if _, ok := ParseDate(s); ok {
		return true
	}
	if _, ok := ParseNumber(strings.TrimSuffix(s, "%")); ok {
		return false
	}
	hasDigit := strings.ContainsAny(s, "0123456789")
	i := strings.IndexAny(s, "/年:月")
	j := strings.Index(s, "-")
	return hasDigit && (i >= 0 || j > 0)
}

type rect struct{ r1, c1, r2, c2 int }

// sheetPaths maps sheet names to their part paths inside the zip.
func sheetPaths(zr *zip.Reader) map[string]string {
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			ID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	read := func(name string, v any) {
		for _, f := range zr.File {
			if f.Name == name {
				rc, err := f.Open()
				if err != nil {
					return
				}
				defer rc.Close()
				_ = xml.NewDecoder(io.LimitReader(rc, 16<<20)).Decode(v)
			}
		}
	}
	read("xl/workbook.xml", &wb)
	read("xl/_rels/workbook.xml.rels", &rels)
	out := map[string]string{}
	for _, s := range wb.Sheets {
		for _, r := range rels.Rel {
			if r.ID == s.ID {
				t := r.Target
				if strings.HasPrefix(t, "/") {
					t = strings.TrimPrefix(t, "/")
				} else {
					t = path.Join("xl", t)
				}
				out[s.Name] = t
			}
		}
	}
	return out
}

// mergedRanges scans the worksheet part for <mergeCell ref="A1:B2"/>
// without loading the sheet into memory (GetMergeCells would).
func mergedRanges(p, sheet string) ([]rect, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	part := sheetPaths(&zr.Reader)[sheet]
	var out []rect
	for _, f := range zr.File {
		if f.Name != part {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		br := bufio.NewReaderSize(rc, 1<<16)
		for {
			chunk, err := br.ReadSlice('>')
			if i := bytes.Index(chunk, []byte("<mergeCell ")); i >= 0 {
				if m := refAttr(chunk[i:]); m != "" {
					if rr, ok := parseRange(m); ok {
						out = append(out, rr)
					}
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				break
			}
		}
	}
	return out, nil
}

func refAttr(b []byte) string {
	i := bytes.Index(b, []byte(`ref="`))
	if i < 0 {
		return ""
	}
	b = b[i+5:]
	j := bytes.IndexByte(b, '"')
	if j < 0 {
		return ""
	}
	return string(b[:j])
}

func parseRange(s string) (rect, bool) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return rect{}, false
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(a)
	c2, r2, err2 := excelize.CellNameToCoordinates(b)
	if err1 != nil || err2 != nil {
		return rect{}, false
	}
	return rect{r1: min(r1, r2), c1: min(c1, c2), r2: max(r1, r2), c2: max(c1, c2)}, true
}

// sheetDimensions reads each sheet's <dimension ref> from the first bytes of
// its part.
func sheetDimensions(p string) map[string]string {
	out := map[string]string{}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return out
	}
	defer zr.Close()
	paths := sheetPaths(&zr.Reader)
	for name, part := range paths {
		for _, f := range zr.File {
			if f.Name != part {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				continue
			}
			head := make([]byte, 4096)
			n, _ := io.ReadFull(rc, head)
			rc.Close()
			if i := bytes.Index(head[:n], []byte("<dimension ")); i >= 0 {
				out[name] = refAttr(head[i:n])
			}
		}
	}
	return out
}
