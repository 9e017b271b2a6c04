// Package dataviz is the data_visualization tool: bar, line, area, pie,
// scatter, histogram and heatmap charts drawn by a small renderer (x/image
// vector rasteriser + a real CJK font) as PNG and SVG, native Excel charts
// through excelize, and self-contained offline HTML dashboards.
package dataviz

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the tools.data_visualization section.
type Config struct {
	// Font is a TTF/OTF/TTC file used for all text; default: the CJK font
	// internal/cjkfont finds (fonts-noto-cjk, then WenQuanYi).
	Font string `yaml:"font"`
}

type viz struct {
	d   *tool.Deps
	cfg Config
}

// New builds data_visualization.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "data_visualization", Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	v := &viz{d: d, cfg: cfg}
	one := chartParams()
	out := []tool.Param{
		tool.OutputParam("Default outputs/<title>.<ext>."),
		tool.Overwrite,
	}
	chart := append(append([]tool.Param{}, one...), tool.Param{Name: "format", Type: tool.String, Enum: []string{"both", "png", "svg"}, Default: "both"})
	chart = append(chart, out...)
	excel := append(append([]tool.Param{}, one...), out...)
	dash := []tool.Param{
		{Name: "title", Type: tool.String, Description: "Dashboard title."},
		{Name: "charts", Type: tool.Array, Required: true, Description: "Charts with the chart action's fields (type, title, data or path + x + y...).",
			Items: &tool.Param{Name: "item", Type: tool.Object}}, // each chart's fields are checked as the chart action's
	}
	dash = append(dash, out...)
	return tool.Tool{
		Name:  "data_visualization",
		Title: "Charts and dashboards",
		Description: "Charts from inline data or a data file: PNG/SVG, a native Excel chart, or an offline HTML dashboard. " +
			"Use it for any chart or visual; use data_processor first when the numbers still need computing.",
		Actions: []tool.Action{
			{Name: "chart", Handler: v.chart, Level: tool.Write, Timeout: tool.Normal, Params: chart},
			{Name: "excel_chart", Handler: v.excelChart, Level: tool.Write, Timeout: tool.Normal, Params: excel},
			{Name: "dashboard", Handler: v.dashboard, Level: tool.Write, Timeout: tool.Slow, Params: dash},
		},
		Examples: []string{
			"Make a bar chart of sales by region",
			"Plot monthly revenue as a line chart from sales.xlsx",
			"Draw a pie chart of the market share",
			"Create a dashboard with the sales trend and the product mix",
			"按月份画柱状图对比各门店的销量",
			"把销售数据画成折线图",
			"生成一个饼图展示各产品占比",
			"用这些数据做一个可视化仪表盘",
		},
	}, nil
}

func chartParams() []tool.Param {
	return []tool.Param{
		{Name: "type", Type: tool.String, Required: true, Enum: chartTypes, Description: "Chart type."},
		{Name: "title", Type: tool.String},
		{Name: "x_label", Type: tool.String},
		{Name: "y_label", Type: tool.String},
		{Name: "data", Type: tool.Object, Description: `{"labels": [...], "series": [{"name": "...", "values": [...]}]}; scatter series add "x"; histogram {"values"}; heatmap {"labels", "y_labels", "matrix"}.`},
		{Name: "path", Type: tool.String, Description: "xlsx, csv or json instead of data; columns by x and y."},
		{Name: "sheet", Type: tool.String},
		{Name: "x", Type: tool.String, Description: "Category or x column."},
		{Name: "y", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}, Description: "Value columns, a series each (heatmap: the row column)."},
		{Name: "value", Type: tool.String, Description: "Heatmap cell column."},
		{Name: "agg", Type: tool.String, Enum: []string{"sum", "avg", "min", "max", "count", "none"}, Default: "sum", Description: "Combines rows of the same x."},
		{Name: "stacked", Type: tool.Boolean, Description: "For bar or area."},
		{Name: "donut", Type: tool.Boolean, Description: "For pie."},
		{Name: "bins", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(100), Description: "Histogram."},
		{Name: "width", Type: tool.Integer, Min: tool.Ptr(200), Max: tool.Ptr(4000), Default: 900},
		{Name: "height", Type: tool.Integer, Min: tool.Ptr(150), Max: tool.Ptr(4000), Default: 540},
		{Name: "value_format", Type: tool.String, Enum: []string{"auto", "integer", "percent", "thousands", "wan"}, Description: "Labels (percent: 0.25 -> 25%; wan: 1.2万)."},
		{Name: "limit", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(100000), Default: 10000, Description: "Most rows read from path."},
	}
}

func argsOf(m map[string]any) (*chartArgs, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var a chartArgs
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, tool.Invalid("data", "bad chart arguments: "+err.Error(), "")
	}
	return &a, nil
}

// Fonts: charts are drawn with a real CJK font found on the system at run
// time by internal/cjkfont, or the file named in tools.data_visualization.font.
// Nothing is embedded: a full CJK font is 10-20 MB and a subset would miss
// whatever characters users type. When no font covers a label, the chart is
// refused with the package to install rather than drawn with missing-glyph
// boxes.
var (
	latinOnce sync.Once
	latinFont *cjkfont.Font
	latinErr  error
)

// fontFor returns a font that has every glyph of text.
func (v *viz) fontFor(text string) (*cjkfont.Font, error) {
	f, err := cjkfont.Open(v.cfg.Font)
	if err == nil {
		if miss := f.Missing(text); len(miss) > 0 {
			return nil, tool.Errorf(tool.CodeUnavailable, "install a font that covers them (apt-get install "+cjkfont.Package+") or set tools.data_visualization.font",
				"the font %s has no glyphs for %q", filepath.Base(f.Path), string(miss[:min(len(miss), 10)]))
		}
		return f, nil
	}
	if v.cfg.Font != "" {
		return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.data_visualization.font", "cannot load the configured font %s: %v", v.cfg.Font, err)
	}
	// No CJK font on this machine: Latin text still works with Go's font.
	latinOnce.Do(func() {
		gf, err := opentype.Parse(goregular.TTF)
		if err != nil {
			latinErr = err
			return
		}
		latinFont = cjkfont.New("goregular", gf)
	})
	if latinErr != nil {
		return nil, latinErr
	}
	if miss := latinFont.Missing(text); len(miss) > 0 {
		return nil, tool.Missing("a CJK font (for "+string(miss[:min(len(miss), 5)])+")", cjkfont.Package)
	}
	return latinFont, nil
}

// outputs plans the chart's files: `output` or outputs/<title><ext>.
func (v *viz) outputs(c *tool.Call, title string, exts ...string) (*tool.Outputs, error) {
	name := table.SanitizeIdent(title)
	if name == "" {
		name = "chart"
	}
	return tool.PlanOutput(v.d.Sandbox, c.Args, tool.Output{Stem: name, Exts: exts})
}

func (v *viz) draw(ctx context.Context, a *chartArgs) (*Spec, *canvas, error) {
	s, err := v.buildSpec(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	f, err := v.fontFor(s.allText())
	if err != nil {
		return nil, nil, err
	}
	cv, err := render(s, f)
	if err != nil {
		return nil, nil, tool.Invalid("data", err.Error(), "")
	}
	return s, cv, nil
}

func (v *viz) chart(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a, err := argsOf(c.Args)
	if err != nil {
		return nil, err
	}
	s, cv, err := v.draw(ctx, a)
	if err != nil {
		return nil, err
	}
	format := c.Args.StringOr("format", "both")
	var exts []string
	if format != "svg" {
		exts = append(exts, ".png")
	}
	if format != "png" {
		exts = append(exts, ".svg")
	}
	out, err := v.outputs(c, s.Title, exts...)
	if err != nil {
		return nil, err
	}
	res := &tool.Result{}
	var outs []string
	if format != "svg" {
		img, err := cv.PNG()
		if err != nil {
			return nil, fmt.Errorf("chart: encode png: %w", err)
		}
		f, err := out.Write(".png", img)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, f)
		if len(img) <= 1<<20 {
			res.Images = append(res.Images, tool.Image{MIME: "image/png", Data: img})
		}
		outs = append(outs, v.d.Sandbox.Rel(f.Path))
	}
	if format != "png" {
		f, err := out.Write(".svg", cv.SVG())
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, f)
		outs = append(outs, v.d.Sandbox.Rel(f.Path))
	}
	res.Summary = fmt.Sprintf("%s chart %q (%dx%d) saved to %s", s.Type, s.Title, s.Width, s.Height, strings.Join(outs, " and "))
	res.Data = map[string]any{"type": s.Type, "title": s.Title, "width": s.Width, "height": s.Height, "outputs": outs, "font": filepath.Base(cv.font.Path),
		"categories": len(s.Labels), "series": seriesNames(s)}
	return res, nil
}

func seriesNames(s *Spec) []string {
	var out []string
	for _, se := range s.Series {
		out = append(out, se.Name)
	}
	return out
}

func (v *viz) excelChart(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a, err := argsOf(c.Args)
	if err != nil {
		return nil, err
	}
	s, err := v.buildSpec(ctx, a)
	if err != nil {
		return nil, err
	}
	if s.Type == "heatmap" {
		return nil, tool.Invalid("type", "Excel has no native heatmap chart", "use the chart action for a heatmap image")
	}
	if s.Type == "histogram" {
		edges, counts := histogramBins(s.Series[0].Values, s.Bins)
		s.Labels = nil
		for i := range counts {
			s.Labels = append(s.Labels, formatNum(edges[i], "")+"–"+formatNum(edges[i+1], ""))
		}
		s.Series = []Series{{Name: "count", Values: counts}}
	}
	f := excelize.NewFile()
	defer f.Close()
	sheet := "Data"
	f.SetSheetName("Sheet1", sheet)
	rows := excelRows(s)
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			return nil, err
		}
	}
	n := len(rows)
	ch := excelChartOf(s, sheet, n)
	anchor, _ := excelize.CoordinatesToCellName(len(rows[0])+2, 2)
	if err := f.AddChart(sheet, anchor, ch); err != nil {
		return nil, tool.Invalid("data", "excel chart: "+err.Error(), "")
	}
	out, err := v.outputs(c, s.Title, ".xlsx")
	if err != nil {
		return nil, err
	}
	file, err := out.WriteFrom(".xlsx", func(w io.Writer) error { _, err := f.WriteTo(w); return err })
	if err != nil {
		return nil, fmt.Errorf("excel chart: write: %w", err)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Excel %s chart %q with %d data rows saved to %s", s.Type, s.Title, n-1, v.d.Sandbox.Rel(file.Path)),
		Data:    map[string]any{"output": v.d.Sandbox.Rel(file.Path), "sheet": sheet, "rows": n - 1, "series": seriesNames(s)},
		Files:   []tool.File{file},
	}, nil
}

// excelRows lays out the chart data for the sheet: a header row, then one
// row per category (or per point for a scatter, which keeps its first
// series only).
func excelRows(s *Spec) [][]any {
	var rows [][]any
	if s.Type == "scatter" {
		se := s.Series[0]
		rows = append(rows, []any{orStr(s.XLabel, "x"), se.Name})
		for i := range se.X {
			rows = append(rows, []any{se.X[i], se.Values[i]})
		}
		s.Series = s.Series[:1]
	} else {
		head := []any{orStr(s.XLabel, "category")}
		for _, se := range s.Series {
			head = append(head, se.Name)
		}
		rows = append(rows, head)
		for i, l := range s.Labels {
			r := []any{l}
			for _, se := range s.Series {
				r = append(r, nanNil(se.Values[i]))
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// excelChartOf describes the native chart over the n rows of sheet.
func excelChartOf(s *Spec, sheet string, n int) *excelize.Chart {
	types := map[string]excelize.ChartType{"bar": excelize.Col, "line": excelize.Line, "area": excelize.Area, "pie": excelize.Pie, "scatter": excelize.Scatter, "histogram": excelize.Col}
	ct := types[s.Type]
	if s.Stacked && s.Type == "bar" {
		ct = excelize.ColStacked
	}
	if s.Stacked && s.Type == "area" {
		ct = excelize.AreaStacked
	}
	if s.Donut && s.Type == "pie" {
		ct = excelize.Doughnut
	}
	var series []excelize.ChartSeries
	for i := range s.Series {
		col, _ := excelize.ColumnNumberToName(i + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$1", sheet, col),
			Categories: fmt.Sprintf("%s!$A$2:$A$%d", sheet, n),
			Values:     fmt.Sprintf("%s!$%s$2:$%s$%d", sheet, col, col, n),
			Marker:     excelize.ChartMarker{Symbol: "none"},
		})
		if s.Type == "scatter" {
			series[i].Marker = excelize.ChartMarker{Symbol: "circle", Size: 5}
			series[i].Line = excelize.LineOptions{Type: excelize.LineNone}
		}
	}
	ch := &excelize.Chart{Type: ct, Series: series, Format: excelize.GraphicOptions{OffsetX: 10, OffsetY: 10},
		Dimension: excelize.ChartDimension{Width: uint(min(s.Width, 1200)), Height: uint(min(s.Height, 800))},
		Legend:    excelize.ChartLegend{Position: "bottom"}}
	if s.Title != "" {
		ch.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s.Title}}}
	}
	if s.XLabel != "" {
		ch.XAxis.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s.XLabel}}}
	}
	if s.YLabel != "" {
		ch.YAxis.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s.YLabel}}}
	}
	return ch
}

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func nanNil(f float64) any {
	if f != f {
		return nil
	}
	return f
}

func (v *viz) dashboard(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	var specs []map[string]any
	if err := c.Args.Decode("charts", &specs); err != nil {
		return nil, err
	}
	if len(specs) == 0 || len(specs) > 24 {
		return nil, tool.Invalid("charts", "a dashboard takes 1 to 24 charts", "")
	}
	title := c.Args.StringOr("title", "Dashboard")
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body{margin:0;background:#f5f6f8;font-family:"WenQuanYi Zen Hei","Noto Sans CJK SC","Microsoft YaHei","PingFang SC",sans-serif;color:#333}
header{padding:20px 28px;background:#fff;border-bottom:1px solid #e3e3e3}
h1{margin:0;font-size:22px}
.meta{color:#888;font-size:13px;margin-top:4px}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:18px;padding:18px 28px}
figure{margin:0;background:#fff;border:1px solid #e3e3e3;border-radius:8px;padding:10px}
figure svg{width:100%%;height:auto;display:block}
</style></head><body>
<header><h1>%s</h1><div class="meta">%s · %s</div></header>
<main>
`, html.EscapeString(title), html.EscapeString(title), wording.Count(len(specs), "chart", "charts"), time.Now().Format("2006-01-02 15:04"))
	var titles []string
	for i, m := range specs {
		a, err := argsOf(m)
		if err != nil {
			return nil, err
		}
		if a.Width == 0 {
			a.Width = 760
		}
		if a.Height == 0 {
			a.Height = 440
		}
		_, cv, err := v.draw(ctx, a)
		if err != nil {
			if te, ok := tool.AsError(err); ok {
				te.Message = fmt.Sprintf("charts[%d]: %s", i, te.Message)
				return nil, te
			}
			return nil, err
		}
		fmt.Fprintf(&b, "<figure>\n%s</figure>\n", cv.SVG())
		titles = append(titles, a.Title)
		c.Progress(float64(i+1), float64(len(specs)), "chart "+a.Title)
	}
	b.WriteString("</main>\n</body></html>\n")
	out, err := v.outputs(c, title, ".html")
	if err != nil {
		return nil, err
	}
	file, err := out.Write(".html", []byte(b.String()))
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Summary: fmt.Sprintf("dashboard %q with %s saved to %s (opens offline in any browser)", title, wording.Count(len(specs), "chart", "charts"), v.d.Sandbox.Rel(file.Path)),
		Data:    map[string]any{"output": v.d.Sandbox.Rel(file.Path), "charts": titles},
		Files:   []tool.File{file},
	}, nil
}
