package imagegen

import (
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "image/jpeg"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	t.Helper()
	d := tooltest.Deps(t)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	return tl, d
}

// writePNG writes a w×h image filled by px into the workspace.
func writePNG(t *testing.T, d *tool.Deps, name string, w, h int, px func(x, y int) color.NRGBA) string {
	t.Helper()
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), name), tooltest.Paint(w, h, px))
	return name
}

// runImage runs args and decodes the image made (ReadImage): the result,
// the image and its format.
func runImage(t *testing.T, tl tool.Tool, args map[string]any) (*tool.Result, image.Image, string) {
	t.Helper()
	res := tooltest.OK(t, tl, args)
	img, format, _ := tooltest.ReadImage(t, res.Files[0].Path)
	return res, img, format
}

// zbar decodes the QR code in an image with zbarimg (zbar-tools).
func zbar(t *testing.T, path string) string {
	t.Helper()
	tooltest.NeedProgram(t, "zbarimg")
	out, err := exec.Command("zbarimg", "--quiet", "--raw", "-Sbinary", path).Output()
	if err != nil {
		t.Fatalf("zbarimg %s: %v", path, err)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// TestQR_DecodesWithZbar: every error-correction level, colours, sizes,
// Chinese text and a centre logo at level H read back exactly with zbarimg.
func TestQR_DecodesWithZbar(t *testing.T) {
	tl, d := newTool(t)
	logo := writePNG(t, d, "logo.png", 64, 64, func(x, y int) color.NRGBA { return color.NRGBA{220, uint8(x * 4), 30, 255} })
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"L", map[string]any{"text": "https://example.org/a?b=c", "level": "L", "size": 256}},
		{"M colours", map[string]any{"text": "WIFI:T:WPA;S:home;P:secret;;", "foreground": "#1e3a5f", "background": "#fff8e0"}},
		{"Q chinese", map[string]any{"text": "你好，二维码 QR", "level": "Q", "size": 300}},
		{"H logo", map[string]any{"text": "https://example.org/with-logo", "level": "H", "logo": logo, "size": 600}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["action"] = "qr"
			res := tooltest.OK(t, tl, tc.args)
			p := res.Files[0].Path
			img, format, _ := tooltest.ReadImage(t, p)
			want, ok := tc.args["size"].(int)
			if !ok {
				want = 512
			}
			if format != "png" || img.Bounds().Dx() != want {
				t.Errorf("format %s, size %v", format, img.Bounds())
			}
			if got := zbar(t, p); got != tc.args["text"] {
				t.Errorf("zbarimg read %q, want %q", got, tc.args["text"])
			}
		})
	}
}

// TestQR_BadInput: a logo at a low level, colours without contrast and a
// malformed colour are refused, and nothing is written.
func TestQR_BadInput(t *testing.T) {
	tl, d := newTool(t)
	logo := writePNG(t, d, "logo.png", 8, 8, func(int, int) color.NRGBA { return color.NRGBA{0, 0, 0, 255} })
	for _, args := range []map[string]any{
		{"text": "x", "logo": logo, "level": "M"},
		{"text": "x", "foreground": "#eeeeee", "background": "#ffffff"},
		{"text": "x", "foreground": "black"},
		{"text": strings.Repeat("x", 5000)},
	} {
		args["action"] = "qr"
		_, err := tooltest.Run(t, tl, args)
		tooltest.ToolError(t, err, tool.CodeInvalid)
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}

// TestCard_WrapsCJK: a long Chinese body wraps into several lines, each
// within the card's margins, and the card is drawn (text pixels present).
func TestCard_WrapsCJK(t *testing.T) {
	tooltest.CJKFont(t)
	tl, _ := newTool(t)
	body := strings.Repeat("春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。", 6)
	res := tooltest.OK(t, tl, map[string]any{"action": "card", "title": "静夜思 Poem", "subtitle": "唐诗", "text": body, "width": 800, "background": "#102030,#304050"})
	lines := res.Data.(map[string]any)["lines"].([]string)
	if len(lines) < 5 {
		t.Fatalf("lines %q: the body did not wrap", lines)
	}
	if strings.Join(lines[2:], "") != body {
		t.Errorf("wrapped body lost or changed characters: %q", lines[2:])
	}
	img, _, _ := tooltest.ReadImage(t, res.Files[0].Path)
	if img.Bounds().Dx() != 800 {
		t.Errorf("width %d", img.Bounds().Dx())
	}
	white := 0
	for y := range img.Bounds().Dy() {
		for x := range 800 {
			if r, g, b, _ := img.At(x, y).RGBA(); r>>8 > 200 && g>>8 > 200 && b>>8 > 200 {
				white++
				if x < 800/12-2 || x > 800-800/12+2 {
					t.Fatalf("text pixel at x=%d, outside the margins", x)
				}
			}
		}
	}
	if white < 1000 {
		t.Errorf("only %d text pixels", white)
	}
}

// TestTransform_ResizeCropRotateConvert: each operation gives the exact
// size and pixels expected, and convert writes the format asked for.
func TestTransform_ResizeCropRotateConvert(t *testing.T) {
	tl, d := newTool(t)
	// Left half red, right half blue, 200×100.
	src := writePNG(t, d, "src.png", 200, 100, func(x, y int) color.NRGBA {
		if x < 100 {
			return color.NRGBA{255, 0, 0, 255}
		}
		return color.NRGBA{0, 0, 255, 255}
	})
	run := func(args map[string]any) (image.Image, string) {
		t.Helper()
		args["action"], args["path"] = "transform", src
		_, img, format := runImage(t, tl, args)
		return img, format
	}
	if img, _ := run(map[string]any{"width": 50}); img.Bounds().Dx() != 50 || img.Bounds().Dy() != 25 {
		t.Errorf("resize: %v", img.Bounds())
	}
	img, _ := run(map[string]any{"crop": "120,10,40,30"})
	if img.Bounds().Dx() != 40 || img.Bounds().Dy() != 30 {
		t.Errorf("crop: %v", img.Bounds())
	}
	if _, _, b, _ := img.At(5, 5).RGBA(); b>>8 != 255 {
		t.Errorf("crop took the wrong part")
	}
	// 90° counter-clockwise: the red left half goes to the bottom.
	img, _ = run(map[string]any{"rotate": 90})
	if img.Bounds().Dx() != 100 || img.Bounds().Dy() != 200 {
		t.Errorf("rotate: %v", img.Bounds())
	}
	if r, _, _, _ := img.At(50, 190).RGBA(); r>>8 != 255 {
		t.Errorf("rotate 90: bottom is not red")
	}
	if _, format := run(map[string]any{"format": "jpeg"}); format != "jpeg" {
		t.Errorf("convert: %s", format)
	}
	if img, _ := run(map[string]any{"crop": "square", "width": 30}); img.Bounds().Dx() != 30 || img.Bounds().Dy() != 30 {
		t.Errorf("square crop + resize: %v", img.Bounds())
	}
	for _, bad := range []map[string]any{{"crop": "0,0,500,10"}, {"crop": "a,b"}, {}} {
		bad["action"], bad["path"] = "transform", src
		_, err := tooltest.Run(t, tl, bad)
		tooltest.ToolError(t, err, tool.CodeInvalid)
	}
}
