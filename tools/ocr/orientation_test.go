package ocr

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// decodeUpright decodes a testdata image as the tool does (turned
// upright) into 8-bit gray, and returns its orientation tag.
func decodeUpright(t *testing.T, name string) (*image.Gray, int) {
	t.Helper()
	raw := tooltest.ReadFile(t, filepath.Join("testdata", name))
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	img = upright(img, raw)
	g := image.NewGray(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return g, exifOrientation(raw)
}

// meanDiff is the mean absolute difference of two gray images of one size.
func meanDiff(a, b *image.Gray) float64 {
	sum := 0
	for i := range a.Pix {
		sum += abs(int(a.Pix[i]) - int(b.Pix[i]))
	}
	return float64(sum) / float64(len(a.Pix))
}

// TestOCR_EXIFOrientation: Pillow's pictures stored turned by each EXIF
// orientation (2-8), as G4 TIFF and as WebP, come out as the picture
// stored upright: within 0.7 levels on average for the TIFFs (Pillow's
// bound), 6 for the lossy WebPs, and far from what they are unturned.
func TestOCR_EXIFOrientation(t *testing.T) {
	base, o := decodeUpright(t, "pillow-g4_orientation_1.tif")
	if o != 1 {
		t.Fatalf("orientation_1.tif: tag %d", o)
	}
	webBase, _ := decodeUpright(t, "pillow-hopper.webp")
	for i := 2; i <= 8; i++ {
		for _, set := range []struct {
			name    string
			base    *image.Gray
			maxDiff float64
		}{
			{fmt.Sprintf("pillow-g4_orientation_%d.tif", i), base, 0.7}, // Pillow's own bound for these
			{fmt.Sprintf("pillow-hopper_orientation_%d.webp", i), webBase, 6},
		} {
			g, o := decodeUpright(t, set.name)
			raw, _ := os.ReadFile(filepath.Join("testdata", set.name))
			stored, _, _ := image.Decode(bytes.NewReader(raw))
			asStored := image.NewGray(image.Rect(0, 0, stored.Bounds().Dx(), stored.Bounds().Dy()))
			draw.Draw(asStored, asStored.Bounds(), stored, stored.Bounds().Min, draw.Src)
			if o != i || g.Bounds() != set.base.Bounds() {
				t.Errorf("%s: tag %d, %v, want %d, %v", set.name, o, g.Bounds(), i, set.base.Bounds())
				continue
			}
			d, d0 := meanDiff(g, set.base), -1.0
			if asStored.Bounds() == set.base.Bounds() {
				d0 = meanDiff(asStored, set.base)
			}
			if d > set.maxDiff || (d0 >= 0 && d*3 > d0) {
				t.Errorf("%s: %.2f levels from the upright picture (%.2f as stored)", set.name, d, d0)
			}
		}
	}
}

func FuzzEXIFOrientation(f *testing.F) {
	for _, file := range []string{"pillow-g4_orientation_6.tif", "pillow-hopper_orientation_6.webp", "tesseractjs-simple-90.jpg", "tesseractjs-chinese.png"} {
		raw, _ := os.ReadFile(filepath.Join("testdata", file))
		f.Add(raw[:min(len(raw), 1024)])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if o := exifOrientation(raw); o < 0 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
		_ = resolution(raw)
	})
}
