package idphoto

import (
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// refused runs create on img and wants a tool error of code whose message
// holds want, with nothing written to outputs/.
func refused(t *testing.T, tl tool.Tool, d *tool.Deps, img image.Image, code, want string) {
	t.Helper()
	in := put(t, d, "in.png", img)
	_, err := tooltest.Run(t, tl, map[string]any{"action": "create", "path": in})
	te := tooltest.ToolError(t, err, code)
	if !strings.Contains(te.Message, want) || te.Hint == "" {
		t.Fatalf("error %q (hint %q), want one saying %q with a hint", te.Message, te.Hint, want)
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Fatalf("a refused call wrote %d files", len(ents))
	}
}

// TestIDPhoto_NoFace: a synthetic gradient with shapes has no face.
func TestIDPhoto_NoFace(t *testing.T) {
	tl, d := newTool(t)
	img := image.NewNRGBA(image.Rect(0, 0, 400, 500))
	for y := range 500 {
		for x := range 400 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / 400), uint8(y * 255 / 500), 120, 255})
		}
	}
	draw.Draw(img, image.Rect(100, 100, 300, 300), &image.Uniform{color.NRGBA{230, 200, 180, 255}}, image.Point{}, draw.Src)
	refused(t, tl, d, img, tool.CodeInvalid, "no face")
}

// TestIDPhoto_TwoFaces: the real portrait twice side by side.
func TestIDPhoto_TwoFaces(t *testing.T) {
	tl, d := newTool(t)
	one := loadFixture(t)
	two := image.NewNRGBA(image.Rect(0, 0, 1024, 512))
	draw.Draw(two, image.Rect(0, 0, 512, 512), one, image.Point{}, draw.Src)
	draw.Draw(two, image.Rect(512, 0, 1024, 512), one, image.Point{}, draw.Src)
	refused(t, tl, d, two, tool.CodeInvalid, "2 faces")
}

// TestIDPhoto_FaceTooSmall: the portrait scaled down until its face is
// under min_face_pixels.
func TestIDPhoto_FaceTooSmall(t *testing.T) {
	tl, d := newTool(t)
	refused(t, tl, d, imaging.Resize(loadFixture(t), 300, 300, imaging.Lanczos), tool.CodeInvalid, "below the 80 pixels")
}

// TestIDPhoto_FaceCutOff: the portrait cropped through the top of the head,
// and cropped just under the chin.
func TestIDPhoto_FaceCutOff(t *testing.T) {
	tl, d := newTool(t)
	src := loadFixture(t)
	refused(t, tl, d, imaging.Crop(src, image.Rect(0, 45, 512, 512)), tool.CodeInvalid, "top of the head is cut off")
	refused(t, tl, d, imaging.Crop(src, image.Rect(0, 0, 512, 200)), tool.CodeInvalid, "cut off")
}

// TestIDPhoto_TooLarge: the pixel cap refuses before decoding or running
// anything.
func TestIDPhoto_TooLarge(t *testing.T) {
	needOpenCV(t)
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "id_photo", "max_pixels: 100000")
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, tl, d, loadFixture(t), tool.CodeTooLarge, "pixel limit")
}

// TestIDPhoto_BadConfig: limits below their floor are refused.
func TestIDPhoto_BadConfig(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "id_photo", "min_face_pixels: 3")
	if _, err := New(d); err == nil || !strings.Contains(err.Error(), "min_face_pixels must be at least 24") {
		t.Fatalf("New with min_face_pixels 3: %v", err)
	}
}

// TestIDPhoto_Sheet lays out a 2-inch photo on 4×6 in paper: sheet size and
// dpi, every copy pixel-identical to the photo, cut guides in the gaps, and
// a copies count above what fits refused.
func TestIDPhoto_Sheet(t *testing.T) {
	tl, d := newTool(t)
	photo := image.NewNRGBA(image.Rect(0, 0, 413, 579))
	for y := range 579 {
		for x := range 413 {
			photo.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	in := put(t, d, "photo.png", photo)
	res := tooltest.OK(t, tl, map[string]any{"action": "sheet", "path": in, "format": "png"})
	img, _, raw := tooltest.ReadImage(t, res.Files[0].Path)
	if b := img.Bounds(); b.Dx() != 1800 || b.Dy() != 1200 {
		t.Fatalf("sheet %v, want 1800×1200", b)
	}
	if got := readDPI(raw); got < 299.99 || got > 300.01 {
		t.Fatalf("dpi %v", got)
	}
	data := res.Data.(map[string]any)
	cells := data["cells"].([]map[string]int)
	if len(cells) != 8 || data["copies"] != 8 { // 4 × 2 of 413×579 on 1800×1200
		t.Fatalf("copies %v, cells %d, want 8", data["copies"], len(cells))
	}
	for i, c := range cells {
		for _, pt := range [][2]int{{0, 0}, {412, 578}, {200, 300}} {
			got := img.At(c["x"]+pt[0], c["y"]+pt[1])
			if !near(got, photo.NRGBAAt(pt[0], pt[1]), 0) {
				t.Fatalf("copy %d pixel %v is %v, want %v", i, pt, got, photo.NRGBAAt(pt[0], pt[1]))
			}
		}
		// The guide lines just outside each copy, in the gap.
		if !near(img.At(c["x"]-1, c["y"]+10), guideColour, 0) || !near(img.At(c["x"]+c["width"], c["y"]+10), guideColour, 0) ||
			!near(img.At(c["x"]+10, c["y"]-1), guideColour, 0) || !near(img.At(c["x"]+10, c["y"]+c["height"]), guideColour, 0) {
			t.Fatalf("copy %d has no cut guides around it", i)
		}
	}
	for i := range cells {
		for j := range i {
			if image.Rect(cells[i]["x"], cells[i]["y"], cells[i]["x"]+413, cells[i]["y"]+579).Overlaps(image.Rect(cells[j]["x"], cells[j]["y"], cells[j]["x"]+413, cells[j]["y"]+579)) {
				t.Fatalf("copies %d and %d overlap", i, j)
			}
		}
	}
	// Margins stay inside the paper.
	if !near(img.At(5, 600), guideColour, 0) && !near(img.At(5, 600), color.NRGBA{255, 255, 255, 255}, 0) {
		t.Fatalf("margin pixel %v", img.At(5, 600))
	}
	res, err := tooltest.Run(t, tl, map[string]any{"action": "sheet", "path": in, "copies": 3})
	if err != nil || res.Data.(map[string]any)["copies"] != 3 {
		t.Fatalf("copies 3: %v %v", res, err)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "sheet", "path": in, "copies": 9})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(te.Message, "only 8") {
		t.Fatalf("copies 9: %q", te.Message)
	}
}

// TestIDPhoto_SheetOneInch: 1-inch photos fill more of the sheet.
func TestIDPhoto_SheetOneInch(t *testing.T) {
	tl, d := newTool(t)
	in := put(t, d, "one.png", imaging.New(295, 413, color.NRGBA{10, 20, 30, 255}))
	res := tooltest.OK(t, tl, map[string]any{"action": "sheet", "path": in})
	// Landscape 5 × 2 = 10 ((1800-24+12)/307, (1200-24+12)/425); portrait 3 × 4 = 12.
	if c := res.Data.(map[string]any)["copies"]; c != 12 {
		t.Fatalf("copies %v, want 12", c)
	}
	img, _, _ := tooltest.ReadImage(t, res.Files[0].Path)
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1800 {
		t.Fatalf("sheet %v, want 1200×1800 (portrait holds more)", b)
	}
}
