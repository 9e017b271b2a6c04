package imagegen

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func gray(int, int) color.NRGBA { return color.NRGBA{100, 100, 100, 255} }

// rgb8 is a pixel's 8-bit channels.
func rgb8(img image.Image, x, y int) [3]int {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
}

func near(got [3]int, want [3]int, tol int) bool {
	for i := range 3 {
		if d := got[i] - want[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

// TestWatermark_ImagePositionsAndOpacity: a red logo at half opacity over
// grey blends to the expected colour at the mark for every corner, the
// centre and tiled, and leaves pixels away from it exactly unchanged.
func TestWatermark_ImagePositionsAndOpacity(t *testing.T) {
	tl, d := newTool(t)
	src := writePNG(t, d, "photo.png", 400, 300, gray)
	logo := writePNG(t, d, "logo.png", 40, 40, func(int, int) color.NRGBA { return color.NRGBA{255, 0, 0, 255} })
	half := [3]int{178, 50, 50} // 0.5·red + 0.5·grey
	bg := [3]int{100, 100, 100}
	for _, tc := range []struct {
		pos       string
		mark, off []image.Point
	}{
		{"top-left", []image.Point{{30, 30}}, []image.Point{{5, 5}, {200, 150}, {370, 270}}},
		{"top-right", []image.Point{{370, 30}}, []image.Point{{30, 30}, {395, 5}}},
		{"bottom-left", []image.Point{{30, 270}}, []image.Point{{30, 30}, {5, 295}}},
		{"bottom-right", []image.Point{{370, 270}}, []image.Point{{30, 30}, {395, 295}, {200, 150}}},
		{"center", []image.Point{{200, 150}}, []image.Point{{30, 30}, {370, 270}}},
		// Steps of 60 across and 80 down; odd rows shift left by 30.
		{"tile", []image.Point{{30, 30}, {90, 30}, {390, 30}, {0, 110}, {60, 110}}, []image.Point{{55, 30}, {30, 70}, {30, 110}}},
	} {
		t.Run(tc.pos, func(t *testing.T) {
			res, err := tooltest.Run(t, tl, map[string]any{"action": "watermark", "path": src, "image": logo, "position": tc.pos,
				"opacity": 0.5, "scale": 0.1, "margin": 10, "overwrite": true})
			if err != nil {
				t.Fatal(err)
			}
			img, format, _ := tooltest.ReadImage(t, res.Files[0].Path)
			if format != "png" || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
				t.Fatalf("output %s %v", format, img.Bounds())
			}
			for _, p := range tc.mark {
				if got := rgb8(img, p.X, p.Y); !near(got, half, 2) {
					t.Errorf("at the mark %v: %v, want about %v", p, got, half)
				}
			}
			for _, p := range tc.off {
				if got := rgb8(img, p.X, p.Y); got != bg {
					t.Errorf("away from the mark %v: %v, want %v", p, got, bg)
				}
			}
		})
	}
	if _, img, _ := runImage(t, tl, map[string]any{"action": "watermark", "path": src, "image": logo, "position": "center", "opacity": 1, "scale": 0.1, "overwrite": true}); rgb8(img, 200, 150) != [3]int{255, 0, 0} {
		t.Errorf("opacity 1: %v, want pure red", rgb8(img, 200, 150))
	}
}

// TestWatermark_ChineseText: white Chinese text at 0.5 opacity lands in the
// bottom-right corner, no brighter than the blend allows, and the rest of
// the image keeps its pixels; a JPEG input stays JPEG.
func TestWatermark_ChineseText(t *testing.T) {
	tooltest.CJKFont(t)
	tl, d := newTool(t)
	src := writePNG(t, d, "photo.png", 600, 400, gray)
	res, img, _ := runImage(t, tl, map[string]any{"action": "watermark", "path": src, "text": "版权所有 CB", "font_size": 40, "margin": 10})
	data := res.Data.(map[string]any)
	mw, mh := data["mark_width"].(int), data["mark_height"].(int)
	x0, y0 := 600-10-mw, 400-10-mh
	brightest, changedOutside := 0, 0
	for y := range 400 {
		for x := range 600 {
			px := rgb8(img, x, y)
			inMark := x >= x0 && y >= y0 && x < 590 && y < 390
			if !inMark && px != [3]int{100, 100, 100} {
				changedOutside++
			}
			if inMark && px[0] > brightest {
				brightest = px[0]
			}
		}
	}
	if changedOutside != 0 {
		t.Errorf("%d pixels changed outside the mark's box", changedOutside)
	}
	if brightest < 170 || brightest > 180 {
		t.Errorf("brightest text pixel %d, want about 178 (white at half opacity over 100)", brightest)
	}
	if mw < 150 || mh < 40 {
		t.Errorf("mark %d×%d is too small for 6 characters at 40 px", mw, mh)
	}
}

// TestWatermark_BadInput: text and image together, neither, a missing mark
// image and a glyph the font lacks are refused, and nothing is written.
func TestWatermark_BadInput(t *testing.T) {
	tooltest.CJKFont(t)
	tl, d := newTool(t)
	src := writePNG(t, d, "photo.png", 100, 100, gray)
	for _, args := range []map[string]any{
		{"text": "x", "image": src},
		{},
		{"image": "nope.png"},
		{"text": "\U0001F9FF\U000E0001"},
	} {
		args["action"], args["path"] = "watermark", src
		_, err := tooltest.Run(t, tl, args)
		if te, ok := tool.AsError(err); !ok || te.Code == "" {
			t.Errorf("%v: want a tool error, got %v", args, err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}
