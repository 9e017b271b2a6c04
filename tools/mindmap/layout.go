package mindmap

import (
	"math"
	"unicode/utf8"

	"golang.org/x/image/font"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
)

// Box is a laid-out node: its wrapped label lines and its rectangle in
// pixels (top-left origin).
type Box struct {
	Node   *Node
	Depth  int
	Branch int // index of the first-level ancestor, for colours; -1 for the root
	Side   int // +1 right of the root, -1 left
	Lines  []string
	Size   float64 // font size in px
	X, Y   float64
	W, H   float64
	Kids   []*Box
	off    float64 // origin of this subtree's frame in the parent's frame
}

// Layout is a positioned map.
type Layout struct {
	Root          *Box
	Width, Height float64
	Boxes         []*Box // all boxes, parents before children
}

// Options drive the layout.
type Options struct {
	Mode       string  // "right", "both" or "auto"
	LabelWidth float64 // max label width in px before wrapping
}

// measurer measures text at a size: a real font face when one is
// available, else an estimate (CJK ~1em, Latin ~0.55em).
type measurer struct {
	font  *cjkfont.Font
	faces map[float64]font.Face
}

func (m *measurer) width(s string, size float64) float64 {
	if fc := m.face(size); fc != nil {
		return cjkfont.Measure(fc, s)
	}
	w := 0.0
	for _, r := range s {
		if r >= 0x2E80 || utf8.RuneLen(r) >= 3 {
			w += size
		} else {
			w += size * 0.56
		}
	}
	return w
}

func (m *measurer) face(size float64) font.Face {
	if m.font == nil {
		return nil
	}
	if fc, ok := m.faces[size]; ok {
		return fc
	}
	fc, err := m.font.NewFace(size)
	if err != nil {
		return nil
	}
	m.faces[size] = fc
	return fc
}

func (m *measurer) wrap(s string, size, maxW float64) []string {
	if fc := m.face(size); fc != nil {
		return cjkfont.Wrap(fc, s, maxW)
	}
	// Estimate-based wrap by runes.
	var lines []string
	var cur []rune
	w := 0.0
	for _, r := range s {
		rw := m.width(string(r), size)
		if w+rw > maxW && len(cur) > 0 {
			lines = append(lines, string(cur))
			cur, w = cur[:0], 0
		}
		cur = append(cur, r)
		w += rw
	}
	return append(lines, string(cur))
}

func (m *measurer) close() {
	for _, fc := range m.faces {
		fc.Close()
	}
}

// Style constants (px).
const (
	hGap   = 56.0
	vGap   = 10.0
	margin = 30.0
)

func fontSize(depth int) float64 {
	switch depth {
	case 0:
		return 22
	case 1:
		return 17
	}
	return 14
}

func padding(depth int) (x, y float64) {
	switch depth {
	case 0:
		return 20, 12
	case 1:
		return 14, 8
	}
	return 10, 6
}

func lineHeight(size float64) float64 { return math.Round(size * 1.4) }

// Compute lays the tree out as a tidy tree: columns by depth, each subtree
// packed against its previous sibling along per-depth contours (the
// Reingold–Tilford idea for layered trees), parents centred on their
// children. With Mode "both" the first-level branches are split between
// the right and left of the root so that both halves weigh the same.
func Compute(root *Node, opt Options, f *cjkfont.Font) *Layout {
	m := &measurer{font: f, faces: map[float64]font.Face{}}
	defer m.close()
	if opt.LabelWidth <= 0 {
		opt.LabelWidth = 200
	}
	rb := m.box(root, 0, -1, opt.LabelWidth)

	mode := opt.Mode
	if mode == "" || mode == "auto" {
		mode = "right"
		if len(rb.Kids) >= 4 {
			mode = "both"
		}
	}
	right, left := rb.Kids, []*Box(nil)
	if mode == "both" && len(rb.Kids) > 1 {
		right, left = splitBalanced(rb.Kids)
	}
	setSide(right, 1)
	setSide(left, -1)
	placeVertically(rb, right, left)
	placeHorizontally(rb)
	return normalise(rb)
}

// box measures the subtree of n as boxes, the label wrapped at labelWidth
// (wider for the root); branch is the first-level branch it belongs to.
func (m *measurer) box(n *Node, depth, branch int, labelWidth float64) *Box {
	b := &Box{Node: n, Depth: depth, Branch: branch, Size: fontSize(depth)}
	maxW := labelWidth
	if depth == 0 {
		maxW *= 1.4
	}
	b.Lines = m.wrap(n.Label, b.Size, maxW)
	tw := 0.0
	for _, l := range b.Lines {
		tw = math.Max(tw, m.width(l, b.Size))
	}
	px, py := padding(depth)
	b.W = math.Ceil(tw + 2*px)
	b.H = math.Ceil(lineHeight(b.Size)*float64(len(b.Lines)) + 2*py)
	for i, ch := range n.Children {
		br := branch
		if depth == 0 {
			br = i
		}
		b.Kids = append(b.Kids, m.box(ch, depth+1, br, labelWidth))
	}
	return b
}

// eachBox calls fn on b and its descendants, parents first.
func eachBox(b *Box, fn func(*Box)) {
	fn(b)
	for _, k := range b.Kids {
		eachBox(k, fn)
	}
}

// placeVertically places each side as a forest, centred on the root, and
// turns the offsets into absolute Y positions.
func placeVertically(rb *Box, right, left []*Box) {
	rTop, rBot := placeForest(right)
	lTop, lBot := placeForest(left)
	rootMid := rb.H / 2
	rb.Y = 0
	shift := func(kids []*Box, top, bot float64) {
		if len(kids) == 0 {
			return
		}
		mid := (top + bot) / 2
		for _, k := range kids {
			k.off += rootMid - mid
		}
	}
	shift(right, rTop, rBot)
	shift(left, lTop, lBot)
	var absolute func(b *Box, origin float64)
	absolute = func(b *Box, origin float64) {
		o := origin + b.off
		b.Y += o
		for _, k := range b.Kids {
			absolute(k, o)
		}
	}
	for _, k := range rb.Kids {
		absolute(k, 0)
	}
}

// placeHorizontally puts each depth of each side in one column as wide as
// its widest box, the right side left-aligned, the left side right-aligned.
func placeHorizontally(rb *Box) {
	colW := map[int]float64{}
	for _, k := range rb.Kids {
		eachBox(k, func(b *Box) {
			key := b.Depth * b.Side
			colW[key] = math.Max(colW[key], b.W)
		})
	}
	rb.X = 0
	for _, k := range rb.Kids {
		eachBox(k, func(b *Box) {
			if b.Side > 0 {
				x := rb.W + hGap
				for d := 1; d < b.Depth; d++ {
					x += colW[d] + hGap
				}
				b.X = x
			} else {
				x := -hGap
				for d := 1; d < b.Depth; d++ {
					x -= colW[-d] + hGap
				}
				b.X = x - b.W
			}
		})
	}
}

// normalise moves the boxes onto a positive canvas with a margin.
func normalise(rb *Box) *Layout {
	l := &Layout{Root: rb}
	eachBox(rb, func(b *Box) { l.Boxes = append(l.Boxes, b) })
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, b := range l.Boxes {
		minX, minY = math.Min(minX, b.X), math.Min(minY, b.Y)
		maxX, maxY = math.Max(maxX, b.X+b.W), math.Max(maxY, b.Y+b.H)
	}
	for _, b := range l.Boxes {
		b.X = math.Round(b.X - minX + margin)
		b.Y = math.Round(b.Y - minY + margin)
	}
	l.Width = math.Ceil(maxX - minX + 2*margin)
	l.Height = math.Ceil(maxY - minY + 2*margin)
	return l
}

func setSide(kids []*Box, side int) {
	for _, k := range kids {
		k.Side = side
		setSide(k.Kids, side)
	}
}

// splitBalanced keeps the order of branches: the first ones go right
// (read top to bottom), the rest left, cut where the weights balance.
func splitBalanced(kids []*Box) (right, left []*Box) {
	weights := make([]float64, len(kids))
	total := 0.0
	for i, k := range kids {
		weights[i] = subtreeWeight(k)
		total += weights[i]
	}
	acc, cut := 0.0, 1
	best := math.Inf(1)
	for i := 0; i < len(kids)-1; i++ {
		acc += weights[i]
		if d := math.Abs(total - 2*acc); d < best {
			best, cut = d, i+1
		}
	}
	return kids[:cut], kids[cut:]
}

func subtreeWeight(b *Box) float64 {
	if len(b.Kids) == 0 {
		return b.H + vGap
	}
	w := 0.0
	for _, k := range b.Kids {
		w += subtreeWeight(k)
	}
	return math.Max(w, b.H+vGap)
}

// span is the vertical extent of a subtree at one depth.
type span struct{ top, bot float64 }

// placeSubtree lays out b's subtree in b's own frame and returns its
// contour: index 0 is b itself, index k the extent of its descendants k
// levels down.
func placeSubtree(b *Box) []span {
	if len(b.Kids) == 0 {
		b.Y = 0
		return []span{{0, b.H}}
	}
	acc := packForest(b.Kids)
	first, last := b.Kids[0], b.Kids[len(b.Kids)-1]
	mid := (first.off + first.Y + first.H/2 + last.off + last.Y + last.H/2) / 2
	b.Y = mid - b.H/2
	return append([]span{{b.Y, b.Y + b.H}}, acc...)
}

// packForest places sibling subtrees top to bottom, each as close to the
// previous ones as their contours allow, and returns the merged contour.
func packForest(kids []*Box) []span {
	var acc []span
	for i, k := range kids {
		c := placeSubtree(k)
		off := 0.0
		if i > 0 {
			off = math.Inf(-1)
			for d := 0; d < len(c) && d < len(acc); d++ {
				gap := vGap
				if d > 0 {
					gap = vGap * 0.8
				}
				off = math.Max(off, acc[d].bot+gap-c[d].top)
			}
			if math.IsInf(off, -1) {
				off = acc[0].bot + vGap - c[0].top
			}
		}
		k.off = off
		for d, s := range c {
			s.top += off
			s.bot += off
			if d < len(acc) {
				acc[d].top = math.Min(acc[d].top, s.top)
				acc[d].bot = math.Max(acc[d].bot, s.bot)
			} else {
				acc = append(acc, s)
			}
		}
	}
	return acc
}

// placeForest packs a side's branches and returns its vertical extent.
func placeForest(kids []*Box) (top, bot float64) {
	if len(kids) == 0 {
		return 0, 0
	}
	acc := packForest(kids)
	top, bot = math.Inf(1), math.Inf(-1)
	for _, s := range acc {
		top, bot = math.Min(top, s.top), math.Max(bot, s.bot)
	}
	// Centre on the first-level boxes rather than the whole extent, so the
	// root sits in the middle of its branches.
	f, l := kids[0], kids[len(kids)-1]
	return f.off + f.Y, l.off + l.Y + l.H
}
