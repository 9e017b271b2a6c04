package cjkfont

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Measure returns the advance width of s in pixels.
func Measure(fc font.Face, s string) float64 {
	return float64(font.MeasureString(fc, s)) / 64
}

// Wrap breaks s into lines no wider than maxWidth pixels. Latin words stay
// whole where they fit; CJK text breaks between any two characters; a word
// longer than a line is cut.
func Wrap(fc font.Face, s string, maxWidth float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		lines = append(lines, wrapLine(fc, para, maxWidth)...)
	}
	return lines
}

func wrapLine(fc font.Face, s string, maxWidth float64) []string {
	toks := tokens(s)
	var lines []string
	cur, curW := "", 0.0
	// Widths are summed per token (kerning across tokens is ignored), so
	// wrapping stays linear in the length of the text.
	for _, t := range toks {
		if cur == "" && strings.TrimSpace(t) == "" {
			continue
		}
		tw := Measure(fc, t)
		if curW+tw <= maxWidth {
			cur += t
			curW += tw
			continue
		}
		if cur != "" {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur, curW = "", 0
			if strings.TrimSpace(t) == "" {
				continue
			}
		}
		// t alone is too wide: cut it rune by rune.
		if tw > maxWidth {
			var part []rune
			pw := 0.0
			for _, r := range t {
				rw := Measure(fc, string(r))
				if pw+rw > maxWidth && len(part) > 0 {
					lines = append(lines, string(part))
					part, pw = part[:0], 0
				}
				part = append(part, r)
				pw += rw
			}
			t, tw = string(part), pw
		}
		cur, curW = t, tw
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, strings.TrimRight(cur, " "))
	}
	return lines
}

// tokens splits text into breakable units: runs of Latin letters/digits,
// single spaces, and single CJK or punctuation characters.
func tokens(s string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			out = append(out, string(word))
			word = word[:0]
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			flush()
			out = append(out, " ")
		case r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '\'' || r == '.' || r == ','):
			word = append(word, r)
		default:
			flush()
			out = append(out, string(r))
		}
	}
	flush()
	return out
}

// DrawString draws s with its baseline at (x, y).
func DrawString(dst draw.Image, fc font.Face, c color.Color, x, y float64, s string) {
	d := &font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: fc,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// TextImage renders text (wrapped at maxWidth pixels when > 0) on a
// transparent background, for stamping text that PDF core fonts cannot show.
func TextImage(f *Font, s string, size float64, c color.Color, maxWidth float64) (*image.NRGBA, error) {
	fc, err := f.NewFace(size)
	if err != nil {
		return nil, err
	}
	defer fc.Close()
	lines := strings.Split(s, "\n")
	if maxWidth > 0 {
		lines = Wrap(fc, s, maxWidth)
	}
	m := fc.Metrics()
	lineH := float64(m.Height) / 64
	asc := float64(m.Ascent) / 64
	w := 1.0
	for _, l := range lines {
		if lw := Measure(fc, l); lw > w {
			w = lw
		}
	}
	pad := size / 4
	img := image.NewNRGBA(image.Rect(0, 0, int(w+2*pad)+1, int(lineH*float64(len(lines))+2*pad)+1))
	for i, l := range lines {
		DrawString(img, fc, c, pad, pad+asc+lineH*float64(i), l)
	}
	return img, nil
}
