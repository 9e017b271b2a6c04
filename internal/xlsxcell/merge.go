package xlsxcell

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// Range is a rectangle of cells, 1-based and inclusive.
type Range struct{ R1, C1, R2, C2 int }

// MergedRanges scans a worksheet part for <mergeCell ref="A1:B2"/> without
// parsing the sheet's cells.
func (w *Workbook) MergedRanges(s Sheet) ([]Range, error) {
	f := w.part(s.part)
	if f == nil || s.Kind != KindWorksheet {
		return nil, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out []Range
	br := bufio.NewReaderSize(rc, 1<<16)
	for {
		chunk, err := br.ReadSlice('>')
		if i := bytes.Index(chunk, []byte("mergeCell ")); i > 0 && chunk[i-1] != '/' {
			if rr, ok := parseRange(refAttr(chunk[i:])); ok {
				out = append(out, rr)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			break
		}
	}
	return out, nil
}

// Dimension is the sheet's <dimension ref>, read from the part's first bytes.
func (w *Workbook) Dimension(s Sheet) string {
	f := w.part(s.part)
	if f == nil {
		return ""
	}
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(rc, head)
	if i := bytes.Index(head[:n], []byte("dimension ")); i > 0 {
		return refAttr(head[i:n])
	}
	return ""
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

// parseCell reads "B3" as column 2, row 3.
func parseCell(s string) (col, row int, ok bool) {
	s = strings.ReplaceAll(s, "$", "")
	i := 0
	for i < len(s) && (s[i]|0x20) >= 'a' && (s[i]|0x20) <= 'z' {
		i++
	}
	col = colOf(s[:i])
	for _, ch := range s[i:] {
		if ch < '0' || ch > '9' || row > 1<<21 {
			return 0, 0, false
		}
		row = row*10 + int(ch-'0')
	}
	return col, row, col > 0 && row > 0
}

func parseRange(s string) (Range, bool) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Range{}, false
	}
	c1, r1, ok1 := parseCell(a)
	c2, r2, ok2 := parseCell(b)
	if !ok1 || !ok2 {
		return Range{}, false
	}
	return Range{R1: min(r1, r2), C1: min(c1, c2), R2: max(r1, r2), C2: max(c1, c2)}, true
}
