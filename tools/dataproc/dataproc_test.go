package dataproc

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func TestSheets(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "sheets", "path": "data/sales_multi.xlsx"})
	var names []string
	for _, s := range d["sheets"].([]any) {
		m := s.(map[string]any)
		names = append(names, fmt.Sprintf("%s:%v", m["name"], m["visible"]))
	}
	if got := strings.Join(names, ","); got != "销售:true,汇总:true,hidden:false" {
		t.Fatalf("sheets = %s", got)
	}
}

func TestReadWorkbook(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "read", "path": "data/sales_multi.xlsx"})
	if d["sheet"] != "销售" || d["header_row"] != 2.0 {
		t.Fatalf("sheet/header: %v %v", d["sheet"], d["header_row"])
	}
	var cols []string
	for _, c := range d["columns"].([]any) {
		m := c.(map[string]any)
		cols = append(cols, fmt.Sprintf("%s:%s", m["name"], m["type"]))
	}
	want := "日期:date,地区:text,产品:text,数量:integer,单价:number,金额:number"
	if strings.Join(cols, ",") != want {
		t.Fatalf("columns = %v, want %s", cols, want)
	}
	rs := rows(d, "rows")
	if len(rs) != len(salesRows) || d["total_rows"] != float64(len(salesRows)) {
		t.Fatalf("%d rows", len(rs))
	}
	for i, r := range salesRows {
		got := rs[i]
		// Dates come back ISO, merged region cells carry the region, the
		// amount is the formula's cached value.
		if got[0] != r.date || got[1] != r.region || got[2] != r.product || got[3] != float64(r.qty) || got[4] != r.price {
			t.Errorf("row %d = %v", i, got)
		}
		if a := got[5].(float64); fmt.Sprintf("%.2f", a) != fmt.Sprintf("%.2f", float64(r.qty)*r.price) {
			t.Errorf("row %d amount %v", i, a)
		}
	}
	if !strings.Contains(fmt.Sprint(d["notes"]), "title row 1") {
		t.Errorf("notes: %v", d["notes"])
	}
	// Paging and a sheet chosen by name.
	d = e.call(map[string]any{"action": "read", "path": "data/sales_multi.xlsx", "offset": 6, "limit": 1, "columns": []any{"产品", "金额"}})
	if rs := rows(d, "rows"); len(rs) != 1 || rs[0][0] != "笔记本" || d["has_more"] != true {
		t.Fatalf("page: %v", d)
	}
	d = e.call(map[string]any{"action": "read", "path": "data/sales_multi.xlsx", "sheet": "汇总"})
	if rs := rows(d, "rows"); len(rs) != 4 || rs[3][0] != "合计" || fmt.Sprintf("%.1f", rs[3][1]) != "46466.2" {
		t.Fatalf("summary sheet: %v", d["rows"])
	}
	te := e.fail(map[string]any{"action": "read", "path": "data/sales_multi.xlsx", "sheet": "nope"})
	if !strings.Contains(te.Hint, "汇总") {
		t.Fatalf("bad sheet error should list sheets: %+v", te)
	}
}

func TestCSVEncodingsAndJSON(t *testing.T) {
	e := newEnv(t)
	for _, f := range []string{"data/orders_gbk.csv", "data/orders_bom.csv"} {
		t.Run(f, func(t *testing.T) {
			d := e.call(map[string]any{"action": "read", "path": f})
			var names []string
			for _, c := range d["columns"].([]any) {
				names = append(names, c.(map[string]any)["name"].(string))
			}
			if strings.Join(names, ",") != "订单号,客户,城市,金额,下单日期,已付款" {
				t.Fatalf("header = %v (encoding %v)", names, d["encoding"])
			}
			rs := rows(d, "rows")
			// Leading zeros stay text, thousands separators parse, dates become ISO.
			if rs[0][0] != "00101" || rs[0][1] != "张三" || rs[0][3] != 1280.5 || rs[0][4] != "2024-03-01" {
				t.Fatalf("row 0 = %v", rs[0])
			}
		})
	}
	d := e.call(map[string]any{"action": "read", "path": "data/customers.json"})
	if rs := rows(d, "rows"); len(rs) != 3 || rs[2][1] != "孙七" || rs[2][4] != `{"vip": true}` {
		t.Fatalf("json rows = %v", d["rows"])
	}
}

func TestDescribe(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "describe", "path": "data/orders_gbk.csv"})
	cols := map[string]map[string]any{}
	for _, c := range d["columns"].([]any) {
		m := c.(map[string]any)
		cols[m["name"].(string)] = m
	}
	amt := cols["金额"]
	// 3 numbers and one "N/A": a number column whose bad cell is named.
	if amt["type"] != "number" || amt["count"] != 4.0 || amt["min"] != 560.0 || amt["max"] != 2300.0 {
		t.Fatalf("金额 = %v", amt)
	}
	if bad := fmt.Sprint(amt["bad_cells"]); !strings.Contains(bad, "N/A") || !strings.Contains(bad, "row 4") {
		t.Fatalf("bad cells = %s", bad)
	}
	if cols["下单日期"]["type"] != "date" || cols["下单日期"]["min"] != "2024-03-01" {
		t.Fatalf("date col = %v", cols["下单日期"])
	}
	if cols["已付款"]["type"] != "boolean" || cols["城市"]["distinct"] != 3.0 {
		t.Fatalf("cols = %v %v", cols["已付款"], cols["城市"])
	}
	if top := cols["城市"]["top"].([]any)[0].(map[string]any); top["value"] != "上海" || top["count"] != 2.0 {
		t.Fatalf("top = %v", top)
	}
	d = e.call(map[string]any{"action": "describe", "path": "data/sales_multi.xlsx", "columns": []any{"数量"}})
	q := d["columns"].([]any)[0].(map[string]any)
	if q["sum"] != 53.0 || q["median"] != 4.5 || math.Abs(q["mean"].(float64)-53.0/8) > 1e-9 {
		t.Fatalf("数量 stats = %v", q)
	}
}

func TestQueryAndTransforms(t *testing.T) {
	e := newEnv(t)
	d := e.call(map[string]any{"action": "query", "paths": []any{"data/sales_multi.xlsx", "data/sales_multi.xlsx#汇总"},
		"sql": "SELECT 地区, SUM(金额) AS total FROM sales_multi GROUP BY 地区 ORDER BY total DESC"})
	res := d["result"].(map[string]any)
	rs := rows(res, "rows")
	if len(rs) != 3 || rs[0][0] != "华东" || fmt.Sprintf("%.1f", rs[0][1]) != "23492.5" {
		t.Fatalf("query rows = %v", rs)
	}
	tables := d["tables"].([]any)
	if tables[1].(map[string]any)["table"] != "sales_multi_汇总" {
		t.Fatalf("tables = %v", tables)
	}
	// Refused statements: nothing but one SELECT runs against the engine.
	for _, q := range []string{
		"DELETE FROM sales_multi",
		"SELECT 1; DROP TABLE sales_multi",
		"ATTACH DATABASE '/tmp/x.db' AS x",
		"SELECT load_extension('/tmp/evil')",
		"PRAGMA writable_schema = 1",
	} {
		te := e.fail(map[string]any{"action": "query", "paths": []any{"data/sales_multi.xlsx"}, "sql": q})
		if te.Field != "sql" {
			t.Errorf("%q: %+v", q, te)
		}
	}
	te := e.fail(map[string]any{"action": "query", "paths": []any{"data/sales_multi.xlsx"}, "sql": "SELECT nope FROM sales_multi"})
	if !strings.Contains(te.Hint, "sales_multi(日期, 地区") {
		t.Fatalf("query error hint should list tables: %+v", te)
	}

	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"filter", map[string]any{"action": "filter", "path": "data/sales_multi.xlsx", "where": []any{
			map[string]any{"column": "金额", "op": ">", "value": 5000}, map[string]any{"column": "产品", "op": "contains", "value": "显示"}},
			"columns": []any{"日期", "金额"}}, "[[2024-01-18 6495] [2024-03-15 5196]]"},
		{"filter any", map[string]any{"action": "filter", "path": "data/orders_gbk.csv", "match": "any", "where": []any{
			map[string]any{"column": "城市", "op": "in", "value": []any{"北京", "深圳"}}, map[string]any{"column": "下单日期", "op": "between", "value": []any{"2024-03-09", "2024-03-31"}}},
			"columns": []any{"订单号"}}, "[[00102] [00103] [00104]]"},
		{"sort", map[string]any{"action": "sort", "path": "data/sales_multi.xlsx", "order_by": []any{"数量 desc"}, "columns": []any{"产品", "数量"}, "limit": 2}, "[[鼠标 20] [键盘 10]]"},
		{"group month", map[string]any{"action": "group", "path": "data/sales_multi.xlsx", "group_by": []any{"日期:month"},
			"aggregations": []any{map[string]any{"column": "金额", "func": "sum", "as": "sales"}, map[string]any{"func": "count"}}},
			"[[2024-01 21493.5 2] [2024-02 11998 2] [2024-03 11375.5 3] [2024-04 1599.2 1]]"},
		{"pivot", map[string]any{"action": "pivot", "path": "data/sales_multi.xlsx", "index": []any{"地区"}, "pivot_column": "产品", "values": "数量"},
			"[[华东 5 3 10 <nil> 18] [华北 <nil> 2 <nil> 20 22] [华南 4 1 8 <nil> 13]]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := e.call(c.args)
			got := fmt.Sprint(rows(d["result"].(map[string]any), "rows"))
			got = strings.ReplaceAll(got, "11375.500000000002", "11375.5")
			if got != c.want {
				t.Fatalf("%s\n got %s\nwant %s\nsql %v", c.name, got, c.want, d["sql"])
			}
		})
	}
	// Summing a column with a stray "N/A": the cell is named in a warning.
	d = e.call(map[string]any{"action": "group", "path": "data/orders_gbk.csv", "group_by": []any{"城市"}, "aggregations": []any{map[string]any{"column": "金额", "func": "sum"}}})
	if w := fmt.Sprint(d["warnings"]); !strings.Contains(w, `"N/A" at row 4, column "金额"`) {
		t.Fatalf("warnings = %s", w)
	}
	// Summing text is an error naming the column.
	te = e.fail(map[string]any{"action": "group", "path": "data/orders_gbk.csv", "group_by": []any{"城市"}, "aggregations": []any{map[string]any{"column": "客户", "func": "sum"}}})
	if !strings.Contains(te.Message, `"客户"`) {
		t.Fatalf("%+v", te)
	}
	te = e.fail(map[string]any{"action": "sort", "path": "data/orders_gbk.csv", "order_by": []any{"price"}})
	if !strings.Contains(te.Message, `"price"`) || !strings.Contains(te.Hint, "订单号") {
		t.Fatalf("%+v", te)
	}
	// Join a CSV and a JSON file on a key with leading zeros.
	d = e.call(map[string]any{"action": "join", "paths": []any{"data/orders_bom.csv", "data/customers.json"}, "on": []any{"订单号=customer_id"}, "how": "left", "columns": []any{"订单号", "tier"}})
	if got := fmt.Sprint(rows(d["result"].(map[string]any), "rows")); got != "[[00101 gold] [00102 silver] [00103 <nil>] [00104 <nil>]]" {
		t.Fatalf("join = %s (%v)", got, d["sql"])
	}
}

func TestCleanExportLibreOffice(t *testing.T) {
	e := newEnv(t)
	dup := "a,b,empty,c\n x ,1,,2024/1/2\nx,1,,2024/1/2\ny,,,\n,,,\nz,3,,2024-02-03\n"
	os.WriteFile(filepath.Join(e.root, "data", "dirty.csv"), []byte(dup), 0o644)
	d := e.call(map[string]any{"action": "clean", "path": "data/dirty.csv", "fill": map[string]any{"b": "zero"}, "output": "out/clean.xlsx"})
	if d["rows_in"] != 4.0 || d["rows_out"] != 3.0 || d["duplicates_removed"] != 1.0 || fmt.Sprint(d["columns_dropped"]) != "[empty]" {
		t.Fatalf("clean = %v", d)
	}
	te := e.fail(map[string]any{"action": "clean", "path": "data/dirty.csv", "output": "out/clean.xlsx"})
	if te.Code != "already_exists" {
		t.Fatalf("%+v", te)
	}
	e.call(map[string]any{"action": "export", "paths": []any{"data/sales_multi.xlsx"}, "output": "out/by_region.xlsx",
		"sql": "SELECT 地区, COUNT(*) AS n, SUM(金额) AS total, MIN(日期) AS first FROM sales_multi GROUP BY 地区 ORDER BY 地区"})
	e.call(map[string]any{"action": "export", "path": "data/orders_gbk.csv", "output": "out/orders.xlsx"})
	d = e.call(map[string]any{"action": "export", "path": "data/sales_multi.xlsx", "output": "out/sales.json"})
	if d["rows"] != 8.0 {
		t.Fatalf("json export %v", d)
	}
	b, _ := os.ReadFile(filepath.Join(e.root, "out", "sales.json"))
	if !strings.Contains(string(b), `"日期": "2024-01-05", "地区": "华东"`) {
		t.Fatalf("json = %s", b[:200])
	}

	lo := officetest.SheetsCSV(t, filepath.Join(e.root, "out", "clean.xlsx"), filepath.Join(e.root, "out", "by_region.xlsx"), filepath.Join(e.root, "out", "orders.xlsx"),
		filepath.Join(e.root, "data", "sales_multi.xlsx"))
	// The fixture's formulas, recalculated by LibreOffice, agree with the
	// cached values our reader returns.
	for _, sheet := range []string{"销售", "汇总"} {
		d := e.call(map[string]any{"action": "read", "path": "data/sales_multi.xlsx", "sheet": sheet})
		ours := rows(d, "rows")
		theirs := lo["sales_multi-"+sheet]
		last := len(theirs[0]) - 1
		var body [][]string
		for _, r := range theirs {
			if len(r) > last && r[last] != "" && r[0] != "" {
				body = append(body, r)
			}
		}
		body = body[1:] // header
		if len(body) != len(ours) {
			t.Fatalf("%s: LibreOffice has %d rows, we read %d", sheet, len(body), len(ours))
		}
		for i := range ours {
			if got, want := fmt.Sprint(ours[i][last]), body[i][last]; got != want {
				t.Errorf("%s row %d: formula value %s, LibreOffice computes %s", sheet, i, got, want)
			}
		}
	}
	check := func(name string, want [][]string) {
		t.Helper()
		var got [][]string
		for k, v := range lo {
			if strings.HasPrefix(k, name) {
				got = v
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s via LibreOffice:\n got %v\nwant %v", name, got, want)
		}
	}
	check("clean", [][]string{{"a", "b", "c"}, {"x", "1", "2024-01-02"}, {"y", "0", ""}, {"z", "3", "2024-02-03"}})
	check("by_region", [][]string{{"地区", "n", "total", "first"}, {"华东", "3", "23492.5", "2024-01-05"}, {"华北", "2", "11179", "2024-02-14"}, {"华南", "3", "11794.7", "2024-03-15"}})
	check("orders", [][]string{{"订单号", "客户", "城市", "金额", "下单日期", "已付款"}, {"00101", "张三", "上海", "1280.5", "2024-03-01", "是"},
		{"00102", "李四", "北京", "560", "2024-03-02", "否"}, {"00103", "王五", "深圳", "N/A", "2024-03-05", "是"}, {"00104", "赵六", "上海", "2300", "2024-03-09", "是"}})
}

// TestDescribeAndQuery_FloatsForPeople: computed statistics and query
// values carry no binary-arithmetic noise: 8.3, 6.3, 10.1 and 1.8 have mean
// 6.625 and sum 26.5 (a running mean gives 6.625000000000001, a float sum
// 26.500000000000004).
func TestDescribeAndQuery_FloatsForPeople(t *testing.T) {
	e := newEnv(t)
	os.WriteFile(filepath.Join(e.root, "data", "noise.csv"), []byte("x\n8.3\n6.3\n10.1\n1.8\n"), 0o644)
	res := tooltest.OK(t, e.tl, map[string]any{"action": "describe", "path": "data/noise.csv"})
	text, _ := json.Marshal(res.Data)
	for _, want := range []string{`"mean":6.625,`, `"sum":26.5`, `"median":7.3`, `"std":3.571530951,`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("describe: no %s in %s", want, text)
		}
	}
	if strings.Contains(string(text), "00000") || strings.Contains(string(text), "99999") {
		t.Errorf("describe shows float noise: %s", text)
	}
	d := e.call(map[string]any{"action": "query", "paths": []any{"data/noise.csv"}, "sql": "SELECT SUM(x) AS s, AVG(x) AS a, SUM(x) / 3 AS third FROM noise"})
	if r := rows(d["result"].(map[string]any), "rows"); len(r) != 1 || r[0][0] != 26.5 || r[0][1] != 6.625 || r[0][2] != 8.83333333333333 {
		t.Fatalf("query rows = %v", d["rows"])
	}
}
