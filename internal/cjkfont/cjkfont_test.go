package cjkfont_test

import (
	"image/color"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// open returns the system CJK font or skips (tooltest.CJKFont's policy).
func open(t *testing.T) *cjkfont.Font { t.Helper(); return tooltest.CJKFont(t) }

func TestOpenAndDraw(t *testing.T) {
	f := open(t)
	fc, err := f.NewFace(20)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	if _, adv, ok := fc.GlyphBounds('中'); !ok || adv == 0 {
		t.Fatalf("font %s has no glyph for 中", f.Path)
	}
	img, err := cjkfont.TextImage(f, "机密 Secret", 40, color.Black, 0)
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a > 0x8000 {
				dark++
			}
		}
	}
	if dark < 200 || b.Dx() < 100 {
		t.Fatalf("text image %v with %d inked pixels", b, dark)
	}
	if _, err := cjkfont.Open("/nonexistent/font.ttf"); err == nil {
		t.Fatal("missing override accepted")
	}
}

func TestWrap(t *testing.T) {
	f := open(t)
	fc, _ := f.NewFace(14)
	defer fc.Close()
	for _, s := range []string{
		"a rather long English label that must wrap onto several lines",
		"这是一个很长的中文标签，需要在任意两个汉字之间换行才能放得下",
		"Supercalifragilisticexpialidocious-antidisestablishmentarianism",
		"混合 mixed 文本 with words",
	} {
		lines := cjkfont.Wrap(fc, s, 120)
		if len(lines) < 2 {
			t.Fatalf("%q not wrapped: %q", s, lines)
		}
		for _, l := range lines {
			if cjkfont.Measure(fc, l) > 120 {
				t.Fatalf("line %q is %v px wide", l, cjkfont.Measure(fc, l))
			}
		}
		joined := strings.ReplaceAll(strings.Join(lines, ""), " ", "")
		if joined != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("text lost: %q vs %q", joined, s)
		}
	}
}

func TestMissingAndWidth(t *testing.T) {
	f := open(t)
	if f.Name == "" {
		t.Errorf("font %s has no family name", f.Path)
	}
	if miss := f.Missing("中文 Latin\t123"); len(miss) != 0 {
		t.Fatalf("font %s lacks %q", f.Path, string(miss))
	}
	if miss := f.Missing("a\U000F0000b"); string(miss) != "\U000F0000" {
		t.Fatalf("private-use rune not reported missing: %q", string(miss))
	}
	w1, w2 := f.Width("中", 20), f.Width("中中", 20)
	if w1 <= 0 || w2 <= w1 || f.Width("中", 40) <= w1 {
		t.Fatalf("widths: %v %v %v", w1, w2, f.Width("中", 40))
	}
}
