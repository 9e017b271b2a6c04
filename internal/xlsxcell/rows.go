package xlsxcell

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Rows streams a worksheet's rows in order. Rows missing from the file
// (blank in the sheet) come back empty, so Num counts as the sheet does.
type Rows struct {
	w     *Workbook
	sheet string
	rc    io.ReadCloser
	d     *xml.Decoder
	num   int    // the row last returned, 1-based
	next  int    // the row number of pending, 0 when none
	pend  []Cell // a row read ahead while returning blank rows before it
	cells []Cell
	err   error
	done  bool
}

// Rows starts reading a worksheet.
func (w *Workbook) Rows(s Sheet) (*Rows, error) {
	f := w.part(s.part)
	if s.Kind != KindWorksheet || f == nil {
		return nil, fmt.Errorf("xlsx: %q is not a worksheet", s.Name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("xlsx: open sheet %q: %w", s.Name, err)
	}
	return &Rows{w: w, sheet: s.Name, rc: rc, d: xml.NewDecoder(bufio.NewReaderSize(rc, 1<<16))}, nil
}

// Close releases the sheet.
func (r *Rows) Close() error { return r.rc.Close() }

// Err is the reading error that stopped Next, if any.
func (r *Rows) Err() error { return r.err }

// Num is the 1-based row number of the current row.
func (r *Rows) Num() int { return r.num }

// Cells are the current row's cells, without trailing empty ones. The slice
// is the caller's.
func (r *Rows) Cells() []Cell { return r.cells }

// Next moves to the next row.
func (r *Rows) Next() bool {
	if r.next == 0 && !r.done {
		r.readRow()
	}
	if r.next == 0 {
		return false
	}
	r.num++
	if r.num < r.next {
		r.cells = nil
		return true
	}
	r.cells, r.pend, r.next = r.pend, nil, 0
	return true
}

// readRow reads the next <row> element into pend.
func (r *Rows) readRow() {
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			if err != io.EOF {
				r.err = fmt.Errorf("xlsx: sheet %q after row %d: %w", r.sheet, r.num, err)
			}
			r.done = true
			return
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "row":
			n := r.num + 1
			if v := attr(se, "r"); v != "" {
				if x, err := strconv.Atoi(v); err == nil && x > r.num {
					n = x
				}
			}
			cells, err := r.readCells()
			if err != nil {
				r.err = fmt.Errorf("xlsx: sheet %q row %d: %w", r.sheet, n, err)
				r.done = true
				return
			}
			r.pend, r.next = cells, n
			return
		case "sheetData":
		default:
			if se.Name.Local != "worksheet" && se.Name.Local != "dimension" && se.Name.Local != "sheetPr" && r.num > 0 {
				// Past the cells (merge cells, page setup): stop reading.
				r.done = true
				return
			}
		}
	}
}

// readCells reads the <c> elements up to </row>.
func (r *Rows) readCells() ([]Cell, error) {
	var cells []Cell
	col := 0
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if t.Name.Local == "row" {
				for len(cells) > 0 && cells[len(cells)-1].Kind == Empty {
					cells = cells[:len(cells)-1]
				}
				return cells, nil
			}
		case xml.StartElement:
			if t.Name.Local != "c" {
				continue
			}
			if c := colOf(attr(t, "r")); c > 0 {
				col = c
			} else {
				col++
			}
			if col > 16384 {
				return nil, fmt.Errorf("column %d is beyond the last Excel column", col)
			}
			c, err := r.readCell(t)
			if err != nil {
				return nil, err
			}
			for len(cells) < col-1 {
				cells = append(cells, Cell{})
			}
			cells = append(cells[:col-1], c)
		}
	}
}

// readCell reads one <c> element's value.
func (r *Rows) readCell(se xml.StartElement) (Cell, error) {
	typ, style := attr(se, "t"), attr(se, "s")
	var v, inline strings.Builder
	hasV := false
	depth, where := 0, ""
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			return Cell{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "v":
				where, hasV = "v", true
			case "t":
				if where != "rPh" {
					where = "t"
				}
			case "rPh":
				where = "rPh"
			}
		case xml.EndElement:
			if depth == 0 {
				return r.value(typ, style, v.String(), inline.String(), hasV), nil
			}
			depth--
			if t.Name.Local == "rPh" || t.Name.Local == "v" || (t.Name.Local == "t" && where == "t") {
				where = ""
			}
		case xml.CharData:
			switch where {
			case "v":
				v.Write(t)
			case "t":
				inline.Write(t)
			}
		}
	}
}

func (r *Rows) value(typ, style, v, inline string, hasV bool) Cell {
	if typ == "inlineStr" {
		if s := unescape(inline); s != "" {
			return Cell{Kind: Text, Text: s}
		}
		return Cell{}
	}
	if !hasV {
		return Cell{}
	}
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(r.w.sst) {
			return Cell{}
		}
		if r.w.sst[i] == "" {
			return Cell{}
		}
		return Cell{Kind: Text, Text: r.w.sst[i]}
	case "str":
		if v == "" {
			return Cell{}
		}
		return Cell{Kind: Text, Text: unescape(v)}
	case "b":
		b := strings.TrimSpace(v)
		return Cell{Kind: Bool, Bool: b == "1" || strings.EqualFold(b, "true")}
	case "e":
		return Cell{Kind: Error, Text: strings.TrimSpace(v)}
	case "d":
		return isoCell(v)
	}
	if strings.TrimSpace(v) == "" {
		return Cell{}
	}
	k := fmtNumber
	if i, err := strconv.Atoi(style); err == nil && i >= 0 && i < len(r.w.styles) {
		k = r.w.styles[i]
	}
	return numberCell(v, k, r.w.Date1904)
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// colOf reads the column number of a cell reference such as "AB12".
func colOf(ref string) int {
	c := 0
	for i := 0; i < len(ref); i++ {
		ch := ref[i] | 0x20 // lower case
		if ch < 'a' || ch > 'z' {
			break
		}
		c = c*26 + int(ch-'a') + 1
		if c > 1<<20 {
			return 0
		}
	}
	return c
}
