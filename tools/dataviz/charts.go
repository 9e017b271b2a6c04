package dataviz

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// Series is one named data series. Values are NaN where missing; X is set
// for scatter series.
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	X      []float64 `json:"x,omitempty"`
}

// Spec is everything a chart needs.
type Spec struct {
	Type        string
	Title       string
	XLabel      string
	YLabel      string
	Labels      []string
	Series      []Series
	Stacked     bool
	Donut       bool
	Bins        int
	YLabels     []string
	Matrix      [][]float64
	Width       int
	Height      int
	ValueFormat string
}

var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 255}, {0xf2, 0x8e, 0x2b, 255}, {0xe1, 0x57, 0x59, 255}, {0x76, 0xb7, 0xb2, 255}, {0x59, 0xa1, 0x4f, 255},
	{0xed, 0xc9, 0x48, 255}, {0xb0, 0x7a, 0xa1, 255}, {0xff, 0x9d, 0xa7, 255}, {0x9c, 0x75, 0x5f, 255}, {0xba, 0xb0, 0xac, 255},
}

var (
	ink   = color.RGBA{0x33, 0x33, 0x33, 255}
	muted = color.RGBA{0x66, 0x66, 0x66, 255}
	grid  = color.RGBA{0xe6, 0xe6, 0xe6, 255}
	axis  = color.RGBA{0x99, 0x99, 0x99, 255}
)

func lighten(c color.RGBA, f float64) color.RGBA {
	m := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), 255}
}

// units are the abbreviations of the "thousands" and "wan" formats, the
// largest first; a smaller number is written in full.
var units = map[string][]struct {
	size   float64
	digits int
	suffix string
}{
	"thousands": {{1e9, 1, "B"}, {1e6, 1, "M"}, {1e3, 1, "K"}},
	"wan":       {{1e8, 2, "亿"}, {1e4, 2, "万"}},
}

// formatNum renders a number for labels.
func formatNum(v float64, format string) string {
	if math.IsNaN(v) {
		return ""
	}
	switch format {
	case "percent":
		return trimZeros(strconv.FormatFloat(v*100, 'f', 1, 64)) + "%"
	case "integer":
		return wording.Commas(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	a := math.Abs(v)
	for _, u := range units[format] {
		if a >= u.size {
			return trimZeros(strconv.FormatFloat(v/u.size, 'f', u.digits, 64)) + u.suffix
		}
	}
	switch {
	case a >= 1e4 || v == math.Trunc(v):
		return wording.Commas(strconv.FormatFloat(v, 'f', 0, 64))
	case a >= 100:
		return wording.Commas(trimZeros(strconv.FormatFloat(v, 'f', 1, 64)))
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi == lo {
		hi = lo + 1
		if lo != 0 {
			lo, hi = lo-math.Abs(lo)*0.1, hi+math.Abs(hi)*0.1
		}
	}
	raw := (hi - lo) / float64(max(1, n))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var out []float64
	for v := start; v <= hi+step*0.5 && len(out) < 50; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	if out[len(out)-1] < hi {
		out = append(out, out[len(out)-1]+step)
	}
	return out
}

// render draws a chart onto a new canvas.
func render(s *Spec, f *cjkfont.Font) (*canvas, error) {
	c := &canvas{W: s.Width, H: s.Height, font: f}
	top := 16.0
	if s.Title != "" {
		c.text(float64(s.Width)/2, 34, s.Title, 20, ink, "middle", true)
		top = 52
	}
	switch s.Type {
	case "pie":
		drawPie(c, s, top)
		return c, nil
	case "heatmap":
		return c, drawHeatmap(c, s, top)
	}
	names := []string{}
	for _, se := range s.Series {
		names = append(names, se.Name)
	}
	if len(s.Series) > 1 {
		top = drawLegend(c, names, top)
	}
	switch s.Type {
	case "scatter":
		drawScatter(c, s, top)
	case "histogram":
		drawHistogram(c, s, top)
	default:
		drawCategorical(c, s, top)
	}
	return c, nil
}

func drawLegend(c *canvas, names []string, top float64) float64 {
	x := 20.0
	y := top + 4
	for i, n := range names {
		w := c.font.Width(n, 13) + 34
		if x+w > float64(c.W)-10 && x > 20 {
			x = 20
			y += 20
		}
		c.rect(x, y, 14, 12, palette[i%len(palette)])
		c.text(x+20, y+11, n, 13, ink, "start", false)
		x += w
	}
	return y + 26
}

// plotArea lays out the axes: left margin from the widest tick label.
type plotArea struct{ x0, y0, x1, y1 float64 }

func (p plotArea) w() float64 { return p.x1 - p.x0 }
func (p plotArea) h() float64 { return p.y1 - p.y0 }

func yAxis(c *canvas, s *Spec, ticks []float64, top, bottomSpace float64) (plotArea, func(float64) float64) {
	maxW := 0.0
	for _, t := range ticks {
		maxW = math.Max(maxW, c.font.Width(formatNum(t, s.ValueFormat), 12))
	}
	left := maxW + 18
	if s.YLabel != "" {
		left += 22
		c.vtext(16, top+(float64(c.H)-bottomSpace-top)/2, s.YLabel, 13, muted)
	}
	pa := plotArea{x0: left, y0: top + 6, x1: float64(c.W) - 20, y1: float64(c.H) - bottomSpace}
	lo, hi := ticks[0], ticks[len(ticks)-1]
	sy := func(v float64) float64 { return pa.y1 - (v-lo)/(hi-lo)*pa.h() }
	for _, t := range ticks {
		y := sy(t)
		c.line([]pt{{pa.x0, y}, {pa.x1, y}}, 1, grid, false)
		c.text(pa.x0-8, y+4, formatNum(t, s.ValueFormat), 12, muted, "end", false)
	}
	c.line([]pt{{pa.x0, pa.y0}, {pa.x0, pa.y1}}, 1, axis, false)
	return pa, sy
}

func bottomSpace(s *Spec) float64 {
	b := 36.0
	if s.XLabel != "" {
		b += 22
	}
	return b
}

func xAxisLabel(c *canvas, s *Spec, pa plotArea) {
	if s.XLabel != "" {
		c.text(pa.x0+pa.w()/2, float64(c.H)-10, s.XLabel, 13, muted, "middle", false)
	}
}

func dataRange(s *Spec) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	n := len(s.Labels)
	if s.Stacked && (s.Type == "bar" || s.Type == "area") {
		for i := range n {
			pos, neg := 0.0, 0.0
			for _, se := range s.Series {
				if i < len(se.Values) && !math.IsNaN(se.Values[i]) {
					if se.Values[i] >= 0 {
						pos += se.Values[i]
					} else {
						neg += se.Values[i]
					}
				}
			}
			hi, lo = math.Max(hi, pos), math.Min(lo, neg)
		}
	} else {
		for _, se := range s.Series {
			for _, v := range se.Values {
				if !math.IsNaN(v) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if s.Type == "bar" || s.Type == "area" || lo > 0 && s.Type != "line" {
		lo = math.Min(lo, 0)
	}
	return lo, hi
}

func drawCategorical(c *canvas, s *Spec, top float64) {
	lo, hi := dataRange(s)
	ticks := niceTicks(lo, hi, 5)
	pa, sy := yAxis(c, s, ticks, top, bottomSpace(s))
	n := len(s.Labels)
	band := pa.w() / float64(max(1, n))
	// Category labels: skip some when they would overlap.
	maxLabel := 0.0
	for _, l := range s.Labels {
		maxLabel = math.Max(maxLabel, c.font.Width(l, 12))
	}
	every := max(1, int(math.Ceil((maxLabel+8)/band)))
	for i, l := range s.Labels {
		if i%every == 0 {
			c.text(pa.x0+band*(float64(i)+0.5), pa.y1+18, l, 12, muted, "middle", false)
		}
	}
	zero := sy(math.Max(ticks[0], math.Min(0, ticks[len(ticks)-1])))
	c.line([]pt{{pa.x0, zero}, {pa.x1, zero}}, 1, axis, false)
	xAxisLabel(c, s, pa)
	switch s.Type {
	case "bar":
		drawBars(c, s, pa, sy, band)
	case "line", "area":
		drawLines(c, s, pa, sy, band)
	}
}

// drawBars draws one bar per series and category, side by side or stacked
// (positive and negative values stacking apart).
func drawBars(c *canvas, s *Spec, pa plotArea, sy func(float64) float64, band float64) {
	n, ns := len(s.Labels), len(s.Series)
	pos, neg := make([]float64, n), make([]float64, n)
	for si, se := range s.Series {
		col := palette[si%len(palette)]
		for i := range n {
			if i >= len(se.Values) || math.IsNaN(se.Values[i]) {
				continue
			}
			v := se.Values[i]
			if s.Stacked {
				bw := band * 0.6
				x := pa.x0 + band*float64(i) + (band-bw)/2
				base := &pos[i]
				if v < 0 {
					base = &neg[i]
				}
				c.rect(x, sy(*base+v), bw, sy(*base)-sy(*base+v), col)
				*base += v
				continue
			}
			bw := band * 0.8 / float64(ns)
			x := pa.x0 + band*float64(i) + band*0.1 + bw*float64(si)
			c.rect(x+bw*0.05, sy(v), bw*0.9, sy(0)-sy(v), col)
			if ns == 1 && n <= 24 {
				c.text(x+bw/2, sy(v)-5, formatNum(v, s.ValueFormat), 11, muted, "middle", false)
			}
		}
	}
}

// drawLines draws each series as a line broken at missing values, filled
// below for an area chart.
func drawLines(c *canvas, s *Spec, pa plotArea, sy func(float64) float64, band float64) {
	n := len(s.Labels)
	// Fills first, then every line on top, so stacked areas do not hide
	// the lines below them.
	base := make([]float64, n)
	var lines [][][]pt // per series, segments between missing values
	for si, se := range s.Series {
		col := palette[si%len(palette)]
		var pts, lower []pt
		var segs [][]pt
		var seg []pt
		for i := range n {
			if i >= len(se.Values) || math.IsNaN(se.Values[i]) {
				if len(seg) > 0 {
					segs = append(segs, seg)
					seg = nil
				}
				continue
			}
			v := se.Values[i]
			x := pa.x0 + band*(float64(i)+0.5)
			b := 0.0
			if s.Stacked {
				b = base[i]
				base[i] += v
			}
			pts = append(pts, pt{x, sy(b + v)})
			lower = append(lower, pt{x, sy(b)})
			seg = append(seg, pt{x, sy(b + v)})
		}
		if len(seg) > 0 {
			segs = append(segs, seg)
		}
		if s.Type == "area" && len(pts) > 1 {
			poly := append([]pt{}, pts...)
			for i := len(lower) - 1; i >= 0; i-- {
				poly = append(poly, lower[i])
			}
			c.poly(poly, lighten(col, 0.55))
		}
		lines = append(lines, segs)
	}
	for si, segs := range lines {
		col := palette[si%len(palette)]
		count := 0
		for _, seg := range segs {
			count += len(seg)
		}
		for _, seg := range segs {
			c.line(seg, 2.5, col, false)
			if count <= 40 {
				for _, p := range seg {
					c.circle(p.x, p.y, 3.5, col)
				}
			}
		}
	}
}

func drawScatter(c *canvas, s *Spec, top float64) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, se := range s.Series {
		for i, y := range se.Values {
			if i >= len(se.X) || math.IsNaN(y) || math.IsNaN(se.X[i]) {
				continue
			}
			xlo, xhi = math.Min(xlo, se.X[i]), math.Max(xhi, se.X[i])
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
		}
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi, ylo, yhi = 0, 1, 0, 1
	}
	yt := niceTicks(ylo, yhi, 5)
	pa, sy := yAxis(c, s, yt, top, bottomSpace(s))
	xt := niceTicks(xlo, xhi, 6)
	sx := func(v float64) float64 { return pa.x0 + (v-xt[0])/(xt[len(xt)-1]-xt[0])*pa.w() }
	for _, t := range xt {
		x := sx(t)
		c.line([]pt{{x, pa.y0}, {x, pa.y1}}, 1, grid, false)
		c.text(x, pa.y1+18, formatNum(t, ""), 12, muted, "middle", false)
	}
	c.line([]pt{{pa.x0, pa.y1}, {pa.x1, pa.y1}}, 1, axis, false)
	xAxisLabel(c, s, pa)
	r := 3.5
	total := 0
	for _, se := range s.Series {
		total += len(se.Values)
	}
	if total > 2000 {
		r = 2
	}
	for si, se := range s.Series {
		col := palette[si%len(palette)]
		for i, y := range se.Values {
			if i < len(se.X) && !math.IsNaN(y) && !math.IsNaN(se.X[i]) {
				c.circle(sx(se.X[i]), sy(y), r, col)
			}
		}
	}
}

// histogramBins counts values into bins over nice edges.
func histogramBins(vals []float64, bins int) ([]float64, []float64) {
	var clean []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			clean = append(clean, v)
		}
	}
	if len(clean) == 0 {
		return []float64{0, 1}, []float64{0}
	}
	sort.Float64s(clean)
	if bins <= 0 {
		bins = int(math.Ceil(math.Log2(float64(len(clean))))) + 1 // Sturges
	}
	bins = min(max(bins, 1), 100)
	lo, hi := clean[0], clean[len(clean)-1]
	if hi == lo {
		hi = lo + 1
	}
	width := (hi - lo) / float64(bins)
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + width*float64(i)
	}
	counts := make([]float64, bins)
	for _, v := range clean {
		i := min(int((v-lo)/width), bins-1)
		counts[i]++
	}
	return edges, counts
}

func drawHistogram(c *canvas, s *Spec, top float64) {
	var vals []float64
	if len(s.Series) > 0 {
		vals = s.Series[0].Values
	}
	edges, counts := histogramBins(vals, s.Bins)
	hi := 0.0
	for _, v := range counts {
		hi = math.Max(hi, v)
	}
	ticks := niceTicks(0, hi, 5)
	sv := *s
	sv.ValueFormat = "integer"
	pa, sy := yAxis(c, &sv, ticks, top, bottomSpace(s))
	bw := pa.w() / float64(len(counts))
	for i, v := range counts {
		c.rect(pa.x0+bw*float64(i)+0.5, sy(v), bw-1, sy(0)-sy(v), palette[0])
	}
	every := max(1, int(math.Ceil(50/bw)))
	for i, e := range edges {
		if i%every == 0 || i == len(edges)-1 {
			c.text(pa.x0+bw*float64(i), pa.y1+18, formatNum(e, s.ValueFormat), 11, muted, "middle", false)
		}
	}
	c.line([]pt{{pa.x0, pa.y1}, {pa.x1, pa.y1}}, 1, axis, false)
	xAxisLabel(c, s, pa)
}

func drawPie(c *canvas, s *Spec, top float64) {
	var vals []float64
	if len(s.Series) > 0 {
		vals = s.Series[0].Values
	}
	total := 0.0
	for _, v := range vals {
		if !math.IsNaN(v) && v > 0 {
			total += v
		}
	}
	// Legend on the right, pie on the left.
	legendW := 0.0
	for i, l := range s.Labels {
		if i < len(vals) {
			legendW = math.Max(legendW, c.font.Width(fmt.Sprintf("%s  %s", l, formatNum(vals[i], s.ValueFormat)), 13)+30)
		}
	}
	legendW = math.Min(legendW, float64(c.W)*0.45)
	cx := (float64(c.W) - legendW) / 2
	cy := top + (float64(c.H)-top)/2
	r := math.Min((float64(c.W)-legendW)/2, (float64(c.H)-top)/2) - 24
	a := -math.Pi / 2
	for i, v := range vals {
		if math.IsNaN(v) || v <= 0 || total == 0 {
			continue
		}
		sweep := v / total * 2 * math.Pi
		col := palette[i%len(palette)]
		pts := []pt{{cx, cy}}
		steps := max(2, int(sweep*r/4))
		for k := 0; k <= steps; k++ {
			t := a + sweep*float64(k)/float64(steps)
			pts = append(pts, pt{cx + r*math.Cos(t), cy + r*math.Sin(t)})
		}
		c.poly(pts, col)
		if v/total >= 0.04 {
			mid := a + sweep/2
			lr := r * 0.7
			if s.Donut {
				lr = r * 0.78
			}
			c.text(cx+lr*math.Cos(mid), cy+lr*math.Sin(mid)+4, trimZeros(strconv.FormatFloat(v/total*100, 'f', 1, 64))+"%", 12, color.RGBA{255, 255, 255, 255}, "middle", true)
		}
		a += sweep
	}
	if s.Donut {
		c.circle(cx, cy, r*0.55, color.RGBA{255, 255, 255, 255})
		c.text(cx, cy+6, formatNum(total, s.ValueFormat), 18, ink, "middle", true)
	}
	ly := cy - float64(len(s.Labels))*11
	for i, l := range s.Labels {
		if i >= len(vals) {
			break
		}
		x := float64(c.W) - legendW
		c.rect(x, ly+float64(i)*22, 14, 12, palette[i%len(palette)])
		c.text(x+20, ly+float64(i)*22+11, fmt.Sprintf("%s  %s", l, formatNum(vals[i], s.ValueFormat)), 13, ink, "start", false)
	}
}

// heatColor maps t in [0,1] from pale yellow to deep blue.
func heatColor(t float64) color.RGBA {
	stops := []color.RGBA{{0xff, 0xff, 0xd9, 255}, {0xc7, 0xe9, 0xb4, 255}, {0x41, 0xb6, 0xc4, 255}, {0x22, 0x5e, 0xa8, 255}, {0x08, 0x1d, 0x58, 255}}
	t = math.Max(0, math.Min(1, t)) * float64(len(stops)-1)
	i := min(int(t), len(stops)-2)
	f := t - float64(i)
	m := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*f) }
	a, b := stops[i], stops[i+1]
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 255}
}

func drawHeatmap(c *canvas, s *Spec, top float64) error {
	rows, cols := len(s.Matrix), len(s.Labels)
	if rows == 0 || cols == 0 {
		return fmt.Errorf("heatmap needs labels (columns) and a matrix of rows")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range s.Matrix {
		for _, v := range r {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	left := 20.0
	for _, l := range s.YLabels {
		left = math.Max(left, c.font.Width(l, 12)+16)
	}
	pa := plotArea{x0: left, y0: top + 4, x1: float64(c.W) - 70, y1: float64(c.H) - bottomSpace(s)}
	cw, ch := pa.w()/float64(cols), pa.h()/float64(rows)
	for r := range rows {
		if r < len(s.YLabels) {
			c.text(pa.x0-8, pa.y0+ch*(float64(r)+0.5)+4, s.YLabels[r], 12, muted, "end", false)
		}
		for k := range cols {
			v := math.NaN()
			if k < len(s.Matrix[r]) {
				v = s.Matrix[r][k]
			}
			col := color.RGBA{0xf4, 0xf4, 0xf4, 255}
			t := (v - lo) / (hi - lo)
			if !math.IsNaN(v) {
				col = heatColor(t)
			}
			c.rect(pa.x0+cw*float64(k), pa.y0+ch*float64(r), cw-1, ch-1, col)
			if !math.IsNaN(v) && cw > 34 && ch > 16 {
				tc := ink
				if t > 0.55 {
					tc = color.RGBA{255, 255, 255, 255}
				}
				c.text(pa.x0+cw*(float64(k)+0.5), pa.y0+ch*(float64(r)+0.5)+4, formatNum(v, s.ValueFormat), 11, tc, "middle", false)
			}
		}
	}
	every := max(1, int(math.Ceil(60/cw)))
	for k, l := range s.Labels {
		if k%every == 0 {
			c.text(pa.x0+cw*(float64(k)+0.5), pa.y1+18, l, 12, muted, "middle", false)
		}
	}
	xAxisLabel(c, s, pa)
	// Colour scale.
	for i := range 50 {
		y := pa.y1 - pa.h()*float64(i+1)/50
		c.rect(pa.x1+20, y, 14, pa.h()/50+0.5, heatColor(float64(i)/49))
	}
	c.text(pa.x1+40, pa.y0+10, formatNum(hi, s.ValueFormat), 11, muted, "start", false)
	c.text(pa.x1+40, pa.y1, formatNum(lo, s.ValueFormat), 11, muted, "start", false)
	return nil
}
