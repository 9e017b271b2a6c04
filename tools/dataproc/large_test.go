package dataproc

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// writeBig writes an n-row x 20-column workbook with the stream writer:
// an id, a date, a category, numbers and text.
func writeBig(tb testing.TB, path string, n int) { writeBigCols(tb, path, n, 20) }

// writeBigCols writes n rows of width columns (at least 4).
func writeBigCols(tb testing.TB, path string, n, width int) {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		tb.Fatal(err)
	}
	dateStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	header := []any{"id", "date", "region"}
	for c := 3; c < width; c++ {
		header = append(header, fmt.Sprintf("v%d", c))
	}
	if err := sw.SetRow("A1", header); err != nil {
		tb.Fatal(err)
	}
	regions := []string{"north", "south", "east", "west"}
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	row := make([]any, width)
	for i := 1; i <= n; i++ {
		row[0] = i
		row[1] = excelize.Cell{StyleID: dateStyle, Value: base.AddDate(0, 0, i%1000)}
		row[2] = regions[i%4]
		for c := 3; c < width; c++ {
			if c%5 == 0 {
				row[c] = fmt.Sprintf("t%d", (i*c)%97)
			} else {
				row[c] = float64(i%1000) + float64(c)/10
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(cell, row); err != nil {
			tb.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		tb.Fatal(err)
	}
}

func TestLargeWorkbook(t *testing.T) {
	if testing.Short() {
		t.Skip("large workbook")
	}
	e := newEnv(t)
	// 100,000 rows, narrow so that the test stays fast (under -race too);
	// the benchmarks use 20 columns.
	n := 100_000
	if raceOn {
		n = 10_000 // the race detector slows excelize's XML decoding ~10x
	}
	writeBigCols(t, filepath.Join(e.root, "data", "big.xlsx"), n, 4)
	d := e.call(map[string]any{"action": "describe", "path": "data/big.xlsx", "columns": []any{"id", "date", "region", "v3"}})
	if d["rows"] != float64(n) {
		t.Fatalf("rows = %v", d["rows"])
	}
	cols := d["columns"].([]any)
	id, date := cols[0].(map[string]any), cols[1].(map[string]any)
	if id["type"] != "integer" || id["max"] != float64(n) || id["median"] != float64(n+1)/2 || date["type"] != "date" || date["min"] != "2020-01-01" {
		t.Fatalf("stats: %v %v", id, date)
	}
	d = e.call(map[string]any{"action": "read", "path": "data/big.xlsx", "offset": n - 2, "limit": 10, "columns": []any{"id", "region"}})
	if got := fmt.Sprint(d["rows"]); got != fmt.Sprintf("[[%d west] [%d north]]", n-1, n) || d["total_rows"] != float64(n) {
		t.Fatalf("tail = %s %v", got, d["total_rows"])
	}
	d = e.call(map[string]any{"action": "group", "path": "data/big.xlsx", "group_by": []any{"region"}, "aggregations": []any{map[string]any{"func": "count"}}})
	q := n / 4
	if got := fmt.Sprint(d["result"].(map[string]any)["rows"]); got != fmt.Sprintf("[[east %d] [north %d] [south %d] [west %d]]", q, q, q, q) {
		t.Fatalf("group = %s", got)
	}
}

func TestLimits(t *testing.T) {
	e := newEnv(t)
	// A zip bomb: one highly compressible 80 MB part.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	bw := bufio.NewWriter(w)
	chunk := bytes.Repeat([]byte{' '}, 1<<20)
	for range 80 {
		bw.Write(chunk)
	}
	bw.Flush()
	zw.Close()
	os.WriteFile(filepath.Join(e.root, "data", "bomb.xlsx"), buf.Bytes(), 0o644)
	te := e.fail(map[string]any{"action": "read", "path": "data/bomb.xlsx"})
	if te.Code != "too_large" || !strings.Contains(te.Message, "expands") {
		t.Fatalf("bomb: %+v", te)
	}
	// A row limit applies.
	d := tooltest.Deps(t)
	p := &processor{d: d, limits: table.DefaultLimits}
	p.limits.MaxRows = 3
	os.MkdirAll(filepath.Join(d.Sandbox.Root(), "data"), 0o755)
	b, _ := os.ReadFile(filepath.Join(fixtureDir, "orders_bom.csv"))
	os.WriteFile(filepath.Join(d.Sandbox.Root(), "data", "o.csv"), b, 0o644)
	_, err := p.describe(t.Context(), callOf("describe", map[string]any{"path": "data/o.csv"}))
	if te, ok := err.(interface{ Error() string }); !ok || !strings.Contains(te.Error(), "more than 3 data rows") {
		t.Fatalf("row limit: %v", err)
	}
	// Not a workbook, legacy xls, a folder.
	os.WriteFile(filepath.Join(e.root, "data", "fake.xlsx"), []byte("a,b\n1,2\n"), 0o644)
	for _, c := range []struct{ path, code string }{{"data/fake.xlsx", "invalid_argument"}, {"data/old.xls", "not_found"}, {"data/missing.csv", "not_found"}, {"../etc/passwd.csv", "permission_denied"}} {
		if te := e.fail(map[string]any{"action": "read", "path": c.path}); te.Code != c.code {
			t.Errorf("%s: %+v", c.path, te)
		}
	}
}
