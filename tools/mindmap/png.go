package mindmap

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/vector"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
)

// maxPixels caps the PNG canvas (about 60 MB of RGBA); larger maps are
// drawn at a smaller scale, never below 1.
const maxPixels = 15_000_000

// PNGScale picks the drawing scale for a layout: the requested scale, lowered
// to fit maxPixels but not below 1 so labels stay legible.
func PNGScale(l *Layout, want float64) float64 {
	if want <= 0 {
		want = 2
	}
	if px := l.Width * l.Height * want * want; px > maxPixels {
		want = math.Max(1, math.Sqrt(maxPixels/(l.Width*l.Height)))
	}
	return want
}

// PNG rasterises the layout with our own drawing code: anti-aliased shapes
// through x/image/vector, text through the CJK font.
func PNG(l *Layout, f *cjkfont.Font, scale float64) ([]byte, int, int, error) {
	W, H := int(math.Ceil(l.Width*scale)), int(math.Ceil(l.Height*scale))
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)

	// Edges first, under the boxes.
	for _, p := range l.Boxes {
		for _, c := range p.Kids {
			x0, y0, x1, y1, x2, y2, x3, y3 := edge(p, c)
			_, stroke, _ := colours(c)
			var pb path
			strokeCubic(&pb, scale, strokeWidth(c)*scale, x0, y0, x1, y1, x2, y2, x3, y3)
			pb.fill(img, stroke)
		}
	}
	faces := map[float64]font.Face{}
	defer func() {
		for _, fc := range faces {
			fc.Close()
		}
	}()
	for _, n := range l.Boxes {
		fill, stroke, text := colours(n)
		x, y, w, h, rad := n.X*scale, n.Y*scale, n.W*scale, n.H*scale, radius(n)*scale
		bw := 1.5 * scale
		var outer, inner path
		roundRect(&outer, x, y, w, h, rad)
		outer.fill(img, stroke)
		roundRect(&inner, x+bw, y+bw, w-2*bw, h-2*bw, math.Max(0, rad-bw))
		inner.fill(img, fill)

		size := n.Size * scale
		fc, ok := faces[size]
		if !ok {
			var err error
			if fc, err = f.NewFace(size); err != nil {
				return nil, 0, 0, fmt.Errorf("png: font face: %w", err)
			}
			faces[size] = fc
		}
		m := fc.Metrics()
		asc, desc := float64(m.Ascent)/64, float64(m.Descent)/64
		px, py := padding(n.Depth)
		lh := lineHeight(n.Size) * scale
		for i, line := range n.Lines {
			top := y + py*scale + lh*float64(i)
			base := top + (lh-(asc+desc))/2 + asc
			cjkfont.DrawString(img, fc, text, x+px*scale, base, line)
			if n.Depth <= 1 {
				// Faux bold like the SVG's font-weight, for the top levels.
				cjkfont.DrawString(img, fc, text, x+px*scale+0.6*scale, base, line)
			}
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, 0, 0, fmt.Errorf("png: encode: %w", err)
	}
	return buf.Bytes(), W, H, nil
}

// roundRect adds a rounded rectangle path.
func roundRect(r *path, x, y, w, h, rad float64) {
	rad = math.Min(rad, math.Min(w, h)/2)
	r.moveTo(x+rad, y)
	r.lineTo(x+w-rad, y)
	r.quadTo(x+w, y, x+w, y+rad)
	r.lineTo(x+w, y+h-rad)
	r.quadTo(x+w, y+h, x+w-rad, y+h)
	r.lineTo(x+rad, y+h)
	r.quadTo(x, y+h, x, y+h-rad)
	r.lineTo(x, y+rad)
	r.quadTo(x, y, x+rad, y)
	r.close()
}

// path records drawing operations so that they can be rasterised in a
// rasterizer no bigger than their bounding box (a canvas-sized one per
// shape would cost width*height floats each).
type path struct {
	ops                    []pathOp
	minX, minY, maxX, maxY float64
}

type pathOp struct {
	kind byte // 'M', 'L', 'Q', 'Z'
	pts  [4]float64
}

func (p *path) see(x, y float64) {
	if len(p.ops) == 0 {
		p.minX, p.minY, p.maxX, p.maxY = x, y, x, y
		return
	}
	p.minX, p.minY = math.Min(p.minX, x), math.Min(p.minY, y)
	p.maxX, p.maxY = math.Max(p.maxX, x), math.Max(p.maxY, y)
}

func (p *path) moveTo(x, y float64) {
	p.see(x, y)
	p.ops = append(p.ops, pathOp{'M', [4]float64{x, y}})
}
func (p *path) lineTo(x, y float64) {
	p.see(x, y)
	p.ops = append(p.ops, pathOp{'L', [4]float64{x, y}})
}
func (p *path) quadTo(cx, cy, x, y float64) {
	p.see(cx, cy)
	p.see(x, y)
	p.ops = append(p.ops, pathOp{'Q', [4]float64{cx, cy, x, y}})
}
func (p *path) close() { p.ops = append(p.ops, pathOp{kind: 'Z'}) }

// fill rasterises the path into dst with an anti-aliased solid colour.
func (p *path) fill(dst *image.RGBA, c color.Color) {
	if len(p.ops) == 0 {
		return
	}
	b := image.Rect(int(math.Floor(p.minX))-1, int(math.Floor(p.minY))-1, int(math.Ceil(p.maxX))+1, int(math.Ceil(p.maxY))+1).Intersect(dst.Bounds())
	if b.Empty() {
		return
	}
	r := vector.NewRasterizer(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	f := func(v, o float64) float32 { return float32(v - o) }
	for _, op := range p.ops {
		switch op.kind {
		case 'M':
			r.MoveTo(f(op.pts[0], ox), f(op.pts[1], oy))
		case 'L':
			r.LineTo(f(op.pts[0], ox), f(op.pts[1], oy))
		case 'Q':
			r.QuadTo(f(op.pts[0], ox), f(op.pts[1], oy), f(op.pts[2], ox), f(op.pts[3], oy))
		case 'Z':
			r.ClosePath()
		}
	}
	r.Draw(dst, b, image.NewUniform(c), image.Point{})
}

// strokeCubic flattens a cubic Bézier (in layout units, scaled here) and
// adds the stroke as one closed outline: the curve offset by half the width
// on one side, then back along the other side. Edges bend gently, so the
// outline never folds over itself.
func strokeCubic(r *path, scale, width float64, x0, y0, x1, y1, x2, y2, x3, y3 float64) {
	const steps = 32
	var xs, ys [steps + 1]float64
	for i := 0; i <= steps; i++ {
		t := float64(i) / steps
		u := 1 - t
		a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		xs[i], ys[i] = (a*x0+b*x1+c*x2+d*x3)*scale, (a*y0+b*y1+c*y2+d*y3)*scale
	}
	hw := width / 2
	var nx, ny [steps + 1]float64
	for i := 0; i <= steps; i++ {
		// Tangent from the neighbouring points.
		a, b := max(i-1, 0), min(i+1, steps)
		dx, dy := xs[b]-xs[a], ys[b]-ys[a]
		l := math.Hypot(dx, dy)
		if l == 0 {
			dx, dy, l = 1, 0, 1
		}
		nx[i], ny[i] = -dy/l*hw, dx/l*hw
	}
	r.moveTo(xs[0]+nx[0], ys[0]+ny[0])
	for i := 1; i <= steps; i++ {
		r.lineTo(xs[i]+nx[i], ys[i]+ny[i])
	}
	for i := steps; i >= 0; i-- {
		r.lineTo(xs[i]-nx[i], ys[i]-ny[i])
	}
	r.close()
}
