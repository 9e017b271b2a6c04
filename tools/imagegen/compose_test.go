package imagegen

import (
	"image"
	"image/color"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func solid(c color.NRGBA) func(int, int) color.NRGBA { return func(int, int) color.NRGBA { return c } }

var (
	red    = color.NRGBA{255, 0, 0, 255}
	green  = color.NRGBA{0, 255, 0, 255}
	blue   = color.NRGBA{0, 0, 255, 255}
	yellow = color.NRGBA{255, 255, 0, 255}
)

func rgbOf(c color.NRGBA) [3]int { return [3]int{int(c.R), int(c.G), int(c.B)} }

// TestPlaceholder_SizeColoursLabel: the image has the asked size, the
// background at the edges, and label pixels in the centre; a Chinese label
// works; the default label is the size.
func TestPlaceholder_SizeColoursLabel(t *testing.T) {
	tooltest.CJKFont(t)
	tl, _ := newTool(t)
	for _, tc := range []struct {
		args  map[string]any
		label string
	}{
		{map[string]any{"width": 320, "height": 200, "background": "#336699", "color": "#ffffff"}, "320×200"},
		{map[string]any{"width": 500, "height": 120, "background": "#336699", "color": "#ffffff", "label": "商品图 待上传"}, "商品图 待上传"},
	} {
		tc.args["action"] = "placeholder"
		res := tooltest.OK(t, tl, tc.args)
		if got := res.Data.(map[string]any)["label"]; got != tc.label {
			t.Errorf("label %q, want %q", got, tc.label)
		}
		img, _, _ := tooltest.ReadImage(t, res.Files[0].Path)
		w, h := tc.args["width"].(int), tc.args["height"].(int)
		if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
			t.Fatalf("size %v, want %d×%d", img.Bounds(), w, h)
		}
		bg := [3]int{0x33, 0x66, 0x99}
		for _, p := range [][2]int{{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}, {w / 2, 2}} {
			if got := rgb8(img, p[0], p[1]); got != bg {
				t.Errorf("edge %v: %v, want the background", p, got)
			}
		}
		text := 0
		for y := h / 3; y < 2*h/3; y++ {
			for x := range w {
				if px := rgb8(img, x, y); px[0] > 200 && px[2] > 200 {
					text++
				}
			}
		}
		if text < 50 {
			t.Errorf("%s: only %d label pixels in the middle band", tc.label, text)
		}
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "placeholder", "width": 16384, "height": 16384})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}

// TestCollage_GridSizesAndCells: the canvas is cols×cells plus gaps; each
// cell holds its image in row order; gaps and empty cells are the
// background; fill crops around the centre, fit keeps the whole image.
func TestCollage_GridSizesAndCells(t *testing.T) {
	tl, d := newTool(t)
	// 300×100: blue, red, green thirds — filling a square cell keeps red only.
	striped := writePNG(t, d, "striped.png", 300, 100, func(x, _ int) color.NRGBA { return []color.NRGBA{blue, red, green}[x/100] })
	wide := writePNG(t, d, "wide.png", 200, 100, solid(red))
	g := writePNG(t, d, "g.png", 50, 80, solid(green))
	b := writePNG(t, d, "b.png", 120, 120, solid(blue))
	y := writePNG(t, d, "y.png", 90, 90, solid(yellow))
	white := [3]int{255, 255, 255}
	run := func(args map[string]any) (map[string]any, image.Image) {
		t.Helper()
		args["action"], args["overwrite"] = "collage", true
		res, img, _ := runImage(t, tl, args)
		return res.Data.(map[string]any), img
	}

	// 2×2, cells 100×100, gap 10: 230×230; cell centres at 60 and 170.
	data, dimg := run(map[string]any{"paths": []any{striped, g, b, y}, "cell_width": 100, "gap": 10})
	if data["rows"] != 2 || data["cols"] != 2 || data["width"] != 230 || data["height"] != 230 {
		t.Errorf("grid %v×%v, %v×%v; want 2×2, 230×230", data["rows"], data["cols"], data["width"], data["height"])
	}
	cells := map[[2]int][3]int{{60, 60}: rgbOf(red), {15, 60}: rgbOf(red), {105, 60}: rgbOf(red), {170, 60}: rgbOf(green), {60, 170}: rgbOf(blue), {170, 170}: rgbOf(yellow),
		{5, 5}: white, {115, 60}: white, {60, 115}: white, {225, 225}: white}
	for p, want := range cells {
		if got := rgb8(dimg, p[0], p[1]); !near(got, want, 3) {
			t.Errorf("fill (%d,%d): %v, want %v", p[0], p[1], got, want)
		}
	}

	// fit, 3 images in 2 columns on grey, cells 100×60, gap 4: a 200×100
	// image fits as 100×50 centred (5 px of background above and below),
	// the fourth cell is empty. Canvas 2·100+3·4 × 2·60+3·4 = 212×132.
	data, dimg = run(map[string]any{"paths": []any{wide, g, b}, "cols": 2, "cell_width": 100, "cell_height": 60, "gap": 4, "background": "#808080", "mode": "fit"})
	if data["rows"] != 2 || data["width"] != 212 || data["height"] != 132 {
		t.Errorf("fit grid: rows %v, %v×%v", data["rows"], data["width"], data["height"])
	}
	grey := [3]int{128, 128, 128}
	for p, want := range map[[2]int][3]int{
		{54, 34}: rgbOf(red), {54, 6}: grey, {54, 62}: grey, {54, 12}: rgbOf(red),
		// 50×80 green fits as 38×60 (scale 0.75), centred at x 104+50 = 154.
		{158, 34}: rgbOf(green), {110, 34}: grey,
		{54, 98}: rgbOf(blue), {158, 98}: grey,
	} {
		if got := rgb8(dimg, p[0], p[1]); !near(got, want, 3) {
			t.Errorf("fit (%d,%d): %v, want %v", p[0], p[1], got, want)
		}
	}

	for _, bad := range []map[string]any{
		{"paths": []any{wide, g, b}, "rows": 1, "cols": 2},
		{"paths": []any{wide, "missing.png"}},
		{"paths": []any{wide}, "background": "grey"},
	} {
		bad["action"] = "collage"
		_, err := tooltest.Run(t, tl, bad)
		if _, ok := tool.AsError(err); !ok {
			t.Errorf("%v: want a tool error, got %v", bad, err)
		}
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "collage", "paths": []any{wide}, "cell_width": 4096, "cell_height": 4096, "cols": 1, "rows": 3})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}

// TestCard_ImageLayer: a banner image spans the content width above the
// title, with the text below it; a tall banner is cropped to three
// quarters of the width; a background image covers the card under the
// veil of the background colour; image_mode without an image is refused.
func TestCard_ImageLayer(t *testing.T) {
	tooltest.CJKFont(t)
	tl, d := newTool(t)
	wide := writePNG(t, d, "wide.png", 200, 100, solid(red))
	tall := writePNG(t, d, "tall.png", 100, 400, solid(blue))
	sq := writePNG(t, d, "sq.png", 100, 100, solid(green))
	bg := [3]int{0x10, 0x20, 0x30}
	run := func(args map[string]any) image.Image {
		t.Helper()
		args["action"], args["title"], args["width"], args["overwrite"] = "card", "新品发布 Launch", 600, true
		if _, ok := args["background"]; !ok {
			args["background"] = "#102030"
		}
		_, img, _ := runImage(t, tl, args)
		return img
	}
	// Width 600: margin 50, banner 500×250 at (50,50); text from y 325.
	img := run(map[string]any{"image": wide})
	for p, want := range map[[2]int][3]int{{300, 175}: rgbOf(red), {52, 52}: rgbOf(red), {547, 297}: rgbOf(red), {300, 25}: bg, {25, 175}: bg, {575, 175}: bg, {300, 310}: bg} {
		if got := rgb8(img, p[0], p[1]); !near(got, want, 2) {
			t.Errorf("banner (%d,%d): %v, want %v", p[0], p[1], got, want)
		}
	}
	text := 0
	for y := range img.Bounds().Dy() {
		for x := range 600 {
			if px := rgb8(img, x, y); px[0] > 200 && px[1] > 200 && px[2] > 200 {
				if y < 325 {
					t.Fatalf("text pixel at (%d,%d), over the banner", x, y)
				}
				text++
			}
		}
	}
	if text < 200 || img.Bounds().Dy() < 360 {
		t.Errorf("%d text pixels, height %d: the title is not under the banner", text, img.Bounds().Dy())
	}

	img = run(map[string]any{"image": tall})
	if got := rgb8(img, 300, 495); !near(got, rgbOf(blue), 2) {
		t.Errorf("tall banner bottom (300,495): %v", got)
	}
	if got := rgb8(img, 300, 505); got != bg {
		t.Errorf("under a tall banner (300,505): %v, want the background: not cropped to 450", got)
	}

	img = run(map[string]any{"image": sq, "image_mode": "background", "background": "#000000", "veil": 0.5})
	b := img.Bounds()
	for _, p := range [][2]int{{2, 2}, {597, 2}, {2, b.Dy() - 3}, {597, b.Dy() - 3}} {
		if got := rgb8(img, p[0], p[1]); !near(got, [3]int{0, 128, 0}, 2) {
			t.Errorf("background (%d,%d): %v, want green under a half black veil", p[0], p[1], got)
		}
	}

	_, err := tooltest.Run(t, tl, map[string]any{"action": "card", "title": "x", "image_mode": "background"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}
