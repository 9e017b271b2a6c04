package gifmaker

import (
	"image"
	"image/color"
	"slices"
)

// maxSamples bounds the pixels a palette is built from: more frames or
// bigger frames are sampled evenly, so the cost stays flat.
const maxSamples = 1 << 20

// medianCut builds a palette of at most n colours from the images' pixels:
// the colour box with the widest channel range is split at its median until
// there are n boxes, and each box gives its mean colour.
func medianCut(imgs []*image.NRGBA, n int) color.Palette {
	total := 0
	for _, m := range imgs {
		total += len(m.Pix) / 4
	}
	step := max(1, total/maxSamples)
	px := make([][3]uint8, 0, min(total, maxSamples+len(imgs)))
	for _, m := range imgs {
		for i := 0; i+3 < len(m.Pix); i += 4 * step {
			px = append(px, [3]uint8{m.Pix[i], m.Pix[i+1], m.Pix[i+2]})
		}
	}
	type box struct {
		px      [][3]uint8
		ch, rng int // the widest channel and its range, found once per box
	}
	mk := func(p [][3]uint8) box { ch, r := widest(p); return box{p, ch, r} }
	boxes := []box{mk(px)}
	for len(boxes) < n {
		best := -1
		for i, b := range boxes {
			if len(b.px) >= 2 && b.rng > 0 && (best < 0 || b.rng > boxes[best].rng) {
				best = i
			}
		}
		if best < 0 {
			break // every box is one colour
		}
		b := boxes[best]
		slices.SortFunc(b.px, func(x, y [3]uint8) int { return int(x[b.ch]) - int(y[b.ch]) })
		mid := len(b.px) / 2
		boxes[best] = mk(b.px[:mid])
		boxes = append(boxes, mk(b.px[mid:]))
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, bx := range boxes {
		b := bx.px
		if len(b) == 0 {
			continue
		}
		var s [3]int
		for _, p := range b {
			s[0], s[1], s[2] = s[0]+int(p[0]), s[1]+int(p[1]), s[2]+int(p[2])
		}
		k := len(b)
		pal = append(pal, color.RGBA{uint8((s[0] + k/2) / k), uint8((s[1] + k/2) / k), uint8((s[2] + k/2) / k), 255})
	}
	if len(pal) == 0 {
		pal = append(pal, color.RGBA{0, 0, 0, 255})
	}
	return pal
}

func widest(b [][3]uint8) (ch, rng int) {
	for c := range 3 {
		lo, hi := 255, 0
		for _, p := range b {
			lo, hi = min(lo, int(p[c])), max(hi, int(p[c]))
		}
		if hi-lo > rng {
			ch, rng = c, hi-lo
		}
	}
	return ch, rng
}

// mapper finds the nearest palette entry of a colour, caching by 15-bit
// colour so a frame costs one palette search per distinct colour, not per
// pixel.
type mapper struct {
	pal   color.Palette
	rgb   [][3]int32
	cache []int16
}

func newMapper(pal color.Palette) *mapper {
	m := &mapper{pal: pal, cache: make([]int16, 1<<15)}
	for i := range m.cache {
		m.cache[i] = -1
	}
	for _, c := range pal {
		r, g, b, _ := c.RGBA()
		m.rgb = append(m.rgb, [3]int32{int32(r >> 8), int32(g >> 8), int32(b >> 8)})
	}
	return m
}

func (m *mapper) index(r, g, b int32) uint8 {
	key := (r>>3)<<10 | (g>>3)<<5 | b>>3
	if i := m.cache[key]; i >= 0 {
		return uint8(i)
	}
	// Search with the cell's centre, so the cached answer suits the cell.
	cr, cg, cb := (r>>3)<<3|4, (g>>3)<<3|4, (b>>3)<<3|4
	best, bestD := 0, int32(1<<30)
	for i, p := range m.rgb {
		dr, dg, db := p[0]-cr, p[1]-cg, p[2]-cb
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	m.cache[key] = int16(best)
	return uint8(best)
}

// quantize maps src onto the palette, with Floyd–Steinberg error diffusion
// when dither is set.
func quantize(src *image.NRGBA, m *mapper, dither bool) *image.Paletted {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dst := image.NewPaletted(image.Rect(0, 0, w, h), m.pal)
	var cur, next [][3]int32
	if dither {
		cur, next = make([][3]int32, w+2), make([][3]int32, w+2)
	}
	for y := range h {
		row := src.Pix[y*src.Stride:]
		for x := range w {
			r, g, bl := int32(row[4*x]), int32(row[4*x+1]), int32(row[4*x+2])
			if dither {
				e := cur[x+1]
				r, g, bl = clamp(r+e[0]/16), clamp(g+e[1]/16), clamp(bl+e[2]/16)
			}
			i := m.index(r, g, bl)
			dst.Pix[y*dst.Stride+x] = i
			if dither {
				p := m.rgb[i]
				er := [3]int32{r - p[0], g - p[1], bl - p[2]}
				for c := range 3 {
					cur[x+2][c] += er[c] * 7
					next[x][c] += er[c] * 3
					next[x+1][c] += er[c] * 5
					next[x+2][c] += er[c]
				}
			}
		}
		if dither {
			cur, next = next, cur
			clear(next)
		}
	}
	return dst
}

func clamp(v int32) int32 { return min(255, max(0, v)) }
