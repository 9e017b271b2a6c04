package idphoto

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestIDPhoto_DPIWritten checks both encoders' resolution field, read back
// by this package and, for JPEG, by file(1); the colours survive.
func TestIDPhoto_DPIWritten(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	blue := backgrounds["blue"]
	draw.Draw(img, img.Bounds(), &image.Uniform{blue}, image.Point{}, draw.Src)
	for _, format := range []string{"png", "jpg"} {
		data, err := encode(img, format)
		if err != nil {
			t.Fatal(err)
		}
		if got := readDPI(data); got < 299.99 || got > 300.01 {
			t.Fatalf("%s: dpi %v", format, got)
		}
		back, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s does not decode: %v", format, err)
		}
		if b := back.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
			t.Fatalf("%s: size %v", format, b)
		}
		if c := back.At(10, 10); !near(c, blue, 4) {
			t.Fatalf("%s: pixel %T %v, want %v", format, c, color.NRGBAModel.Convert(c), blue)
		}
		p := filepath.Join(t.TempDir(), "x."+format)
		tooltest.WriteFile(t, p, data)
		if out, err := exec.Command("file", p).Output(); err == nil && format == "jpg" && !strings.Contains(string(out), "density 300x300") {
			t.Fatalf("file(1): %s", out)
		}
	}
}
