package dataproc

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The benchmarks compare the tool with bare excelize loops over the same
// 100,000 x 20 workbook (make bench runs them side by side):
//
//	go test ./tools/dataproc -run XXX -bench . -benchmem -benchtime 3x

var (
	benchOnce sync.Once
	benchDir  string
	benchFile string
)

func benchWorkbook(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "clawbridge-bench-*")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		benchFile = filepath.Join(dir, "big.xlsx")
		writeBig(b, benchFile, 100_000)
	})
	return benchFile
}

// peak runs fn while sampling the live heap, and reports the highest value
// seen (MB) next to the time: the streaming paths should stay flat as the
// row count grows, while the bare loops show excelize's own footprint.
func peak(b *testing.B, fn func()) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var hi uint64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			hi = max(hi, m.HeapInuse)
			select {
			case <-stop:
				done <- hi
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	hi := <-done
	b.ReportMetric(float64(hi-min(hi, base.HeapInuse))/(1<<20), "peak-MB")
}

func benchTool(b *testing.B, file string) (tool.Tool, string) {
	d := tooltest.Deps(b)
	dst := filepath.Join(d.Sandbox.Root(), filepath.Base(file))
	if err := os.Symlink(file, dst); err != nil {
		b.Fatal(err)
	}
	// The workbook lives outside the workspace: add its directory as a root.
	d.Sandbox.ApplyClientRoots(append(d.Sandbox.Roots(), filepath.Dir(file)), true)
	return tooltest.Build(b, New, d), file
}

func BenchmarkBareRows100k(b *testing.B) {
	file := benchWorkbook(b)
	for b.Loop() {
		peak(b, func() {
			f, err := excelize.OpenFile(file)
			if err != nil {
				b.Fatal(err)
			}
			rows, _ := f.Rows("Sheet1")
			n := 0
			for rows.Next() {
				if _, err := rows.Columns(excelize.Options{RawCellValue: true}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			rows.Close()
			f.Close()
			if n != 100_001 {
				b.Fatal(n)
			}
		})
	}
}

func BenchmarkDescribe100k(b *testing.B) {
	tl, file := benchTool(b, benchWorkbook(b))
	for b.Loop() {
		peak(b, func() {
			if _, err := tooltest.Run(b, tl, map[string]any{"action": "describe", "path": file}); err != nil {
				b.Fatal(err)
			}
		})
	}
}

func BenchmarkReadLastPage100k(b *testing.B) {
	tl, file := benchTool(b, benchWorkbook(b))
	for b.Loop() {
		peak(b, func() {
			if _, err := tooltest.Run(b, tl, map[string]any{"action": "read", "path": file, "offset": 99_990, "limit": 10}); err != nil {
				b.Fatal(err)
			}
		})
	}
}

func benchRows() [][]any {
	rows := make([][]any, 100_000)
	for i := range rows {
		r := make([]any, 20)
		for c := range r {
			if c%5 == 0 {
				r[c] = fmt.Sprintf("t%d", (i*c)%97)
			} else {
				r[c] = float64(i%1000) + float64(c)/10
			}
		}
		rows[i] = r
	}
	return rows
}

func BenchmarkBareStreamWriter100k(b *testing.B) {
	rows := benchRows()
	dir := b.TempDir()
	for b.Loop() {
		f := excelize.NewFile()
		sw, _ := f.NewStreamWriter("Sheet1")
		for i, r := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := sw.SetRow(cell, r); err != nil {
				b.Fatal(err)
			}
		}
		sw.Flush()
		if err := f.SaveAs(filepath.Join(dir, "bare.xlsx")); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

func BenchmarkWriter100k(b *testing.B) {
	rows := benchRows()
	dir := b.TempDir()
	header := make([]string, 20)
	for i := range header {
		header[i] = fmt.Sprintf("c%d", i)
	}
	for b.Loop() {
		out, err := os.Create(filepath.Join(dir, "ours.xlsx"))
		if err != nil {
			b.Fatal(err)
		}
		w, err := table.NewWriter(out, "xlsx", "Sheet1", header)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			if err := w.Row(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		out.Close()
	}
}

func BenchmarkGroupBy1MCSV(b *testing.B) {
	d := tooltest.Deps(b)
	path := filepath.Join(d.Sandbox.Root(), "million.csv")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	w.WriteString("id,region,product,amount\n")
	regions := []string{"north", "south", "east", "west", "central"}
	for i := range 1_000_000 {
		fmt.Fprintf(w, "%d,%s,p%d,%d.%02d\n", i, regions[i%5], i%50, i%1000, i%100)
	}
	w.Flush()
	f.Close()
	tl := tooltest.Build(b, New, d)
	b.ResetTimer()
	for b.Loop() {
		res, err := tooltest.Run(b, tl, map[string]any{"action": "group", "path": "million.csv", "group_by": []any{"region"},
			"aggregations": []any{map[string]any{"column": "amount", "func": "sum"}, map[string]any{"func": "count"}}})
		if err != nil {
			b.Fatal(err)
		}
		if rows := res.Data.(map[string]any)["result"].(*page).RowCount; rows != 5 {
			b.Fatal(rows)
		}
	}
}
