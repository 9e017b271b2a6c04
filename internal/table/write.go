package table

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Writer writes rows to an io.Writer in one format. Where the bytes go
// (a temp file moved into place) is the caller's: see tool.Outputs.
type Writer interface {
	Row(values []any) error
	// Close finishes the table.
	Close() error
	// Abort releases what an unfinished table holds; after Close it does
	// nothing. Callers defer it.
	Abort()
}

// FormatFromPath picks xlsx, csv or json from an output path's extension.
func FormatFromPath(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".csv", ".tsv", ".txt":
		return "csv"
	case ".json":
		return "json"
	}
	return "xlsx"
}

// NewWriter starts writing a table with the given header to out.
func NewWriter(out io.Writer, format, sheet string, header []string) (Writer, error) {
	switch format {
	case "csv":
		bw := bufio.NewWriterSize(out, 1<<16)
		bw.WriteString("\uFEFF") // Excel opens UTF-8 CSV with Chinese text correctly only with a BOM
		w := &csvWriter{bw: bw, cw: csv.NewWriter(bw)}
		if err := w.cw.Write(header); err != nil {
			return nil, err
		}
		return w, nil
	case "json":
		bw := bufio.NewWriterSize(out, 1<<16)
		bw.WriteString("[")
		return &jsonWriter{bw: bw, header: header}, nil
	default:
		return newXLSXWriter(out, sheet, header)
	}
}

// streamWriter is the Abort of the formats that hold nothing but a buffer.
type streamWriter struct{}

func (streamWriter) Abort() {}

type csvWriter struct {
	streamWriter
	bw  *bufio.Writer
	cw  *csv.Writer
	rec []string
}

func (w *csvWriter) Row(values []any) error {
	w.rec = w.rec[:0]
	for _, v := range values {
		w.rec = append(w.rec, Text(v))
	}
	return w.cw.Write(w.rec)
}

func (w *csvWriter) Close() error {
	w.cw.Flush()
	if err := w.cw.Error(); err != nil {
		return err
	}
	return w.bw.Flush()
}

type jsonWriter struct {
	streamWriter
	bw     *bufio.Writer
	header []string
	n      int
}

func (w *jsonWriter) Row(values []any) error {
	if w.n > 0 {
		w.bw.WriteString(",")
	}
	w.bw.WriteString("\n  {")
	for i, h := range w.header {
		if i > 0 {
			w.bw.WriteString(", ")
		}
		k, _ := json.Marshal(h)
		w.bw.Write(k)
		w.bw.WriteString(": ")
		var v any
		if i < len(values) {
			v = values[i]
		}
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			v = nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.bw.Write(b)
	}
	w.bw.WriteString("}")
	w.n++
	return nil
}

func (w *jsonWriter) Close() error {
	w.bw.WriteString("\n]\n")
	return w.bw.Flush()
}

type xlsxWriter struct {
	out    io.Writer
	f      *excelize.File
	sw     *excelize.StreamWriter
	row    int
	dateID int
	dtID   int
	cells  []any
}

const maxSheetRows = 1_048_576

func newXLSXWriter(out io.Writer, sheet string, header []string) (*xlsxWriter, error) {
	f := excelize.NewFile()
	if sheet == "" {
		sheet = "Sheet1"
	}
	sheet = SafeSheetName(sheet)
	if sheet != "Sheet1" {
		if err := f.SetSheetName("Sheet1", sheet); err != nil {
			return nil, err
		}
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return nil, err
	}
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}}})
	dateID, _ := f.NewStyle(&excelize.Style{NumFmt: 14, CustomNumFmt: strPtr("yyyy-mm-dd")})
	dtID, _ := f.NewStyle(&excelize.Style{CustomNumFmt: strPtr("yyyy-mm-dd hh:mm:ss")})
	// Column widths must be set before the first row.
	for i, h := range header {
		wdt := float64(min(50, max(10, displayWidth(h)+2)))
		if err := sw.SetColWidth(i+1, i+1, wdt); err != nil {
			return nil, err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, err
	}
	hdr := make([]any, len(header))
	for i, h := range header {
		hdr[i] = excelize.Cell{StyleID: bold, Value: h}
	}
	if err := sw.SetRow("A1", hdr); err != nil {
		return nil, err
	}
	return &xlsxWriter{out: out, f: f, sw: sw, row: 1, dateID: dateID, dtID: dtID}, nil
}

func strPtr(s string) *string { return &s }

func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if r > 0x2E80 {
			w += 2
		} else {
			w++
		}
	}
	return w
}

// SafeSheetName makes a valid worksheet name (31 characters, no []:*?/\).
func SafeSheetName(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) {
			return '_'
		}
		return r
	}, s)
	s = strings.Trim(s, "'")
	for utf8.RuneCountInString(s) > 31 {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	if s == "" {
		return "Sheet1"
	}
	return s
}

func (w *xlsxWriter) Row(values []any) error {
	w.row++
	if w.row > maxSheetRows {
		return errf(toolerr.CodeTooLarge, "export as csv instead", "more than %d rows do not fit one worksheet", maxSheetRows-1)
	}
	w.cells = w.cells[:0]
	for _, v := range values {
		w.cells = append(w.cells, w.cell(v))
	}
	cell, _ := excelize.CoordinatesToCellName(1, w.row)
	return w.sw.SetRow(cell, w.cells)
}

func (w *xlsxWriter) cell(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if len(x) >= 10 && x[4] == '-' {
			if t, err := time.Parse("2006-01-02", x); err == nil {
				return excelize.Cell{StyleID: w.dateID, Value: t}
			}
			if t, err := time.Parse("2006-01-02 15:04:05", x); err == nil {
				return excelize.Cell{StyleID: w.dtID, Value: t}
			}
		}
		if len(x) > 32767 {
			return x[:32767]
		}
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	}
	return v
}

func (w *xlsxWriter) Close() error {
	defer w.Abort()
	if err := w.sw.Flush(); err != nil {
		return err
	}
	_, err := w.f.WriteTo(w.out)
	return err
}

// Abort closes the workbook, removing the stream writer's temp files.
func (w *xlsxWriter) Abort() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}

// Text renders a value as cell text.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []byte:
		return string(x)
	case time.Time:
		return ISO(x)
	}
	return fmt.Sprint(v)
}
