package dataproc

import (
	"context"
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type cond struct {
	Column string `json:"column"`
	Op     string `json:"op"`
	Value  any    `json:"value"`
}

type agg struct {
	Column string `json:"column"`
	Func   string `json:"func"`
	As     string `json:"as"`
}

// sqlArg converts a JSON value to what the engine stores: numbers and ISO
// dates typed, like the loaded cells.
func sqlArg(v any) any {
	switch x := v.(type) {
	case string:
		return table.SQLValue(strings.TrimSpace(x))
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

// whereSQL builds a WHERE clause (without the keyword) and its arguments.
func whereSQL(t *table.TableInfo, conds []cond, match string) (string, []any, error) {
	var parts []string
	var args []any
	for i, w := range conds {
		part, partArgs, err := condSQL(t, i, w)
		if err != nil {
			return "", nil, err
		}
		parts = append(parts, part)
		args = append(args, partArgs...)
	}
	joiner := " AND "
	if match == "any" {
		joiner = " OR "
	}
	return strings.Join(parts, joiner), args, nil
}

// condSQL is the SQL test (and its arguments) for where[i].
func condSQL(t *table.TableInfo, i int, w cond) (string, []any, error) {
	col, err := column(t, w.Column)
	if err != nil {
		return "", nil, err
	}
	q := table.Quote(col.Name)
	op := w.Op
	if op == "" {
		op = "="
	}
	list := func() ([]any, error) {
		arr, ok := w.Value.([]any)
		if !ok {
			return nil, tool.Invalid("where", fmt.Sprintf("where[%d]: %s needs a list value", i, op), `e.g. {"column":"region","op":"in","value":["north","south"]}`)
		}
		out := make([]any, len(arr))
		for k, v := range arr {
			out[k] = sqlArg(v)
		}
		return out, nil
	}
	switch op {
	case "=", "!=", ">", ">=", "<", "<=":
		if w.Value == nil {
			return "", nil, tool.Invalid("where", fmt.Sprintf("where[%d] (%s %s) needs a value", i, w.Column, op), "use is_empty / not_empty to test for empty cells")
		}
		sqlOp := op
		if op == "!=" {
			sqlOp = "IS NOT"
		}
		return q + " " + sqlOp + " ?", []any{sqlArg(w.Value)}, nil
	case "contains", "not_contains":
		not := ""
		if op == "not_contains" {
			not = "NOT "
		}
		return not + "(instr(lower(" + q + "), lower(?)) > 0)", []any{fmt.Sprint(w.Value)}, nil
	case "starts_with":
		return "(lower(substr(" + q + ", 1, length(?))) = lower(?))", []any{fmt.Sprint(w.Value), fmt.Sprint(w.Value)}, nil
	case "ends_with":
		return "(length(" + q + ") >= length(?) AND lower(substr(" + q + ", -length(?))) = lower(?))", []any{fmt.Sprint(w.Value), fmt.Sprint(w.Value), fmt.Sprint(w.Value)}, nil
	case "in", "not_in":
		vals, err := list()
		if err != nil {
			return "", nil, err
		}
		if len(vals) == 0 {
			return "", nil, tool.Invalid("where", fmt.Sprintf("where[%d]: empty list", i), "")
		}
		not := ""
		if op == "not_in" {
			not = "NOT "
		}
		return q + " " + not + "IN (" + strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",") + ")", vals, nil
	case "between":
		vals, err := list()
		if err != nil || len(vals) != 2 {
			return "", nil, tool.Invalid("where", fmt.Sprintf("where[%d]: between needs [low, high]", i), `e.g. {"column":"date","op":"between","value":["2024-01-01","2024-03-31"]}`)
		}
		return q + " BETWEEN ? AND ?", vals, nil
	case "is_empty":
		return "(" + q + " IS NULL OR " + q + " = '')", nil, nil
	case "not_empty":
		return "(" + q + " IS NOT NULL AND " + q + " <> '')", nil, nil
	default:
		return "", nil, tool.Invalid("where", fmt.Sprintf("where[%d]: unknown op %q", i, op), "ops: = != > >= < <= contains not_contains starts_with ends_with in not_in between is_empty not_empty")
	}

}

// keyExpr maps a group key ("date:month") to an expression and a name.
func keyExpr(t *table.TableInfo, key string) (string, string, error) {
	name, bucket, _ := strings.Cut(key, ":")
	col, err := column(t, name)
	if err != nil {
		return "", "", err
	}
	q := table.Quote(col.Name)
	switch strings.ToLower(bucket) {
	case "":
		return q, col.Name, nil
	case "year":
		return "strftime('%Y', " + q + ")", col.Name + "_year", nil
	case "quarter":
		return "(strftime('%Y', " + q + ") || '-Q' || ((CAST(strftime('%m', " + q + ") AS INTEGER) + 2) / 3))", col.Name + "_quarter", nil
	case "month":
		return "strftime('%Y-%m', " + q + ")", col.Name + "_month", nil
	case "week":
		return "strftime('%Y-W%W', " + q + ")", col.Name + "_week", nil
	case "day", "date":
		return "date(" + q + ")", col.Name + "_day", nil
	}
	return "", "", tool.Invalid("group_by", fmt.Sprintf("unknown date bucket %q in %q", bucket, key), "buckets: year, quarter, month, week, day")
}

// numeric is a column expression that keeps only numbers, so that a stray
// "N/A" is left out (and reported) instead of counted as 0.
func numeric(q string) string {
	return "(CASE WHEN typeof(" + q + ") IN ('integer','real') THEN " + q + " END)"
}

func aggExpr(t *table.TableInfo, a agg, warnings *[]string) (string, string, error) {
	fn := strings.ToLower(a.Func)
	if fn == "mean" {
		fn = "avg"
	}
	if fn == "count" && a.Column == "" {
		return "COUNT(*)", orName(a.As, "count"), nil
	}
	if a.Column == "" {
		return "", "", tool.Invalid("aggregations", fmt.Sprintf("%s needs a column", fn), `e.g. {"column":"amount","func":"sum"}`)
	}
	col, err := column(t, a.Column)
	if err != nil {
		return "", "", err
	}
	q := table.Quote(col.Name)
	name := orName(a.As, fn+"_"+col.Name)
	switch fn {
	case "count":
		return "COUNT(" + q + ")", name, nil
	case "count_distinct":
		return "COUNT(DISTINCT " + q + ")", name, nil
	case "min", "max":
		if col.Type == table.KindInteger || col.Type == table.KindNumber {
			return strings.ToUpper(fn) + "(" + numeric(q) + ")", name, nil
		}
		return strings.ToUpper(fn) + "(" + q + ")", name, nil
	case "sum", "avg":
		if col.Type != table.KindInteger && col.Type != table.KindNumber {
			return "", "", tool.Invalid("aggregations", fmt.Sprintf("cannot %s column %q: its values are %s, not numbers", fn, col.Name, col.Type),
				"pick a numeric column (describe shows the types), or clean the column first")
		}
		for _, b := range col.Bad {
			*warnings = append(*warnings, fmt.Sprintf("column %s: non-numeric %q at %s left out of %s", col.Name, b.Value, b.Cell, fn))
		}
		if fn == "sum" {
			// TOTAL keeps integer sums exact and is never NULL... but
			// SUM keeps integer type; prefer SUM and show 0 for no rows.
			return "SUM(" + numeric(q) + ")", name, nil
		}
		return "AVG(" + numeric(q) + ")", name, nil
	}
	return "", "", tool.Invalid("aggregations", "unknown func "+a.Func, "func: count, count_distinct, sum, avg, min, max")
}

func orName(as, def string) string {
	if as = strings.TrimSpace(as); as != "" {
		return as
	}
	return def
}

func orderSQL(t *table.TableInfo, keys []string, extra map[string]bool) (string, error) {
	var parts []string
	for _, k := range keys {
		f := strings.Fields(k)
		if len(f) == 0 {
			continue
		}
		dir := ""
		name := k
		if last := strings.ToLower(f[len(f)-1]); len(f) > 1 && (last == "desc" || last == "asc") {
			dir = " " + strings.ToUpper(last)
			name = strings.TrimSpace(k[:strings.LastIndex(k, f[len(f)-1])])
		}
		if strings.HasPrefix(name, "-") {
			name, dir = name[1:], " DESC"
		}
		if extra[name] {
			parts = append(parts, table.Quote(name)+dir)
			continue
		}
		col, err := column(t, name)
		if err != nil {
			return "", err
		}
		parts = append(parts, table.Quote(col.Name)+dir)
	}
	if len(parts) == 0 {
		return "", nil
	}
	return " ORDER BY " + strings.Join(parts, ", "), nil
}

func (p *processor) transform(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	db, err := p.loadKeep(ctx, c, []string{c.Args.String("path")}, neededColumns(c))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	t := db.Tables[0]
	var conds []cond
	if c.Args.Has("where") {
		if err := c.Args.Decode("where", &conds); err != nil {
			return nil, err
		}
	}
	where, args, err := whereSQL(t, conds, c.Args.String("match"))
	if err != nil {
		return nil, err
	}
	if where != "" {
		where = " WHERE " + where
	}
	var q string
	var warnings []string
	from := " FROM " + table.Quote(t.Name)
	switch c.Action {
	case "filter", "sort":
		q, err = selectSQL(t, c, from+where)
	case "group":
		q, err = groupSQL(t, c, from+where, &warnings)
	case "pivot":
		q, args, err = pivotSQL(ctx, db, t, c, where, args, &warnings)
	}
	if err != nil {
		return nil, err
	}
	pg, err := run(ctx, db, q, args, c.Args.Int("offset", 0), c.Args.Int("limit", 100))
	if err != nil {
		return nil, withTables(err, db)
	}
	data := map[string]any{"table": t, "sql": q, "result": pg}
	if len(args) > 0 {
		data["sql_args"] = args
	}
	if len(warnings) > 0 {
		data["warnings"] = warnings
	}
	return &tool.Result{Summary: fmt.Sprintf("%s: %s from %s of %s", c.Action, wording.Count(pg.RowCount, "result row", "result rows"), wording.Count(t.Rows, "row", "rows"), t.Source), Data: data}, nil
}

// selectSQL is the query of filter and sort: the chosen columns of the
// rows fromWhere selects, ordered by order_by.
func selectSQL(t *table.TableInfo, c *tool.Call, fromWhere string) (string, error) {
	sel := "*"
	if cols := c.Args.Strings("columns"); len(cols) > 0 {
		var qs []string
		for _, n := range cols {
			col, err := column(t, n)
			if err != nil {
				return "", err
			}
			qs = append(qs, table.Quote(col.Name))
		}
		sel = strings.Join(qs, ", ")
	}
	order, err := orderSQL(t, c.Args.Strings("order_by"), nil)
	if err != nil {
		return "", err
	}
	return "SELECT " + sel + fromWhere + order, nil
}

// groupSQL is the query of group: the group_by keys and the aggregations
// (a count by default) over the rows fromWhere selects.
func groupSQL(t *table.TableInfo, c *tool.Call, fromWhere string, warnings *[]string) (string, error) {
	var sels, keys []string
	names := map[string]bool{}
	for _, k := range c.Args.Strings("group_by") {
		e, n, err := keyExpr(t, k)
		if err != nil {
			return "", err
		}
		sels = append(sels, e+" AS "+table.Quote(n))
		keys = append(keys, e)
		names[n] = true
	}
	var aggs []agg
	if c.Args.Has("aggregations") {
		if err := c.Args.Decode("aggregations", &aggs); err != nil {
			return "", err
		}
	}
	if len(aggs) == 0 {
		aggs = []agg{{Func: "count"}}
	}
	for _, a := range aggs {
		e, n, err := aggExpr(t, a, warnings)
		if err != nil {
			return "", err
		}
		sels = append(sels, e+" AS "+table.Quote(n))
		names[n] = true
	}
	order, err := orderSQL(t, c.Args.Strings("order_by"), names)
	if err != nil {
		return "", err
	}
	if order == "" {
		order = " ORDER BY " + strings.Join(keys, ", ")
	}
	return "SELECT " + strings.Join(sels, ", ") + fromWhere + " GROUP BY " + strings.Join(keys, ", ") + order, nil
}

func pivotSQL(ctx context.Context, db *table.DB, t *table.TableInfo, c *tool.Call, where string, args []any, warnings *[]string) (string, []any, error) {
	pc, err := column(t, c.Args.String("pivot_column"))
	if err != nil {
		return "", nil, err
	}
	pq := table.Quote(pc.Name)
	var values []any
	if _, err := db.Rows(ctx, "SELECT DISTINCT "+pq+" FROM "+table.Quote(t.Name)+where+" ORDER BY 1 LIMIT 101", args, func(row []any) error {
		values = append(values, row[0])
		return nil
	}); err != nil {
		return "", nil, err
	}
	if len(values) > 100 {
		return "", nil, tool.Invalid("pivot_column", fmt.Sprintf("column %q has more than 100 distinct values", pc.Name), "pivot on a column with fewer categories, or use group")
	}
	fn := c.Args.StringOr("agg", "sum")
	val, err := column(t, c.Args.String("values"))
	if err != nil {
		return "", nil, err
	}
	vq := table.Quote(val.Name)
	if fn == "sum" || fn == "avg" {
		if _, _, err := aggExpr(t, agg{Column: val.Name, Func: fn}, warnings); err != nil {
			return "", nil, err
		}
		vq = numeric(vq)
	}
	var sels, keys []string
	for _, k := range c.Args.Strings("index") {
		e, n, err := keyExpr(t, k)
		if err != nil {
			return "", nil, err
		}
		sels = append(sels, e+" AS "+table.Quote(n))
		keys = append(keys, e)
	}
	var cellArgs []any
	for _, v := range values {
		label := table.Text(v)
		cond := pq + " = ?"
		if v == nil {
			label, cond = "(empty)", pq+" IS NULL"
		} else {
			cellArgs = append(cellArgs, v)
		}
		inner := "CASE WHEN " + cond + " THEN " + vq + " END"
		if fn == "count" {
			inner = "CASE WHEN " + cond + " THEN 1 END"
		}
		sels = append(sels, strings.ToUpper(fn)+"("+inner+") AS "+table.Quote(label))
	}
	total := strings.ToUpper(fn) + "(" + vq + ")"
	if fn == "count" {
		total = "COUNT(*)"
	}
	sels = append(sels, total+" AS "+table.Quote("total"))
	q := "SELECT " + strings.Join(sels, ", ") + " FROM " + table.Quote(t.Name) + where + " GROUP BY " + strings.Join(keys, ", ") + " ORDER BY " + strings.Join(keys, ", ")
	return q, append(cellArgs, args...), nil
}

func (p *processor) join(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	ps := c.Args.Strings("paths")
	if len(ps) != 2 {
		return nil, tool.Invalid("paths", fmt.Sprintf("join takes exactly 2 files, got %d", len(ps)), `paths: ["customers.xlsx", "orders.csv"]`)
	}
	db, err := p.load(ctx, c, ps)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	l, r := db.Tables[0], db.Tables[1]
	var on []string
	rightKeys := map[string]bool{}
	for _, k := range c.Args.Strings("on") {
		ln, rn, ok := strings.Cut(k, "=")
		if !ok {
			rn = ln
		}
		lc, err := column(l, strings.TrimSpace(ln))
		if err != nil {
			return nil, err
		}
		rc, err := column(r, strings.TrimSpace(rn))
		if err != nil {
			return nil, err
		}
		on = append(on, "l."+table.Quote(lc.Name)+" = r."+table.Quote(rc.Name))
		if strings.EqualFold(lc.Name, rc.Name) {
			rightKeys[strings.ToLower(rc.Name)] = true
		}
	}
	if len(on) == 0 {
		return nil, tool.Invalid("on", "join needs at least one key", `on: ["customer_id"] or ["id=customer_id"]`)
	}
	how := map[string]string{"": "JOIN", "inner": "JOIN", "left": "LEFT JOIN", "right": "RIGHT JOIN", "full": "FULL OUTER JOIN"}[c.Args.String("how")]
	leftNames := map[string]bool{}
	var sels []string
	for _, col := range l.Columns {
		leftNames[strings.ToLower(col.Name)] = true
		expr := "l." + table.Quote(col.Name)
		if rightKeys[strings.ToLower(col.Name)] && (how == "RIGHT JOIN" || how == "FULL OUTER JOIN") {
			expr = "COALESCE(l." + table.Quote(col.Name) + ", r." + table.Quote(col.Name) + ")"
		}
		sels = append(sels, expr+" AS "+table.Quote(col.Name))
	}
	for _, col := range r.Columns {
		if rightKeys[strings.ToLower(col.Name)] {
			continue
		}
		name := col.Name
		if leftNames[strings.ToLower(name)] {
			name = r.Name + "_" + name
		}
		sels = append(sels, "r."+table.Quote(col.Name)+" AS "+table.Quote(name))
	}
	q := "SELECT " + strings.Join(sels, ", ") + " FROM " + table.Quote(l.Name) + " AS l " + how + " " + table.Quote(r.Name) + " AS r ON " + strings.Join(on, " AND ")
	if cols := c.Args.Strings("columns"); len(cols) > 0 {
		var qs []string
		for _, n := range cols {
			qs = append(qs, table.Quote(strings.TrimSpace(n)))
		}
		q = "SELECT " + strings.Join(qs, ", ") + " FROM (" + q + ")"
	}
	pg, err := run(ctx, db, q, nil, c.Args.Int("offset", 0), c.Args.Int("limit", 100))
	if err != nil {
		return nil, withTables(err, db)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s of %s (%s) and %s (%s): %s", strings.ToLower(how), l.Source, wording.Count(l.Rows, "row", "rows"), r.Source, wording.Count(r.Rows, "row", "rows"), wording.Count(pg.RowCount, "row", "rows")),
		Data:    map[string]any{"tables": db.Tables, "sql": q, "result": pg},
	}, nil
}
