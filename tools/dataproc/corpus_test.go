package dataproc

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/xlsxcell"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// corpusDir finds the public test corpora scripts/fetch-corpora.sh fetches.
func corpusDir(t *testing.T) string {
	if d := os.Getenv("CLAWBRIDGE_CORPUS"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "corpus")
}

// TestCorpus_WorkbookCellsMatchLibreOffice reads every worksheet of the
// excelize, exceljs and tealeg test workbooks with the cell reader both
// data_processor and format_converter use, and compares each cell with
// LibreOffice's CSV export of the same sheet. It reports the figures and
// fails only when reading crashes or hangs.
func TestCorpus_WorkbookCellsMatchLibreOffice(t *testing.T) {
	root := corpusDir(t)
	var files []string
	for _, c := range []string{"excelize", "exceljs", "tealeg"} {
		_ = filepath.WalkDir(filepath.Join(root, c), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".xlsx") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no workbook corpus; run scripts/fetch-corpora.sh")
	}
	if !office.Available() {
		t.Skip("LibreOffice is not installed")
	}
	sort.Strings(files)
	// LibreOffice names its outputs after the input's base name: copy the
	// inputs under unique names.
	in := t.TempDir()
	var inputs []string
	for i, f := range files {
		data := tooltest.ReadFile(t, f)
		p := filepath.Join(in, strconv.Itoa(i)+"_"+filepath.Base(f))
		tooltest.WriteFile(t, p, data)
		inputs = append(inputs, p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	csvs, err := office.SheetsToCSV(ctx, jail.Run, t.TempDir(), inputs...)
	if err != nil {
		t.Fatalf("LibreOffice CSV export: %v", err)
	}
	var books, opened, compared, allEqual, cells, equal int
	for i, f := range files {
		name, _ := filepath.Rel(root, f)
		books++
		wb, err := xlsxcell.Open(f, xlsxcell.Limits{MaxUnzipBytes: 1 << 30})
		if err != nil {
			t.Logf("corpus: %s: not read: %v", name, err)
			continue
		}
		opened++
		// The tool's own path must not crash either.
		if r, err := table.Open(f, table.Options{}); err == nil {
			for {
				if _, _, err := r.Next(); err != nil {
					break
				}
			}
			r.Close()
		}
		if len(csvs[i]) == 0 {
			t.Logf("corpus: %s: LibreOffice exported no sheet", name)
			wb.Close()
			continue
		}
		compared++
		bookEqual := true
		for _, s := range wb.Worksheets() {
			lo, ok := csvs[i][s.Name]
			if !ok {
				continue
			}
			want := readCSVFile(t, lo)
			got := readSheet(t, wb, s)
			for r := 0; r < max(len(got), len(want)); r++ {
				for c := 0; c < max(rowLen(got, r), rowLen(want, r)); c++ {
					g, w := cellAt(got, r, c), strAt(want, r, c)
					if g.Kind == xlsxcell.Empty && w == "" {
						continue
					}
					cells++
					if sameCell(g, w) {
						equal++
						continue
					}
					if bookEqual {
						t.Logf("corpus: %s: %s!R%dC%d: ours %q (kind %d), LibreOffice %q", name, s.Name, r+1, c+1, g.String(), g.Kind, w)
					}
					bookEqual = false
				}
			}
		}
		wb.Close()
		if bookEqual {
			allEqual++
		}
	}
	t.Logf("corpus: workbooks: %d, opened: %d, compared with LibreOffice: %d, every cell equal: %d", books, opened, compared, allEqual)
	t.Logf("corpus: non-empty cells compared: %d, equal: %d (%.2f%%)", cells, equal, 100*float64(equal)/math.Max(1, float64(cells)))
}

func readSheet(t *testing.T, wb *xlsxcell.Workbook, s xlsxcell.Sheet) [][]xlsxcell.Cell {
	rows, err := wb.Rows(s)
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	defer rows.Close()
	var out [][]xlsxcell.Cell
	for rows.Next() {
		out = append(out, rows.Cells())
	}
	return out
}

func readCSVFile(t *testing.T, p string) [][]string {
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	// encoding/csv skips blank lines, which are blank rows here: put them
	// back from the line each record starts on.
	var recs [][]string
	extra := 0 // lines taken by newlines inside quoted fields
	for {
		rec, err := r.Read()
		if err != nil {
			return recs
		}
		line, _ := r.FieldPos(0)
		for len(recs)+extra < line-1 {
			recs = append(recs, nil)
		}
		for _, v := range rec {
			extra += strings.Count(v, "\n")
		}
		recs = append(recs, rec)
	}
}

func rowLen[T any](g [][]T, r int) int {
	if r < len(g) {
		return len(g[r])
	}
	return 0
}

func cellAt(g [][]xlsxcell.Cell, r, c int) xlsxcell.Cell {
	if r < len(g) && c < len(g[r]) {
		return g[r][c]
	}
	return xlsxcell.Cell{}
}

func strAt(g [][]string, r, c int) string {
	if r < len(g) && c < len(g[r]) {
		return g[r][c]
	}
	return ""
}

// sameCell compares our typed cell with LibreOffice's raw CSV text, which
// writes dates as MM/DD/YYYY, times as HH:MM:SS and booleans as TRUE/FALSE.
func sameCell(g xlsxcell.Cell, w string) bool {
	switch g.Kind {
	case xlsxcell.Empty:
		return w == ""
	case xlsxcell.Text, xlsxcell.Error:
		return g.Text == w
	case xlsxcell.Bool:
		return strings.EqualFold(w, strconv.FormatBool(g.Bool))
	case xlsxcell.Number:
		f, err := strconv.ParseFloat(w, 64)
		if p, ok := strings.CutSuffix(w, "%"); ok { // LibreOffice keeps the % of percentages
			f, err = strconv.ParseFloat(p, 64)
			f /= 100
		}
		return err == nil && math.Abs(f-g.Num) <= 1e-9*math.Max(1, math.Abs(g.Num))
	case xlsxcell.TimeOfDay:
		for _, l := range []string{"15:04:05", "03:04:05 PM", "15:04"} {
			if tm, err := time.Parse(l, w); err == nil {
				return tm.Format("15:04:05") == g.Text || tm.Format("15:04") == g.Text[:min(5, len(g.Text))]
			}
		}
		return w == g.Text
	case xlsxcell.Date, xlsxcell.DateTime:
		for _, l := range []string{"01/02/2006", "01/02/2006 15:04:05", "01/02/2006 15:04", "01/02/2006 03:04:05 PM", "01/02/06"} {
			if tm, err := time.Parse(l, w); err == nil {
				if l == "01/02/2006" || l == "01/02/06" {
					return tm.Format("2006-01-02") == g.Time.Format("2006-01-02")
				}
				return tm.Equal(g.Time.Truncate(time.Minute)) || tm.Equal(g.Time)
			}
		}
	}
	return false
}
