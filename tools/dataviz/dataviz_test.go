package dataviz

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type env struct {
	t    *testing.T
	tl   tool.Tool
	root string
}

func newEnv(t *testing.T) *env {
	d := tooltest.Deps(t)
	return &env{t: t, tl: tooltest.Build(t, New, d), root: d.Sandbox.Root()}
}

func (e *env) run(args map[string]any) *tool.Result {
	e.t.Helper()
	return tooltest.OK(e.t, e.tl, args)
}

// needCJKFont skips (or fails in CI) when no CJK font is installed.
func needCJKFont(t *testing.T) *cjkfont.Font { t.Helper(); return tooltest.CJKFont(t) }

func checkPNG(t *testing.T, path string, w, h int) image.Image {
	t.Helper()
	b := tooltest.ReadFile(t, path)
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
	b := tooltest.ReadFile(t, path)
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

// svgRect is a <rect> of a chart's SVG.
type svgRect struct {
	X, Y, W, H float64
	Fill       string
}

// svgRects returns the rects of an SVG filled with fill, in document order,
// leaving out legend swatches (14x12).
func svgRects(t *testing.T, svg, fill string) []svgRect {
	t.Helper()
	var out []svgRect
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "rect" {
			continue
		}
		var r svgRect
		for _, a := range se.Attr {
			v, _ := strconv.ParseFloat(a.Value, 64)
			switch a.Name.Local {
			case "x":
				r.X = v
			case "y":
				r.Y = v
			case "width":
				r.W = v
			case "height":
				r.H = v
			case "fill":
				r.Fill = a.Value
			}
		}
		if r.Fill == fill && !(r.W == 14 && r.H == 12) {
			out = append(out, r)
		}
	}
}

// pngRun measures, down the pixel column x of img, the longest run of
// pixels of colour col: the drawn height of a bar at that column.
func pngRun(img image.Image, x int, col color.RGBA) (top, height int) {
	best, bestTop, run := 0, 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		r, g, b, _ := img.At(x, y).RGBA()
		if uint8(r>>8) == col.R && uint8(g>>8) == col.G && uint8(b>>8) == col.B {
			run++
			if run > best {
				best, bestTop = run, y-run+1
			}
		} else {
			run = 0
		}
	}
	return bestTop, best
}

// TestChart_BarHeightsFollowData decodes the SVG and the PNG of bar charts
// and checks that each bar stands on the zero line (or hangs from it) with a
// height proportional to its value, and that the PNG draws the bar the SVG
// describes; stacked bars sit on the bar below them.
func TestChart_BarHeightsFollowData(t *testing.T) {
	needCJKFont(t)
	e := newEnv(t)
	labels := []any{"A", "B", "C", "D", "E"}
	a := []float64{10, 40, 25, 5, -15}
	b := []float64{30, 5, 20, 35, 10}
	series := []any{map[string]any{"name": "a", "values": a}, map[string]any{"name": "b", "values": b}}
	colA, colB := palette[0], palette[1]
	const tol = 0.02 // SVG coordinates are printed with two decimals

	for _, stacked := range []bool{false, true} {
		name := map[bool]string{false: "grouped", true: "stacked"}[stacked]
		t.Run(name, func(t *testing.T) {
			res := e.run(map[string]any{"action": "chart", "type": "bar", "stacked": stacked, "width": 600, "height": 360,
				"data": map[string]any{"labels": labels, "series": series}, "output": "bars/" + name + ".png"})
			if len(res.Files) != 2 {
				t.Fatalf("files %v", res.Files)
			}
			svg := checkSVG(t, filepath.Join(e.root, "bars", name+".svg"))
			img := checkPNG(t, filepath.Join(e.root, "bars", name+".png"), 600, 360)
			ra, rb := svgRects(t, svg, hex(colA)), svgRects(t, svg, hex(colB))
			if len(ra) != len(a) || len(rb) != len(b) {
				t.Fatalf("%d and %d bars, want %d and %d", len(ra), len(rb), len(a), len(b))
			}
			// One scale for every bar: pixels per unit of value.
			scale := ra[0].H / math.Abs(a[0])
			if scale <= 0 {
				t.Fatalf("first bar has height %v", ra[0].H)
			}
			zero := ra[0].Y + ra[0].H // a[0] > 0: the bar stands on zero
			check := func(label string, r svgRect, col color.RGBA, v, base float64) {
				t.Helper()
				if math.Abs(r.H-math.Abs(v)*scale) > tol {
					t.Errorf("%s: height %.2f for %v, want %.2f (%.3f px per unit)", label, r.H, v, math.Abs(v)*scale, scale)
				}
				// The bar spans base..base+v on the value axis.
				wantTop := zero - math.Max(base, base+v)*scale
				if math.Abs(r.Y-wantTop) > tol {
					t.Errorf("%s: top at %.2f, want %.2f (from %v to %v)", label, r.Y, wantTop, base, base+v)
				}
				// The PNG draws it: the bar's colour down its middle column,
				// as tall as the SVG says (anti-aliased edges: ±1 px each).
				top, h := pngRun(img, int(r.X+r.W/2), col)
				if math.Abs(float64(h)-r.H) > 2 || math.Abs(float64(top)-r.Y) > 2 {
					t.Errorf("%s: PNG bar at column %d spans %d px from y=%d, SVG says %.2f from %.2f", label, int(r.X+r.W/2), h, top, r.H, r.Y)
				}
			}
			for i := range a {
				l := labels[i].(string)
				if stacked {
					// a then b on top of it; a negative a hangs below zero and
					// b starts from zero again.
					check(l+"/a", ra[i], colA, a[i], 0)
					check(l+"/b", rb[i], colB, b[i], math.Max(0, a[i]))
					if math.Abs(ra[i].X-rb[i].X) > tol {
						t.Errorf("%s: stacked bars at x %.2f and %.2f", l, ra[i].X, rb[i].X)
					}
				} else {
					check(l+"/a", ra[i], colA, a[i], 0)
					check(l+"/b", rb[i], colB, b[i], 0)
					if !(ra[i].X+ra[i].W <= rb[i].X+tol) {
						t.Errorf("%s: grouped bars overlap: a ends at %.2f, b starts at %.2f", l, ra[i].X+ra[i].W, rb[i].X)
					}
				}
				if i > 0 && ra[i].X <= ra[i-1].X {
					t.Errorf("%s: bars not in label order", l)
				}
			}
		})
	}
}
