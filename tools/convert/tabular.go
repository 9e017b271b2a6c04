package convert

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/xlsxcell"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// kind of a table cell.
type cellKind int

const (
	kNull cellKind = iota
	kString
	kNumber
	kBool
	kDate     // a calendar date
	kDateTime // a date with a time of day
)

type cell struct {
	k cellKind
	s string
	f float64
	b bool
	t time.Time
}

// grid is a table: the first row is the header.
type grid struct {
	sheet string
	rows  [][]cell
}

var (
	intRE   = regexp.MustCompile(`^[+-]?(0|[1-9][0-9]{0,14})$`)
	floatRE = regexp.MustCompile(`^[+-]?(0|[1-9][0-9]*)?\.[0-9]+([eE][+-]?[0-9]+)?$|^[+-]?(0|[1-9][0-9]*)[eE][+-]?[0-9]+$`)
)

var dateLayouts = []struct {
	layout string
	k      cellKind
}{
	{"2006-01-02", kDate}, {"2006/01/02", kDate}, {"2006-1-2", kDate}, {"2006/1/2", kDate},
	{"2006-01-02 15:04:05", kDateTime}, {"2006-01-02 15:04", kDateTime}, {"2006-01-02T15:04:05", kDateTime},
	{"2006-01-02T15:04:05Z07:00", kDateTime}, {"2006/01/02 15:04:05", kDateTime}, {"2006/01/02 15:04", kDateTime},
}

// infer gives a text value its type: numbers (but not codes with leading
// zeros or more than 15 digits, such as phone or ID numbers), booleans,
// ISO-like dates and date-times; everything else stays text.
func infer(s string) cell {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return cell{k: kNull}
	case intRE.MatchString(t) || floatRE.MatchString(t):
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) {
			return cell{k: kNumber, f: f}
		}
	case strings.EqualFold(t, "true"):
		return cell{k: kBool, b: true}
	case strings.EqualFold(t, "false"):
		return cell{k: kBool, b: false}
	case len(t) >= 8 && len(t) <= 25 && t[0] >= '1' && t[0] <= '2':
		for _, l := range dateLayouts {
			if tm, err := time.Parse(l.layout, t); err == nil {
				return cell{k: l.k, t: tm}
			}
		}
	}
	return cell{k: kString, s: s}
}

func (c cell) text() string {
	switch c.k {
	case kString:
		return c.s
	case kNumber:
		return strconv.FormatFloat(c.f, 'f', -1, 64)
	case kBool:
		return strconv.FormatBool(c.b)
	case kDate:
		return c.t.Format("2006-01-02")
	case kDateTime:
		if c.t.Location() != time.UTC && c.t.Location().String() != "" {
			return c.t.Format(time.RFC3339)
		}
		return c.t.Format("2006-01-02 15:04:05")
	}
	return ""
}

func (c cell) jsonValue() any {
	switch c.k {
	case kNull:
		return nil
	case kNumber:
		if c.f == math.Trunc(c.f) && math.Abs(c.f) < 1<<53 {
			return int64(c.f)
		}
		return c.f
	case kBool:
		return c.b
	case kDate, kDateTime:
		if c.k == kDateTime {
			return c.t.Format("2006-01-02T15:04:05")
		}
		return c.text()
	}
	return c.s
}

func (cv *converter) table(ctx context.Context, c *tool.Call, src *source, to string) ([]byte, map[string]any, error) {
	var g *grid
	var err error
	switch src.kind {
	case "csv":
		g, err = readCSV(src.data)
	case "xlsx":
		g, err = readXLSX(src.data, c.Args.String("sheet"))
	case "json":
		g, err = readJSON(src.data)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(g.rows) == 0 {
		return nil, nil, tool.Invalidf("path", "", "the %s input has no rows", src.kind)
	}
	if err := ctx.Err(); err != nil { // reading a big input may have used up the call's time
		return nil, nil, err
	}
	var out []byte
	switch to {
	case "csv":
		out, err = writeCSV(g)
	case "xlsx":
		out, err = writeXLSX(ctx, g)
	case "json":
		out, err = writeJSON(g)
	}
	if err != nil {
		return nil, nil, err
	}
	facts := map[string]any{"rows": len(g.rows) - 1, "columns": len(g.rows[0]), "column_types": columnTypes(g)}
	if g.sheet != "" {
		facts["sheet"] = g.sheet
	}
	return out, facts, nil
}

// columnTypes summarises each column's data type for the result.
func columnTypes(g *grid) map[string]string {
	out := map[string]string{}
	for j, h := range g.rows[0] {
		kinds := map[cellKind]bool{}
		for _, r := range g.rows[1:] {
			if j < len(r) && r[j].k != kNull {
				kinds[r[j].k] = true
			}
		}
		name := map[cellKind]string{kString: "text", kNumber: "number", kBool: "boolean", kDate: "date", kDateTime: "datetime"}
		var ks []string
		for k := range kinds {
			ks = append(ks, name[k])
		}
		sort.Strings(ks)
		t := strings.Join(ks, "|")
		if t == "" {
			t = "empty"
		}
		out[headerName(h, j)] = t
	}
	return out
}

func headerName(c cell, j int) string {
	if s := strings.TrimSpace(c.text()); s != "" {
		return s
	}
	return fmt.Sprintf("column_%d", j+1)
}

// ---- csv ----

func readCSV(data []byte) (*grid, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, tool.Invalidf("path", "save the CSV as UTF-8 first", "the CSV is not UTF-8 text")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	} else if bytes.Count(first, []byte("\t")) > bytes.Count(first, []byte(",")) {
		r.Comma = '\t'
	}
	recs, err := r.ReadAll()
	if err != nil {
		return nil, tool.Invalidf("path", "", "cannot read the CSV: %v", err)
	}
	g := &grid{}
	for i, rec := range recs {
		row := make([]cell, len(rec))
		for j, v := range rec {
			if i == 0 {
				row[j] = cell{k: kString, s: v}
			} else {
				row[j] = infer(v)
			}
		}
		g.rows = append(g.rows, row)
	}
	return g, nil
}

func writeCSV(g *grid) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, r := range g.rows {
		rec := make([]string, len(r))
		for j, c := range r {
			rec[j] = c.text()
		}
		if err := w.Write(rec); err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// ---- json ----

func readJSON(data []byte) (*grid, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, tool.Invalidf("path", "", "not valid JSON: %v", err)
	}
	if m, ok := v.(map[string]any); ok {
		// {"rows": [...]} or {"data": [...]} wrappers.
		for _, k := range []string{"rows", "data", "records", "items"} {
			if arr, ok := m[k].([]any); ok {
				v = arr
				break
			}
		}
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, tool.Invalidf("path", `use [{"name": "a", "n": 1}, ...] or [["name","n"],["a",1]]`, "JSON tables must be an array of objects or of arrays")
	}
	g := &grid{}
	if len(arr) == 0 {
		return g, nil
	}
	if _, isArr := arr[0].([]any); isArr {
		for i, e := range arr {
			rowv, ok := e.([]any)
			if !ok {
				return nil, tool.Invalidf("path", "", "row %d is not an array", i)
			}
			row := make([]cell, len(rowv))
			for j, x := range rowv {
				row[j] = jsonCell(x)
				if i == 0 {
					row[j] = cell{k: kString, s: row[j].text()}
				}
			}
			g.rows = append(g.rows, row)
		}
		return g, nil
	}
	// Objects: columns in order of first appearance. The decoder loses key
	// order, so recover it from the raw text.
	order := keyOrder(data)
	seen := map[string]bool{}
	var cols []string
	for i, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, tool.Invalidf("path", "", "item %d is not an object", i)
		}
		var ks []string
		for k := range m {
			if !seen[k] {
				ks = append(ks, k)
			}
		}
		sort.Slice(ks, func(a, b int) bool { return order[ks[a]] < order[ks[b]] })
		for _, k := range ks {
			seen[k] = true
			cols = append(cols, k)
		}
	}
	head := make([]cell, len(cols))
	for j, k := range cols {
		head[j] = cell{k: kString, s: k}
	}
	g.rows = append(g.rows, head)
	for _, e := range arr {
		m := e.(map[string]any)
		row := make([]cell, len(cols))
		for j, k := range cols {
			row[j] = jsonCell(m[k])
		}
		g.rows = append(g.rows, row)
	}
	return g, nil
}

// keyOrder returns the first position of every object key in raw JSON.
func keyOrder(data []byte) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	pos := 0
	// Track whether the next string token is a key: inside an object, keys
	// and values alternate.
	type frame struct {
		obj    bool
		expect bool // expecting a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				if top >= 0 && stack[top].obj {
					stack[top].expect = true
				}
				stack = append(stack, frame{obj: true, expect: true})
			case '[':
				if top >= 0 && stack[top].obj {
					stack[top].expect = true
				}
				stack = append(stack, frame{})
			default:
				stack = stack[:top]
			}
			continue
		case string:
			if top >= 0 && stack[top].obj && stack[top].expect {
				if _, ok := out[t]; !ok {
					out[t] = pos
					pos++
				}
				stack[top].expect = false
				continue
			}
		}
		if top >= 0 && stack[top].obj {
			stack[top].expect = true
		}
	}
}

func jsonCell(v any) cell {
	switch x := v.(type) {
	case nil:
		return cell{k: kNull}
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return cell{k: kNumber, f: f}
		}
		return cell{k: kString, s: x.String()}
	case float64:
		return cell{k: kNumber, f: x}
	case bool:
		return cell{k: kBool, b: x}
	case string:
		// ISO dates in JSON become dates; other strings stay text even if
		// they look numeric (JSON already said they are strings).
		if c := infer(x); c.k == kDate || c.k == kDateTime {
			return c
		}
		return cell{k: kString, s: x}
	}
	raw, _ := json.Marshal(v)
	return cell{k: kString, s: string(raw)}
}

func writeJSON(g *grid) ([]byte, error) {
	head := g.rows[0]
	names := make([]string, len(head))
	used := map[string]int{}
	for j, h := range head {
		n := headerName(h, j)
		if used[n] > 0 {
			n = fmt.Sprintf("%s_%d", n, used[n]+1)
		}
		used[headerName(h, j)]++
		names[j] = n
	}
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, r := range g.rows[1:] {
		// Encode objects by hand to keep the column order.
		buf.WriteString("  {")
		for j, n := range names {
			if j > 0 {
				buf.WriteString(", ")
			}
			k, _ := json.Marshal(n)
			var v any
			if j < len(r) {
				v = r[j].jsonValue()
			}
			val, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("json: %w", err)
			}
			buf.Write(k)
			buf.WriteString(": ")
			buf.Write(val)
		}
		buf.WriteString("}")
		if i < len(g.rows)-2 {
			buf.WriteString(",")
		}
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	return buf.Bytes(), nil
}

// ---- xlsx ----

// maxUnzip bounds what one workbook may inflate to.
const maxUnzip = 1 << 30

// readXLSX reads a worksheet (the first with data when sheet is "") with
// the cell reader data_processor uses too, so dates, the 1904 date system
// and booleans read the same in both tools.
func readXLSX(data []byte, sheet string) (*grid, error) {
	wb, err := xlsxcell.OpenBytes(data, "the workbook", xlsxcell.Limits{MaxUnzipBytes: maxUnzip})
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	sh, err := wb.Find(sheet)
	if err != nil {
		if e, ok := tool.AsError(err); ok && sheet != "" {
			e.Field = "sheet"
		}
		return nil, err
	}
	rows, err := wb.Rows(sh)
	if err != nil {
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	defer rows.Close()
	g := &grid{sheet: sh.Name}
	width, last := 0, 0
	for rows.Next() {
		cs := rows.Cells()
		row := make([]cell, len(cs))
		for j, c := range cs {
			row[j] = tableCell(c)
			if len(g.rows) == 0 {
				row[j] = cell{k: kString, s: row[j].text()}
			}
		}
		g.rows = append(g.rows, row)
		if len(cs) > 0 {
			width, last = max(width, len(cs)), len(g.rows)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, tool.Invalidf("path", "the file may be damaged; open and re-save it in Excel or LibreOffice", "%v", err)
	}
	g.rows = g.rows[:last] // trailing blank rows
	for i, r := range g.rows {
		for len(r) < width {
			r = append(r, cell{k: kNull})
		}
		g.rows[i] = r
	}
	return g, nil
}

// tableCell maps a typed workbook cell to a table cell.
func tableCell(c xlsxcell.Cell) cell {
	switch c.Kind {
	case xlsxcell.Empty:
		return cell{k: kNull}
	case xlsxcell.Number:
		return cell{k: kNumber, f: c.Num}
	case xlsxcell.Bool:
		return cell{k: kBool, b: c.Bool}
	case xlsxcell.Date:
		return cell{k: kDate, t: c.Time}
	case xlsxcell.DateTime:
		return cell{k: kDateTime, t: c.Time}
	}
	return cell{k: kString, s: c.String()} // text, errors, times of day
}

func writeXLSX(ctx context.Context, g *grid) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	name := "Sheet1"
	if g.sheet != "" {
		name = g.sheet
		if err := f.SetSheetName("Sheet1", name); err != nil {
			name = "Sheet1"
		}
	}
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}}})
	dateFmt := "yyyy-mm-dd"
	dateTimeFmt := "yyyy-mm-dd hh:mm:ss"
	dateStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &dateFmt})
	dateTimeStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &dateTimeFmt})
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	// Column widths and the frozen header must be set before any row.
	width := 0
	for _, r := range g.rows {
		width = max(width, len(r))
	}
	colW := make([]float64, width)
	for j := range colW {
		colW[j] = 8
	}
	for _, r := range g.rows {
		for j, c := range r {
			colW[j] = math.Min(60, math.Max(colW[j], float64(displayWidth(c.text()))+2))
		}
	}
	for j, w := range colW {
		if err := sw.SetColWidth(j+1, j+1, w); err != nil {
			return nil, fmt.Errorf("xlsx: column width: %w", err)
		}
	}
	if len(g.rows) > 1 {
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
			return nil, fmt.Errorf("xlsx: panes: %w", err)
		}
	}
	for i, r := range g.rows {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		vals := make([]any, len(r))
		for j, c := range r {
			var v any
			style := 0
			switch c.k {
			case kNull:
				v = nil
			case kNumber:
				v = c.f
			case kBool:
				v = c.b
			case kDate:
				v, style = c.t, dateStyle
			case kDateTime:
				v, style = c.t, dateTimeStyle
			default:
				v = c.s
			}
			if i == 0 {
				style = bold
			}
			vals[j] = excelize.Cell{StyleID: style, Value: v}
		}
		axis, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(axis, vals); err != nil {
			return nil, fmt.Errorf("xlsx: row %d: %w", i+1, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("xlsx: write: %w", err)
	}
	return buf.Bytes(), nil
}

// displayWidth counts CJK characters double, for column widths.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if r >= 0x2E80 {
			w += 2
		} else {
			w++
		}
	}
	return w
}
