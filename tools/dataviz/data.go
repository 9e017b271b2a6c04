package dataviz

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// chartArgs is one chart request (a call's arguments, or one entry of a
// dashboard's charts).
type chartArgs struct {
	Type        string         `json:"type"`
	Title       string         `json:"title"`
	XLabel      string         `json:"x_label"`
	YLabel      string         `json:"y_label"`
	Data        map[string]any `json:"data"`
	Path        string         `json:"path"`
	Sheet       string         `json:"sheet"`
	X           string         `json:"x"`
	Y           []string       `json:"y"`
	Value       string         `json:"value"`
	Agg         string         `json:"agg"`
	Stacked     bool           `json:"stacked"`
	Donut       bool           `json:"donut"`
	Bins        int            `json:"bins"`
	Width       int            `json:"width"`
	Height      int            `json:"height"`
	ValueFormat string         `json:"value_format"`
	Limit       int            `json:"limit"`
}

var chartTypes = []string{"bar", "line", "area", "pie", "scatter", "histogram", "heatmap"}

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case string:
		if f, ok := table.ParseNumber(strings.TrimSpace(x)); ok {
			return f
		}
	}
	return math.NaN()
}

func nums(v any) []float64 {
	arr, _ := v.([]any)
	out := make([]float64, len(arr))
	for i, x := range arr {
		out[i] = num(x)
	}
	return out
}

func strs(v any) []string {
	arr, _ := v.([]any)
	out := make([]string, len(arr))
	for i, x := range arr {
		out[i] = table.Text(x)
		if f, ok := x.(float64); ok {
			out[i] = formatNum(f, "")
		}
	}
	return out
}

// specFromInline reads the data object: {"labels": [...], "series":
// [{"name": ..., "values": [...]}]}, with "x" per series for scatter,
// "values" alone for a histogram, and "y_labels" + "matrix" for a heatmap.
func specFromInline(a *chartArgs, s *Spec) error {
	d := a.Data
	s.Labels = strs(d["labels"])
	if v, ok := d["values"]; ok {
		s.Series = append(s.Series, Series{Name: a.Title, Values: nums(v)})
	}
	if arr, ok := d["series"].([]any); ok {
		for i, it := range arr {
			m, ok := it.(map[string]any)
			if !ok {
				return tool.Invalid("data", fmt.Sprintf("data.series[%d] must be an object {name, values}", i), "")
			}
			se := Series{Name: table.Text(m["name"]), Values: nums(m["values"])}
			if se.Name == "" {
				se.Name = fmt.Sprintf("series %d", i+1)
			}
			if x, ok := m["x"]; ok {
				se.X = nums(x)
			}
			s.Series = append(s.Series, se)
		}
	}
	s.YLabels = strs(d["y_labels"])
	if m, ok := d["matrix"].([]any); ok {
		for _, row := range m {
			s.Matrix = append(s.Matrix, nums(row))
		}
	}
	return nil
}

// inPath names the path parameter in a table reading error.
func inPath(err error) error {
	if te, ok := tool.AsError(err); ok && te.Field == "" {
		te.Field = "path"
	}
	return err
}

// specFromFile loads a table with the data engine and aggregates it.
func (v *viz) specFromFile(ctx context.Context, a *chartArgs, s *Spec) error {
	abs, err := v.d.Sandbox.Resolve(a.Path)
	if err != nil {
		return tool.PathError("path", a.Path, err)
	}
	r, err := table.Open(abs, table.Options{Sheet: a.Sheet})
	if err != nil {
		return inPath(err)
	}
	db, err := table.NewDB(ctx)
	if err != nil {
		r.Close()
		return err
	}
	defer db.Close()
	t, err := db.Load(ctx, strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs)), r, nil)
	r.Close()
	if err != nil {
		return inPath(err)
	}
	fq := &fileQuery{ctx: ctx, db: db, t: t, from: " FROM " + table.Quote(t.Name), limit: a.Limit, agg: strings.ToUpper(a.Agg)}
	if fq.limit <= 0 {
		fq.limit = 10000
	}
	if fq.agg == "" {
		fq.agg = "SUM"
	}
	switch fq.agg {
	case "SUM", "AVG", "MIN", "MAX", "COUNT", "NONE":
	default:
		return tool.Invalid("agg", "agg must be sum, avg, min, max, count or none", "")
	}
	if len(a.Y) == 0 && a.Type != "heatmap" {
		return tool.Invalid("y", "give the value column(s) in y", "e.g. x: \"month\", y: [\"sales\"]")
	}
	var ys []string
	for _, y := range a.Y {
		q, err := fq.col("y", y)
		if err != nil {
			return err
		}
		ys = append(ys, q)
	}
	switch a.Type {
	case "histogram":
		return fq.histogram(a, ys, s)
	case "scatter":
		return fq.scatter(a, ys, s)
	case "heatmap":
		return fq.heatmap(a, ys, s)
	}
	return fq.categorical(a, ys, s)
}

// fileQuery reads a chart's data from a table loaded into the data engine.
type fileQuery struct {
	ctx   context.Context
	db    *table.DB
	t     *table.TableInfo
	from  string // " FROM table"
	agg   string // SUM, AVG, MIN, MAX, COUNT or NONE
	limit int
}

// col is the quoted column matching name (by name, original header or
// sanitized name); an unknown one is an error on field listing the columns.
func (fq *fileQuery) col(field, name string) (string, error) {
	for _, c := range fq.t.Columns {
		if strings.EqualFold(c.Name, strings.TrimSpace(name)) || strings.EqualFold(c.Original, strings.TrimSpace(name)) || strings.EqualFold(c.Name, table.SanitizeIdent(name)) {
			return table.Quote(c.Name), nil
		}
	}
	var names []string
	for _, c := range fq.t.Columns {
		names = append(names, c.Name)
	}
	return "", tool.Invalid(field, fmt.Sprintf("column %q not found in %s", name, fq.t.Source), "columns: "+strings.Join(names, ", "))
}

// run calls each for every row q returns.
func (fq *fileQuery) run(q string, each func(row []any)) error {
	_, err := fq.db.Rows(fq.ctx, q, nil, func(row []any) error { each(row); return nil })
	if err != nil {
		return tool.Invalid("path", "reading the chart data failed: "+err.Error(), "")
	}
	return nil
}

// histogram reads the numeric values of the first y column.
func (fq *fileQuery) histogram(a *chartArgs, ys []string, s *Spec) error {
	se := Series{Name: a.Y[0]}
	if err := fq.run("SELECT "+ys[0]+fq.from+" WHERE typeof("+ys[0]+") IN ('integer','real') LIMIT 1000000", func(row []any) { se.Values = append(se.Values, num(row[0])) }); err != nil {
		return err
	}
	s.Series = []Series{se}
	return nil
}

// scatter reads one series of (x, y) points per y column.
func (fq *fileQuery) scatter(a *chartArgs, ys []string, s *Spec) error {
	xq, err := fq.col("x", a.X)
	if err != nil {
		return err
	}
	for i, yq := range ys {
		se := Series{Name: a.Y[i]}
		if err := fq.run(fmt.Sprintf("SELECT %s, %s%s LIMIT %d", xq, yq, fq.from, fq.limit), func(row []any) {
			se.X = append(se.X, num(row[0]))
			se.Values = append(se.Values, num(row[1]))
		}); err != nil {
			return err
		}
		s.Series = append(s.Series, se)
	}
	return nil
}

// heatmap aggregates value by x (columns) and the first y (rows); cells
// without data are NaN.
func (fq *fileQuery) heatmap(a *chartArgs, ys []string, s *Spec) error {
	xq, err := fq.col("x", a.X)
	if err != nil {
		return err
	}
	if len(ys) == 0 || a.Value == "" {
		return tool.Invalid("value", "a heatmap from a file needs x (columns), y (rows) and value", "")
	}
	vq, err := fq.col("value", a.Value)
	if err != nil {
		return err
	}
	fn := fq.agg
	if fn == "NONE" {
		fn = "SUM"
	}
	xi, yi := map[string]int{}, map[string]int{}
	type cell struct {
		x, y string
		v    float64
	}
	var cells []cell
	if err := fq.run(fmt.Sprintf("SELECT %s, %s, %s(%s)%s GROUP BY 1, 2 ORDER BY 1, 2", xq, ys[0], fn, vq, fq.from), func(row []any) {
		x, y := table.Text(row[0]), table.Text(row[1])
		if _, ok := xi[x]; !ok {
			xi[x] = len(s.Labels)
			s.Labels = append(s.Labels, x)
		}
		if _, ok := yi[y]; !ok {
			yi[y] = len(s.YLabels)
			s.YLabels = append(s.YLabels, y)
		}
		cells = append(cells, cell{x, y, num(row[2])})
	}); err != nil {
		return err
	}
	s.Matrix = make([][]float64, len(s.YLabels))
	for i := range s.Matrix {
		s.Matrix[i] = make([]float64, len(s.Labels))
		for k := range s.Matrix[i] {
			s.Matrix[i][k] = math.NaN()
		}
	}
	for _, c := range cells {
		s.Matrix[yi[c.y]][xi[c.x]] = c.v
	}
	return nil
}

// categorical reads one series per y column over the x categories,
// aggregated per category unless agg is none.
func (fq *fileQuery) categorical(a *chartArgs, ys []string, s *Spec) error {
	xq, err := fq.col("x", a.X)
	if err != nil {
		return err
	}
	var sels []string
	for _, y := range ys {
		if fq.agg == "NONE" {
			sels = append(sels, y)
		} else {
			sels = append(sels, fmt.Sprintf("%s(CASE WHEN typeof(%s) IN ('integer','real') THEN %s END)", fq.agg, y, y))
		}
	}
	q := fmt.Sprintf("SELECT %s, %s%s", xq, strings.Join(sels, ", "), fq.from)
	if fq.agg != "NONE" {
		// Keep the categories in the order they first appear in the file.
		q += fmt.Sprintf(" GROUP BY %s ORDER BY MIN(rowid)", xq)
	}
	q += fmt.Sprintf(" LIMIT %d", fq.limit)
	s.Series = make([]Series, len(ys))
	for i := range ys {
		s.Series[i].Name = a.Y[i]
	}
	return fq.run(q, func(row []any) {
		s.Labels = append(s.Labels, table.Text(row[0]))
		for i := range ys {
			s.Series[i].Values = append(s.Series[i].Values, num(row[i+1]))
		}
	})
}

// buildSpec validates a request and gathers its data.
func (v *viz) buildSpec(ctx context.Context, a *chartArgs) (*Spec, error) {
	if a.Type == "" {
		return nil, tool.Invalid("type", "type is required", "one of: "+strings.Join(chartTypes, ", "))
	}
	ok := false
	for _, t := range chartTypes {
		if a.Type == t {
			ok = true
		}
	}
	if !ok {
		return nil, tool.Invalid("type", fmt.Sprintf("unknown chart type %q", a.Type), "one of: "+strings.Join(chartTypes, ", "))
	}
	s := &Spec{Type: a.Type, Title: a.Title, XLabel: a.XLabel, YLabel: a.YLabel, Stacked: a.Stacked, Donut: a.Donut, Bins: a.Bins, ValueFormat: a.ValueFormat, Width: a.Width, Height: a.Height}
	if s.Width == 0 {
		s.Width = 900
	}
	if s.Height == 0 {
		s.Height = 540
	}
	if s.Width < 200 || s.Height < 150 || s.Width > 4000 || s.Height > 4000 {
		return nil, tool.Invalid("width", "width and height must be between 200x150 and 4000x4000", "")
	}
	switch {
	case a.Data != nil:
		if err := specFromInline(a, s); err != nil {
			return nil, err
		}
	case a.Path != "":
		if err := v.specFromFile(ctx, a, s); err != nil {
			return nil, err
		}
	default:
		return nil, tool.Invalid("data", "give the data inline (data) or a file (path with x and y columns)", `data: {"labels": ["Q1","Q2"], "series": [{"name": "sales", "values": [10, 12]}]}`)
	}
	switch s.Type {
	case "heatmap":
		if len(s.Matrix) == 0 || len(s.Labels) == 0 {
			return nil, tool.Invalid("data", "a heatmap needs labels (columns), y_labels (rows) and matrix", `data: {"labels": ["Mon","Tue"], "y_labels": ["AM","PM"], "matrix": [[1,2],[3,4]]}`)
		}
	case "scatter":
		for i, se := range s.Series {
			if len(se.X) != len(se.Values) || len(se.X) == 0 {
				return nil, tool.Invalid("data", fmt.Sprintf("scatter series %d needs x and values of the same length", i+1), `data: {"series": [{"name": "points", "x": [1,2,3], "values": [2,4,5]}]}`)
			}
		}
	case "histogram":
		if len(s.Series) == 0 || len(s.Series[0].Values) == 0 {
			return nil, tool.Invalid("data", "a histogram needs values", `data: {"values": [1.2, 3.4, 2.2]}`)
		}
	default:
		if len(s.Series) == 0 || len(s.Labels) == 0 {
			return nil, tool.Invalid("data", "the chart needs labels and at least one series", `data: {"labels": ["Q1","Q2"], "series": [{"name": "sales", "values": [10, 12]}]}`)
		}
		for _, se := range s.Series {
			if len(se.Values) != len(s.Labels) {
				return nil, tool.Invalid("data", fmt.Sprintf("series %q has %d values for %d labels", se.Name, len(se.Values), len(s.Labels)), "give one value per label (null for a gap)")
			}
		}
		if s.Type == "pie" && len(s.Series) > 1 {
			s.Series = s.Series[:1]
		}
	}
	return s, nil
}

// allText is every string drawn, to check the font covers it.
func (s *Spec) allText() string {
	parts := []string{s.Title, s.XLabel, s.YLabel}
	parts = append(parts, s.Labels...)
	parts = append(parts, s.YLabels...)
	for _, se := range s.Series {
		parts = append(parts, se.Name)
	}
	return strings.Join(parts, "") + "0123456789.,-%KMB万亿"
}
