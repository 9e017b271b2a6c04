package table

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// Limits bound what one call may read.
type Limits struct {
	MaxFileBytes  int64 // size of the file on disk
	MaxUnzipBytes int64 // total uncompressed size of a workbook
	MaxRows       int   // data rows read from one table
	MaxCols       int   // columns of one table
}

// DefaultLimits are generous for desktop data and stop runaway files.
var DefaultLimits = Limits{
	MaxFileBytes:  512 << 20,
	MaxUnzipBytes: 2 << 30,
	MaxRows:       5_000_000,
	MaxCols:       1000,
}

// Options select what to read.
type Options struct {
	Sheet string // worksheet name; default the first
	// Header: nil detects a header row; true/false force it.
	Header *bool
	// HeaderRow forces the 1-based row holding the header (0: detect).
	HeaderRow int
	Limits    Limits
}

// errf is a reading failure that names the place in the file; it is the
// tools' own error type, so the tool returns it as it is.
func errf(code, hint, format string, args ...any) *toolerr.Error {
	return toolerr.Errorf(code, hint, format, args...)
}

// Reader streams the data rows of one table (a sheet, a CSV file or a JSON
// array), after the header.
type Reader struct {
	Path      string
	Format    string // xlsx, csv, json
	Sheet     string
	Sheets    []string
	Encoding  string
	Header    []string // original header texts (col_N when there is none)
	Names     []string // sanitised unique column names
	HasHeader bool
	HeaderRow int // 1-based row of the header, 0 when none
	Notes     []string

	raw      func() ([]string, int, error)
	closer   func() error
	buf      []bufRow
	width    int
	limits   Limits
	rows     int
	extraCut bool
}

type bufRow struct {
	cells []string
	num   int
}

// IsSpreadsheet reports whether the path names a workbook.
func IsSpreadsheet(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return true
	}
	return false
}

// FormatOf names the reader format of a path from its extension.
func FormatOf(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return "xlsx", nil
	case ".csv", ".tsv", ".txt":
		return "csv", nil
	case ".json", ".jsonl", ".ndjson":
		return "json", nil
	case ".xls":
		return "", toolerr.Invalidf("path", "save it as .xlsx (or convert it with format_converter) and try again", "%s is a legacy .xls workbook, which is not supported", filepath.Base(path))
	}
	return "", toolerr.Invalidf("path", "use an .xlsx, .csv, .tsv or .json file", "%s: unsupported file type %q", filepath.Base(path), filepath.Ext(path))
}

// Open opens a table for streaming.
func Open(path string, o Options) (*Reader, error) {
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits
	}
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, toolerr.NotFoundf("path", "check the path (relative paths start at the workspace root)", "file not found: %s", filepath.Base(path))
		}
		return nil, err
	}
	if st.IsDir() {
		return nil, toolerr.Invalidf("path", "give a file, not a folder", "%s is a directory", filepath.Base(path))
	}
	if st.Size() > o.Limits.MaxFileBytes {
		return nil, errf(toolerr.CodeTooLarge, "split the file or raise tools.data_processor.max_file_mb", "%s is %d MB, over the %d MB limit", filepath.Base(path), st.Size()>>20, o.Limits.MaxFileBytes>>20)
	}
	r := &Reader{Path: path, Format: format, limits: o.Limits}
	switch format {
	case "xlsx":
		err = r.openXLSX(o)
	case "csv":
		err = r.openCSV()
	case "json":
		err = r.openJSON()
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	if err := r.detectHeader(o); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close releases the file.
func (r *Reader) Close() error {
	if r.closer != nil {
		c := r.closer
		r.closer = nil
		return c()
	}
	return nil
}

// detectHeader reads the first rows, skips blank and title rows and decides
// whether the first remaining row is a header.
func (r *Reader) detectHeader(o Options) error {
	var head []bufRow
	for len(head) < 30 {
		cells, num, err := r.raw()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if blank(cells) {
			continue
		}
		head = append(head, bufRow{cells: trimRight(cells), num: num})
	}
	width := 0
	for _, h := range head {
		width = max(width, len(h.cells))
	}
	if width > r.limits.MaxCols {
		return errf(toolerr.CodeTooLarge, "select fewer columns or split the sheet", "the table has %d columns, over the %d-column limit", width, r.limits.MaxCols)
	}
	start := 0
	if o.HeaderRow > 0 {
		start = -1
		for i, h := range head {
			if h.num == o.HeaderRow {
				start = i
			}
		}
		if start < 0 {
			return toolerr.Invalidf("header_row", "header_row counts rows from 1 as shown in the spreadsheet", "row %d is empty or beyond the first rows of the table", o.HeaderRow)
		}
	} else {
		// Title rows: a single distinct value (often a merged title) above
		// rows that are wider.
		for r.Format != "json" && start < len(head)-1 && distinctNonEmpty(head[start].cells) == 1 && nonEmpty(head[start+1].cells) > 1 {
			r.Notes = append(r.Notes, fmt.Sprintf("skipped title row %d (%q)", head[start].num, firstNonEmpty(head[start].cells)))
			start++
		}
	}
	head = head[start:]
	hasHeader := false
	switch {
	case o.Header != nil:
		hasHeader = *o.Header
	case o.HeaderRow > 0:
		hasHeader = true
	case r.Format == "json":
		hasHeader = true
	case len(head) > 0:
		hasHeader = looksLikeHeader(head[0].cells, head[1:])
	}
	r.width = width
	if hasHeader && len(head) > 0 {
		r.Header = pad(head[0].cells, width)
		r.HeaderRow = head[0].num
		r.HasHeader = true
		head = head[1:]
	} else {
		r.Header = make([]string, width)
	}
	for i := range r.Header {
		r.Header[i] = strings.TrimSpace(r.Header[i])
		if r.Header[i] == "" {
			r.Header[i] = "col_" + strconv.Itoa(i+1)
		}
	}
	r.Names = UniqueNames(r.Header)
	r.buf = head
	return nil
}

func looksLikeHeader(first []string, rest []bufRow) bool {
	texts := 0
	seen := map[string]bool{}
	for _, c := range first {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if k, _ := Classify(c); k != KindText && k != KindBoolean {
			return false
		}
		if seen[c] {
			return false
		}
		seen[c] = true
		texts++
	}
	if texts == 0 {
		return false
	}
	if len(rest) == 0 {
		return true
	}
	// A header above data: some column below holds a non-text value, or the
	// first row differs from all rows below it.
	for _, row := range rest {
		for _, c := range row.cells {
			if k, _ := Classify(strings.TrimSpace(c)); k != KindText && k != KindEmpty {
				return true
			}
		}
	}
	return texts >= len(first)/2
}

// Next returns the next data row padded to the header width, and its 1-based
// row number in the file. It returns io.EOF at the end.
func (r *Reader) Next() ([]string, int, error) {
	for {
		var cells []string
		var num int
		if len(r.buf) > 0 {
			cells, num = r.buf[0].cells, r.buf[0].num
			r.buf = r.buf[1:]
		} else {
			var err error
			cells, num, err = r.raw()
			if err != nil {
				return nil, 0, err
			}
		}
		if blank(cells) {
			continue
		}
		r.rows++
		if r.rows > r.limits.MaxRows {
			return nil, 0, errf(toolerr.CodeTooLarge, "filter the file first or raise tools.data_processor.max_rows", "more than %d data rows", r.limits.MaxRows)
		}
		if len(cells) > r.width {
			if !r.extraCut && !blank(cells[r.width:]) {
				r.extraCut = true
				r.Notes = append(r.Notes, fmt.Sprintf("row %d has values beyond the %s found in the first rows; they were ignored", num, wording.Count(r.width, "column", "columns")))
			}
			cells = cells[:r.width]
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return pad(cells, r.width), num, nil
	}
}

// CellRef names a cell for messages: "C17" in a workbook, "row 17, column
// 'amount'" elsewhere.
func (r *Reader) CellRef(row, col int) string {
	if r.Format == "xlsx" {
		name, _ := excelize.CoordinatesToCellName(col+1, row)
		if r.Sheet != "" {
			return r.Sheet + "!" + name
		}
		return name
	}
	if col < len(r.Header) {
		return fmt.Sprintf("row %d, column %q", row, r.Header[col])
	}
	return fmt.Sprintf("row %d, column %d", row, col+1)
}

func pad(cells []string, n int) []string {
	if len(cells) >= n {
		return cells
	}
	out := make([]string, n)
	copy(out, cells)
	return out
}

func trimRight(cells []string) []string {
	n := len(cells)
	for n > 0 && strings.TrimSpace(cells[n-1]) == "" {
		n--
	}
	return cells[:n]
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func nonEmpty(cells []string) int {
	n := 0
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			n++
		}
	}
	return n
}

func distinctNonEmpty(cells []string) int {
	seen := map[string]bool{}
	for _, c := range cells {
		if c = strings.TrimSpace(c); c != "" {
			seen[c] = true
		}
	}
	return len(seen)
}

func firstNonEmpty(cells []string) string {
	for _, c := range cells {
		if c = strings.TrimSpace(c); c != "" {
			return c
		}
	}
	return ""
}
