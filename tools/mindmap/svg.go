package mindmap

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"
)

// palette holds one colour per first-level branch, repeated as needed.
var palette = []color.NRGBA{
	{0x3B, 0x82, 0xF6, 255}, {0x10, 0xB9, 0x81, 255}, {0xF5, 0x9E, 0x0B, 255}, {0xEF, 0x44, 0x44, 255},
	{0x8B, 0x5C, 0xF6, 255}, {0x06, 0xB6, 0xD4, 255}, {0xEC, 0x48, 0x99, 255}, {0x84, 0xCC, 0x16, 255},
	{0xF9, 0x73, 0x16, 255}, {0x64, 0x74, 0x8B, 255},
}

var (
	rootFill = color.NRGBA{0x1F, 0x29, 0x37, 255}
	white    = color.NRGBA{255, 255, 255, 255}
	ink      = color.NRGBA{0x1F, 0x29, 0x37, 255}
)

// colours returns fill, stroke and text colour of a box.
func colours(b *Box) (fill, stroke, text color.NRGBA) {
	if b.Depth == 0 {
		return rootFill, rootFill, white
	}
	c := palette[b.Branch%len(palette)]
	if b.Depth == 1 {
		return c, c, white
	}
	return tint(c, 0.12), c, ink
}

func tint(c color.NRGBA, a float64) color.NRGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(255 - (255-float64(v))*a)) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

func hex(c color.NRGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// edge returns the cubic Bézier from a parent to a child box.
func edge(p, c *Box) (x0, y0, x1, y1, x2, y2, x3, y3 float64) {
	if c.Side > 0 {
		x0, x3 = p.X+p.W, c.X
	} else {
		x0, x3 = p.X, c.X+c.W
	}
	if p.Depth == 0 {
		x0 = p.X + p.W/2 + float64(c.Side)*(p.W/2-4)
	}
	y0, y3 = p.Y+p.H/2, c.Y+c.H/2
	dx := (x3 - x0) / 2
	return x0, y0, x0 + dx, y0, x3 - dx, y3, x3, y3
}

func strokeWidth(c *Box) float64 {
	switch c.Depth {
	case 1:
		return 3
	case 2:
		return 2
	}
	return 1.5
}

func radius(b *Box) float64 {
	if b.Depth == 0 {
		return b.H / 2
	}
	return 6
}

func xmlEscape(s string) string {
	var buf bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			buf.WriteString("&lt;")
		case '>':
			buf.WriteString("&gt;")
		case '&':
			buf.WriteString("&amp;")
		case '"':
			buf.WriteString("&quot;")
		case '\'':
			buf.WriteString("&apos;")
		default:
			// Drop characters XML 1.0 forbids.
			if r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000 {
				buf.WriteRune(r)
			}
		}
	}
	return buf.String()
}

// fontFamily lists CJK-capable families first so viewers pick the same
// metrics the layout used.
const fontFamily = `'Noto Sans CJK SC','Noto Sans SC','WenQuanYi Zen Hei','Microsoft YaHei','PingFang SC','Hiragino Sans GB',sans-serif`

// SVG renders the layout as a standalone SVG document.
func SVG(l *Layout, title string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s">`+"\n",
		l.Width, l.Height, l.Width, l.Height, xmlEscape(fontFamily))
	fmt.Fprintf(&b, "<title>%s</title>\n", xmlEscape(title))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#FFFFFF"/>`+"\n")
	b.WriteString(`<g fill="none" stroke-linecap="round">` + "\n")
	for _, p := range l.Boxes {
		for _, c := range p.Kids {
			x0, y0, x1, y1, x2, y2, x3, y3 := edge(p, c)
			_, stroke, _ := colours(c)
			fmt.Fprintf(&b, `<path d="M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f" stroke="%s" stroke-width="%.1f"/>`+"\n",
				x0, y0, x1, y1, x2, y2, x3, y3, hex(stroke), strokeWidth(c))
		}
	}
	b.WriteString("</g>\n")
	for _, n := range l.Boxes {
		fill, stroke, text := colours(n)
		r := radius(n)
		fmt.Fprintf(&b, `<g><rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" rx="%.1f" fill="%s" stroke="%s" stroke-width="1.5"/>`,
			n.X, n.Y, n.W, n.H, r, hex(fill), hex(stroke))
		px, py := padding(n.Depth)
		lh := lineHeight(n.Size)
		weight := "normal"
		if n.Depth <= 1 {
			weight = "bold"
		}
		fmt.Fprintf(&b, `<text font-size="%.0f" font-weight="%s" fill="%s">`, n.Size, weight, hex(text))
		for i, line := range n.Lines {
			// Baseline: top padding + line box, text vertically centred in it.
			y := n.Y + py + lh*float64(i) + lh/2 + n.Size*0.35
			fmt.Fprintf(&b, `<tspan x="%.1f" y="%.1f">%s</tspan>`, n.X+px, y, xmlEscape(line))
		}
		b.WriteString("</text></g>\n")
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}
