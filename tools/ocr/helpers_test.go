package ocr

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// newTool builds the tool on fresh deps, with the programs it needs present
// (skipped, or failed under CLAWBRIDGE_REQUIRE_PROGRAMS=1, when not).
func newTool(t testing.TB, section string) (tool.Tool, *tool.Deps) {
	t.Helper()
	tooltest.NeedProgram(t, "tesseract")
	tooltest.NeedProgram(t, "bwrap")
	return tooltest.WithSection(t, New, "ocr", section)
}

// renderText draws lines of text black on white with the system CJK font
// at size px, adding salt-and-pepper noise on a fraction of the pixels.
func renderText(t testing.TB, f *cjkfont.Font, lines []string, size float64, noise float64, seed uint64) *image.Gray {
	t.Helper()
	fc, err := f.NewFace(size)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	w := 0.0
	for _, l := range lines {
		w = max(w, cjkfont.Measure(fc, l))
	}
	lineH := size * 1.6
	pad := size
	img := image.NewGray(image.Rect(0, 0, int(w+2*pad), int(lineH*float64(len(lines))+2*pad)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for i, l := range lines {
		cjkfont.DrawString(img, fc, color.Black, pad, pad+size+lineH*float64(i), l)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range img.Pix {
		if r.Float64() < noise {
			img.Pix[i] = uint8(r.IntN(2) * 255)
		}
	}
	return img
}

// cer is the character error rate of got against want: the edit distance
// over runes divided by want's length, whitespace removed from both (line
// breaks and the spacing tesseract puts around Chinese characters are not
// what is measured).
func cer(want, got string) float64 {
	strip := func(s string) []rune {
		return []rune(strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s))
	}
	a, b := strip(want), strip(got)
	if len(a) == 0 {
		return float64(len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(len(a))
}

func pageOf(t testing.TB, res *tool.Result, i int) Page {
	t.Helper()
	pages := res.Data.(map[string]any)["pages"].([]Page)
	if i >= len(pages) {
		t.Fatalf("%d pages, want page index %d", len(pages), i)
	}
	return pages[i]
}
