package dataviz

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawbridge/internal/cjkfont"
	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

type env struct {
	t    *testing.T
	tl   tool.Tool
	root string
}

func newEnv(t *testing.T) *env {
	d := tooltest.Deps(t)
	tl := New(d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, tl: tl, root: d.Sandbox.Root()}
}

func (e *env) run(args map[string]any) *tool.Result {
	e.t.Helper()
	res, err := tooltest.Run(e.t, e.tl, args)
	if err != nil {
		e.t.Fatalf("%v: %v", args["type"], err)
	}
	return res
}

// needCJKFont skips (or fails in CI) when no CJK font is installed.
func needCJKFont(t *testing.T) *cjkfont.Font {
	f, err := cjkfont.Open("")
	if err != nil {
		if tooltest.RequirePrograms() {
			t.Fatalf("a CJK font is required: apt-get install %s", cjkfont.Package)
		}
		t.Skipf("no CJK font: %v", err)
	}
	return f
}

func checkPNG(t *testing.T, path string, w, h int) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("%s is %v, want %dx%d", path, img.Bounds(), w, h)
	}
	return img
}

func checkSVG(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
	}
	return string(b)
}

// inked counts non-white pixels in a region.
func inked(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr < 0xE000 || cg < 0xE000 || cb < 0xE000 {
				n++
			}
		}
	}
	return n
}

func TestCharts(t *testing.T) {
	f := needCJKFont(t)
	e := newEnv(t)
	title := "2024年各地区销售额（万元）"
	if miss := f.Missing(title + "华东华北华南一月二月三月"); len(miss) > 0 {
		t.Fatalf("font %s lacks %q", f.Path, string(miss))
	}
	months := []any{"一月", "二月", "三月", "四月"}
	series := []any{map[string]any{"name": "华东", "values": []any{120, 135.5, 150, 170}}, map[string]any{"name": "华北", "values": []any{80, 95, nil, 110}}}
	rng := rand.New(rand.NewPCG(1, 2))
	var xs, ys, hist []any
	for range 200 {
		x := rng.Float64() * 100
		xs, ys = append(xs, x), append(ys, x*0.8+rng.NormFloat64()*8)
		hist = append(hist, rng.NormFloat64()*15+60)
	}
	cases := []struct {
		name string
		args map[string]any
	}{
		{"bar", map[string]any{"type": "bar", "data": map[string]any{"labels": months, "series": series}, "x_label": "月份", "y_label": "销售额"}},
		{"stacked", map[string]any{"type": "bar", "stacked": true, "data": map[string]any{"labels": months, "series": series}}},
		{"line", map[string]any{"type": "line", "data": map[string]any{"labels": months, "series": series}, "value_format": "wan"}},
		{"area", map[string]any{"type": "area", "stacked": true, "data": map[string]any{"labels": months, "series": series}}},
		{"pie", map[string]any{"type": "pie", "data": map[string]any{"labels": []any{"笔记本", "显示器", "键盘"}, "values": []any{50, 30, 20}}}},
		{"donut", map[string]any{"type": "pie", "donut": true, "data": map[string]any{"labels": []any{"A", "B"}, "values": []any{1, 3}}}},
		{"scatter", map[string]any{"type": "scatter", "data": map[string]any{"series": []any{map[string]any{"name": "样本", "x": xs, "values": ys}}}}},
		{"histogram", map[string]any{"type": "histogram", "bins": 12, "data": map[string]any{"values": hist}}},
		{"heatmap", map[string]any{"type": "heatmap", "data": map[string]any{"labels": []any{"周一", "周二", "周三"}, "y_labels": []any{"上午", "下午"}, "matrix": []any{[]any{1, 5, 3}, []any{7, 2, nil}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.args["action"] = "chart"
			c.args["title"] = title
			c.args["width"], c.args["height"] = 600, 360
			c.args["output"] = "charts/" + c.name + ".png"
			res := e.run(c.args)
			if len(res.Files) != 2 || len(res.Images) != 1 {
				t.Fatalf("files %v images %d", res.Files, len(res.Images))
			}
			img := checkPNG(t, filepath.Join(e.root, "charts", c.name+".png"), 600, 360)
			// The title is drawn: ink in the title band, centred.
			if n := inked(img, image.Rect(150, 10, 450, 42)); n < 300 {
				t.Errorf("title band has %d inked pixels", n)
			}
			svg := checkSVG(t, filepath.Join(e.root, "charts", c.name+".svg"))
			if !strings.Contains(svg, title) {
				t.Errorf("svg lacks the title")
			}
		})
	}
	// A chart from a file, aggregated by category.
	csv := "地区,产品,销售额\n华东,笔记本,100\n华北,笔记本,80\n华东,显示器,50\n华南,键盘,30\n"
	os.WriteFile(filepath.Join(e.root, "sales.csv"), []byte(csv), 0o644)
	res := e.run(map[string]any{"action": "chart", "type": "bar", "path": "sales.csv", "x": "地区", "y": []any{"销售额"}, "format": "svg", "title": "按地区"})
	svg := checkSVG(t, res.Files[0].Path)
	for _, s := range []string{">华东<", ">150<", ">华北<", ">80<", ">华南<", ">30<"} {
		if !strings.Contains(svg, s) {
			t.Errorf("file chart lacks %s", s)
		}
	}
	if _, err := tooltest.Run(t, e.tl, map[string]any{"action": "chart", "type": "bar", "path": "sales.csv", "x": "地区", "y": []any{"利润"}}); err == nil || !strings.Contains(err.Error(), "利润") {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := tooltest.Run(t, e.tl, map[string]any{"action": "chart", "type": "bar", "data": map[string]any{"labels": []any{"a"}, "series": []any{map[string]any{"name": "s", "values": []any{1, 2}}}}}); err == nil {
		t.Error("mismatched series accepted")
	}
}

func TestExcelChartAndDashboard(t *testing.T) {
	needCJKFont(t)
	e := newEnv(t)
	res := e.run(map[string]any{"action": "excel_chart", "type": "bar", "title": "季度销售", "output": "out/sales.xlsx",
		"data": map[string]any{"labels": []any{"Q1", "Q2", "Q3"}, "series": []any{map[string]any{"name": "销售额", "values": []any{10, 20, 15}}}}})
	zr, err := zip.OpenReader(res.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/charts/chart") {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			found = strings.Contains(string(b), "<barChart>") && strings.Contains(string(b), "季度销售") && strings.Contains(string(b), "Data!$B$2:$B$4")
		}
	}
	zr.Close()
	if !found {
		t.Fatal("no native bar chart over Data!$B$2:$B$4 in the workbook")
	}
	res = e.run(map[string]any{"action": "dashboard", "title": "销售看板", "output": "out/board.html", "charts": []any{
		map[string]any{"type": "line", "title": "月度趋势", "data": map[string]any{"labels": []any{"1月", "2月"}, "series": []any{map[string]any{"name": "销售额", "values": []any{1, 2}}}}},
		map[string]any{"type": "pie", "title": "产品占比", "data": map[string]any{"labels": []any{"甲", "乙"}, "values": []any{3, 1}}},
	}})
	b, _ := os.ReadFile(res.Files[0].Path)
	page := string(b)
	if strings.Count(page, "<svg ") != 2 || !strings.Contains(page, "月度趋势") || !strings.Contains(page, "产品占比") {
		t.Fatal("dashboard lacks its charts")
	}
	// Offline: no scripts, stylesheets or images fetched from anywhere.
	for _, bad := range []string{"<script", "<link", "src=", "url(", "@import", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("dashboard contains %q", bad)
		}
	}
	if strings.Count(page, "http://") != strings.Count(page, `xmlns="http://www.w3.org/2000/svg"`) {
		t.Error("dashboard references a URL other than the SVG namespace")
	}
}

func BenchmarkScatter10k(b *testing.B) {
	f, err := cjkfont.Open("")
	if err != nil {
		b.Skip(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	se := Series{Name: "points"}
	for range 10000 {
		x := rng.Float64()
		se.X = append(se.X, x)
		se.Values = append(se.Values, x+rng.NormFloat64()*0.1)
	}
	s := &Spec{Type: "scatter", Title: "一万个点", Series: []Series{se}, Width: 900, Height: 540}
	b.ResetTimer()
	for b.Loop() {
		cv, err := render(s, f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cv.PNG(); err != nil {
			b.Fatal(err)
		}
		_ = cv.SVG()
	}
}

// Shapes that cross the image edge are clipped, not wrapped or panicking.
func TestClipping(t *testing.T) {
	c := &canvas{W: 50, H: 40}
	c.circle(-5, -5, 20, palette[0])
	c.circle(48, 38, 10, palette[1])
	c.line([]pt{{-100, 20}, {200, 20}}, 3, palette[2], false)
	c.rect(40, 30, 100, 100, palette[3])
	b, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _, _ := img.At(2, 2).RGBA(); r>>8 != uint32(palette[0].R) {
		t.Errorf("top-left pixel = %v", img.At(2, 2))
	}
	if _, g, _, _ := img.At(25, 20).RGBA(); g>>8 != uint32(palette[2].G) {
		t.Errorf("line pixel = %v", img.At(25, 20))
	}
	if r, _, _, _ := img.At(25, 5).RGBA(); r>>8 != 255 {
		t.Errorf("background pixel = %v", img.At(25, 5))
	}
}
