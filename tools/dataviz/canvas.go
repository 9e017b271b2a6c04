package dataviz

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
)

// A chart is drawn once as a list of primitives, then rendered by two
// backends: a rasteriser for PNG and an SVG writer, so both show the same
// picture.
type prim struct {
	kind   string // rect, poly (filled), line (stroked polyline), circle, text
	pts    []pt
	x, y   float64
	w, h   float64
	r      float64
	col    color.RGBA
	width  float64
	text   string
	size   float64
	anchor string // start, middle, end
	rotate bool   // text rotated -90°
	bold   bool
	dash   bool
}

type pt struct{ x, y float64 }

type canvas struct {
	W, H  int
	prims []prim
	font  *cjkfont.Font
}

func (c *canvas) rect(x, y, w, h float64, col color.RGBA) {
	if w < 0 {
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	c.prims = append(c.prims, prim{kind: "rect", x: x, y: y, w: w, h: h, col: col})
}
func (c *canvas) poly(pts []pt, col color.RGBA) {
	c.prims = append(c.prims, prim{kind: "poly", pts: pts, col: col})
}
func (c *canvas) line(pts []pt, width float64, col color.RGBA, dash bool) {
	c.prims = append(c.prims, prim{kind: "line", pts: pts, width: width, col: col, dash: dash})
}
func (c *canvas) circle(x, y, r float64, col color.RGBA) {
	c.prims = append(c.prims, prim{kind: "circle", x: x, y: y, r: r, col: col})
}
func (c *canvas) text(x, y float64, s string, size float64, col color.RGBA, anchor string, bold bool) {
	c.prims = append(c.prims, prim{kind: "text", x: x, y: y, text: s, size: size, col: col, anchor: anchor, bold: bold})
}
func (c *canvas) vtext(x, y float64, s string, size float64, col color.RGBA) {
	c.prims = append(c.prims, prim{kind: "text", x: x, y: y, text: s, size: size, col: col, anchor: "middle", rotate: true})
}

// PNG rasterises the primitives.
func (c *canvas) PNG() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, c.W, c.H))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	// Faces of this rendering only: the font's shared faces are not safe
	// for concurrent use.
	faces := map[float64]font.Face{}
	defer func() {
		for _, fc := range faces {
			fc.Close()
		}
	}()
	for _, p := range c.prims {
		switch p.kind {
		case "rect":
			fill(img, rectPts(p.x, p.y, p.w, p.h), p.col)
		case "poly":
			fill(img, p.pts, p.col)
		case "circle":
			fill(img, circlePts(p.x, p.y, p.r), p.col)
		case "line":
			pts := p.pts
			if p.dash {
				for _, seg := range dashes(pts, 6, 4) {
					strokeLine(img, seg, p.width, p.col)
				}
				continue
			}
			strokeLine(img, pts, p.width, p.col)
		case "text":
			c.drawText(img, p, faces)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func rectPts(x, y, w, h float64) []pt { return []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}} }

func circlePts(cx, cy, r float64) []pt {
	n := max(12, int(r*2))
	out := make([]pt, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = pt{cx + r*math.Cos(a), cy + r*math.Sin(a)}
	}
	return out
}

// fill rasterises a closed polygon. The rasteriser covers only the
// polygon's bounding box: sized to the whole image, each of 10,000 scatter
// dots would clear megabytes.
func fill(img *image.RGBA, pts []pt, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	z, box, ok := rasterizer(img, pts, 0)
	if !ok {
		return
	}
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	z.MoveTo(float32(pts[0].x)-ox, float32(pts[0].y)-oy)
	for _, p := range pts[1:] {
		z.LineTo(float32(p.x)-ox, float32(p.y)-oy)
	}
	z.ClosePath()
	z.Draw(img, box, image.NewUniform(col), image.Point{})
}

// rasterizer returns a rasteriser over the bounding box of pts grown by pad.
func rasterizer(img *image.RGBA, pts []pt, pad float64) (*vector.Rasterizer, image.Rectangle, bool) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, minY = math.Min(minX, p.x), math.Min(minY, p.y)
		maxX, maxY = math.Max(maxX, p.x), math.Max(maxY, p.y)
	}
	box := image.Rect(int(math.Floor(minX-pad))-1, int(math.Floor(minY-pad))-1, int(math.Ceil(maxX+pad))+1, int(math.Ceil(maxY+pad))+1)
	// Never draw outside the image: the rasteriser clips what falls
	// outside its frame, and its frame is the visible part of the box.
	box = box.Intersect(img.Bounds())
	if box.Empty() {
		return nil, box, false
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	return z, box, true
}

// strokeLine draws a polyline as one quadrilateral per segment plus round
// joins.
func strokeLine(img *image.RGBA, pts []pt, width float64, col color.RGBA) {
	if len(pts) < 2 {
		return
	}
	hw := width / 2
	z, box, ok := rasterizer(img, pts, hw+1)
	if !ok {
		return
	}
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for i := 0; i+1 < len(pts); i++ {
		a, e := pts[i], pts[i+1]
		dx, dy := e.x-a.x, e.y-a.y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*hw, dx/l*hw
		z.MoveTo(float32(a.x+nx)-ox, float32(a.y+ny)-oy)
		z.LineTo(float32(e.x+nx)-ox, float32(e.y+ny)-oy)
		z.LineTo(float32(e.x-nx)-ox, float32(e.y-ny)-oy)
		z.LineTo(float32(a.x-nx)-ox, float32(a.y-ny)-oy)
		z.ClosePath()
	}
	z.Draw(img, box, image.NewUniform(col), image.Point{})
	if width > 1.5 {
		for _, p := range pts[1 : len(pts)-1] {
			fill(img, circlePts(p.x, p.y, hw), col)
		}
	}
}

func dashes(pts []pt, on, off float64) [][]pt {
	var out [][]pt
	for i := 0; i+1 < len(pts); i++ {
		a, e := pts[i], pts[i+1]
		l := math.Hypot(e.x-a.x, e.y-a.y)
		for s := 0.0; s < l; s += on + off {
			t0, t1 := s/l, math.Min(s+on, l)/l
			out = append(out, []pt{{a.x + (e.x-a.x)*t0, a.y + (e.y-a.y)*t0}, {a.x + (e.x-a.x)*t1, a.y + (e.y-a.y)*t1}})
		}
	}
	return out
}

func (c *canvas) drawText(img *image.RGBA, p prim, faces map[float64]font.Face) {
	face, ok := faces[p.size]
	if !ok {
		var err error
		if face, err = c.font.NewFace(p.size); err != nil {
			return
		}
		faces[p.size] = face
	}
	w := cjkfont.Measure(face, p.text)
	ascent := float64(face.Metrics().Ascent) / 64
	descent := float64(face.Metrics().Descent) / 64
	shift := 0.0
	switch p.anchor {
	case "middle":
		shift = w / 2
	case "end":
		shift = w
	}
	if !p.rotate {
		d := &font.Drawer{Dst: img, Src: image.NewUniform(p.col), Face: face, Dot: fixed.P(int(math.Round(p.x-shift)), int(math.Round(p.y)))}
		d.DrawString(p.text)
		if p.bold {
			d.Dot = fixed.Point26_6{X: fixed.Int26_6((p.x-shift)*64) + 32, Y: fixed.I(int(math.Round(p.y)))}
			d.DrawString(p.text)
		}
		return
	}
	// Rotated: draw on a scratch image, then copy turned by -90°.
	tw, th := int(math.Ceil(w))+2, int(math.Ceil(ascent+descent))+2
	tmp := image.NewRGBA(image.Rect(0, 0, tw, th))
	d := &font.Drawer{Dst: tmp, Src: image.NewUniform(p.col), Face: face, Dot: fixed.P(1, int(math.Round(ascent))+1)}
	d.DrawString(p.text)
	ox, oy := int(math.Round(p.x-float64(th)/2)), int(math.Round(p.y+w/2))
	for y := range th {
		for x := range tw {
			px := tmp.RGBAAt(x, y)
			if px.A == 0 {
				continue
			}
			dx, dy := ox+y, oy-x
			if !image.Pt(dx, dy).In(img.Bounds()) {
				continue
			}
			blend(img, dx, dy, px)
		}
	}
}

func blend(img *image.RGBA, x, y int, src color.RGBA) {
	dst := img.RGBAAt(x, y)
	a := uint32(src.A)
	mix := func(s, d uint8) uint8 { return uint8((uint32(s)*255 + uint32(d)*(255-a)) / 255) }
	img.SetRGBA(x, y, color.RGBA{mix(src.R, dst.R), mix(src.G, dst.G), mix(src.B, dst.B), 255})
}

// SVG writes the primitives as an SVG document; text stays text (selectable,
// searchable) with the CJK font family named first.
func (c *canvas) SVG() []byte {
	var b strings.Builder
	fam := "sans-serif"
	if c.font != nil && c.font.Name != "" {
		fam = fmt.Sprintf("'%s', 'WenQuanYi Zen Hei', 'Noto Sans CJK SC', 'Microsoft YaHei', 'PingFang SC', sans-serif", html.EscapeString(c.font.Name))
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s">`+"\n", c.W, c.H, c.W, c.H, fam)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", c.W, c.H)
	for _, p := range c.prims {
		switch p.kind {
		case "rect":
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>`+"\n", p.x, p.y, p.w, p.h, hex(p.col), opacity(p.col))
		case "poly":
			fmt.Fprintf(&b, `<polygon points="%s" fill="%s"%s/>`+"\n", points(p.pts), hex(p.col), opacity(p.col))
		case "circle":
			fmt.Fprintf(&b, `<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s"%s/>`+"\n", p.x, p.y, p.r, hex(p.col), opacity(p.col))
		case "line":
			dash := ""
			if p.dash {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%.2f" stroke-linejoin="round"%s%s/>`+"\n", points(p.pts), hex(p.col), p.width, dash, strokeOpacity(p.col))
		case "text":
			weight := ""
			if p.bold {
				weight = ` font-weight="bold"`
			}
			if p.rotate {
				fmt.Fprintf(&b, `<text x="%.2f" y="%.2f" font-size="%.1f" fill="%s" text-anchor="middle" dominant-baseline="middle" transform="rotate(-90 %.2f %.2f)"%s>%s</text>`+"\n", p.x, p.y, p.size, hex(p.col), p.x, p.y, weight, html.EscapeString(p.text))
				continue
			}
			fmt.Fprintf(&b, `<text x="%.2f" y="%.2f" font-size="%.1f" fill="%s" text-anchor="%s"%s>%s</text>`+"\n", p.x, p.y, p.size, hex(p.col), p.anchor, weight, html.EscapeString(p.text))
		}
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func opacity(c color.RGBA) string {
	if c.A == 255 {
		return ""
	}
	return fmt.Sprintf(` fill-opacity="%.2f"`, float64(c.A)/255)
}

func strokeOpacity(c color.RGBA) string {
	if c.A == 255 {
		return ""
	}
	return fmt.Sprintf(` stroke-opacity="%.2f"`, float64(c.A)/255)
}

func points(pts []pt) string {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.2f,%.2f", p.x, p.y)
	}
	return b.String()
}
