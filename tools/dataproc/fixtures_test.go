package dataproc

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// fixtureDir holds the committed data fixtures.
const fixtureDir = "../../fixtures/data"

// TestWriteFixtures regenerates the committed fixtures:
//
//	CLAWBRIDGE_WRITE_FIXTURES=1 go test ./tools/dataproc -run TestWriteFixtures
func TestWriteFixtures(t *testing.T) {
	if os.Getenv("CLAWBRIDGE_WRITE_FIXTURES") != "1" {
		t.Skip("set CLAWBRIDGE_WRITE_FIXTURES=1 to regenerate fixtures/data")
	}
	if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeSalesWorkbook(filepath.Join(fixtureDir, "sales_multi.xlsx")); err != nil {
		t.Fatal(err)
	}
	if err := writeCSVFixtures(fixtureDir); err != nil {
		t.Fatal(err)
	}
}

// salesRows are the data rows of the 销售 sheet: date, region, product,
// quantity, unit price (amount is a formula).
var salesRows = []struct {
	date    string
	region  string
	product string
	qty     int
	price   float64
}{
	{"2024-01-05", "华东", "笔记本", 3, 4999.5},
	{"2024-01-18", "华东", "显示器", 5, 1299},
	{"2024-02-02", "华东", "键盘", 10, 199.9},
	{"2024-02-14", "华北", "笔记本", 2, 4999.5},
	{"2024-03-01", "华北", "鼠标", 20, 59},
	{"2024-03-15", "华南", "显示器", 4, 1299},
	{"2024-03-28", "华南", "笔记本", 1, 4999.5},
	{"2024-04-09", "华南", "键盘", 8, 199.9},
}

// writeSalesWorkbook writes a workbook the way people make them: a merged
// title row, a header, real date cells, a region column merged vertically,
// amount as a formula with its cached value, a summary sheet of formulas and
// a hidden sheet.
func writeSalesWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "销售"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("销售")
	if err != nil {
		return err
	}
	dateStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	moneyStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 4})
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err := sw.SetRow("A1", []any{excelize.Cell{StyleID: bold, Value: "2024年上半年销售报表"}}); err != nil {
		return err
	}
	if err := sw.SetRow("A2", []any{"日期", "地区", "产品", "数量", "单价", "金额"}); err != nil {
		return err
	}
	for i, r := range salesRows {
		row := i + 3
		d, _ := time.Parse("2006-01-02", r.date)
		cells := []any{
			excelize.Cell{StyleID: dateStyle, Value: d},
			r.region, r.product, r.qty,
			excelize.Cell{StyleID: moneyStyle, Value: r.price},
			excelize.Cell{StyleID: moneyStyle, Formula: "D" + itoa(row) + "*E" + itoa(row), Value: float64(r.qty) * r.price},
		}
		// The region is written only on the first row of its merged block.
		if i > 0 && salesRows[i-1].region == r.region {
			cells[1] = nil
		}
		if err := sw.SetRow("A"+itoa(row), cells); err != nil {
			return err
		}
	}
	for _, m := range [][2]string{{"A1", "F1"}, {"B3", "B5"}, {"B6", "B7"}, {"B8", "B10"}} {
		if err := sw.MergeCell(m[0], m[1]); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	// Summary: formulas over the data sheet, with cached values.
	if _, err := f.NewSheet("汇总"); err != nil {
		return err
	}
	// Region totals as SUM over each region's rows (SUMIF would see only
	// the first row of a merged region block, as Excel and LibreOffice do).
	sum := map[string]float64{}
	first, lastRow := map[string]int{}, map[string]int{}
	var order []string
	for i, r := range salesRows {
		if _, ok := sum[r.region]; !ok {
			order = append(order, r.region)
			first[r.region] = i + 3
		}
		lastRow[r.region] = i + 3
		sum[r.region] += float64(r.qty) * r.price
	}
	sw2, err := f.NewStreamWriter("汇总")
	if err != nil {
		return err
	}
	sw2.SetRow("A1", []any{"地区", "销售额"})
	total := 0.0
	for i, reg := range order {
		row := i + 2
		sw2.SetRow("A"+itoa(row), []any{reg, excelize.Cell{Formula: "SUM(销售!F" + itoa(first[reg]) + ":F" + itoa(lastRow[reg]) + ")", Value: sum[reg]}})
		total += sum[reg]
	}
	last := len(order) + 1
	sw2.SetRow("A"+itoa(last+1), []any{"合计", excelize.Cell{Formula: "SUM(B2:B" + itoa(last) + ")", Value: total}})
	if err := sw2.Flush(); err != nil {
		return err
	}
	if _, err := f.NewSheet("hidden"); err != nil {
		return err
	}
	f.SetCellValue("hidden", "A1", "secret")
	f.SetSheetVisible("hidden", false)
	return f.SaveAs(path)
}

func itoa(i int) string { return string(rune('0'+i/10%10)) + string(rune('0'+i%10)) }

// csvRows is the table of the CSV fixtures.
var csvRows = [][]string{
	{"订单号", "客户", "城市", "金额", "下单日期", "已付款"},
	{"00101", "张三", "上海", "1,280.50", "2024/3/1", "是"},
	{"00102", "李四", "北京", "560", "2024/3/2", "否"},
	{"00103", "王五", "深圳", "N/A", "2024/3/5", "是"},
	{"00104", "赵六", "上海", "2300", "2024/3/9", "是"},
}

func writeCSVFixtures(dir string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(csvRows)
	w.Flush()
	gbk, err := simplifiedchinese.GBK.NewEncoder().Bytes(buf.Bytes())
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "orders_gbk.csv"), gbk, 0o644); err != nil {
		return err
	}
	bom := append([]byte{0xEF, 0xBB, 0xBF}, buf.Bytes()...)
	if err := os.WriteFile(filepath.Join(dir, "orders_bom.csv"), bom, 0o644); err != nil {
		return err
	}
	js := `[
  {"customer_id": "00101", "name": "张三", "tier": "gold", "since": "2021-06-01"},
  {"customer_id": "00102", "name": "李四", "tier": "silver", "since": "2022-01-15"},
  {"customer_id": "00105", "name": "孙七", "tier": "gold", "since": "2023-09-30", "note": {"vip": true}}
]
`
	return os.WriteFile(filepath.Join(dir, "customers.json"), []byte(js), 0o644)
}
