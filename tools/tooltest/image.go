package tooltest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// Paint is a w×h image whose pixel at (x, y) is px(x, y): the test images
// of the image tools.
func Paint(w, h int, px func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, px(x, y))
		}
	}
	return img
}

// WritePNG writes img as a PNG file at path (WriteFile) and fails the test
// on error.
func WritePNG(t testing.TB, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	WriteFile(t, path, b.Bytes())
}

// ReadImage reads the image file at path and decodes it (with the decoders
// the test binary registers); it returns the image, its format and the
// file's bytes, and fails the test when the file does not decode.
func ReadImage(t testing.TB, path string) (image.Image, string, []byte) {
	t.Helper()
	raw := ReadFile(t, path)
	img, format, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return img, format, raw
}
