package ocr

import (
	"image"
	"image/color"
	"image/draw"
	"slices"

	xdraw "golang.org/x/image/draw"
)

// prepare turns a decoded image into what tesseract reads. Transparent
// pixels are laid over the background that contrasts with the visible
// ones (drawn as they are stored they are black, and black text on them
// vanishes). With preprocessing, salt-and-pepper speckle is removed with a
// 3×3 median, in grayscale. Colour is kept otherwise: tesseract thresholds
// a colour image on its own, and a grayscale conversion first loses
// contrast it would use (tesseract.js's chinese.png, chi_tra: CER 0.17
// through Go's gray, 0 in colour, as the tesseract CLI reads it).
func prepare(img image.Image, preprocess bool) image.Image {
	flat := flatten(img)
	if !preprocess {
		return flat
	}
	b := flat.Bounds()
	gray := image.NewGray(b)
	draw.Draw(gray, b, flat, b.Min, draw.Src)
	if speckled(gray) {
		return median3(gray)
	}
	return flat
}

// flatten draws img, origin at 0,0, over an opaque background: white,
// unless what is visible is mostly light (white text on a transparent
// background), then black. An opaque image is only copied.
func flatten(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	opaque := true
	for i := 3; i < len(out.Pix) && opaque; i += 4 {
		opaque = out.Pix[i] == 255
	}
	if opaque {
		return out
	}
	var alpha, light float64 // summed over the pixels, light weighted by alpha
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4] // premultiplied
		alpha += float64(p[3])
		light += 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
	}
	bg := color.RGBA{255, 255, 255, 255}
	if alpha > 0 && light/alpha > 0.5 {
		bg = color.RGBA{0, 0, 0, 255}
	}
	flat := image.NewRGBA(out.Bounds())
	draw.Draw(flat, flat.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	draw.Draw(flat, flat.Bounds(), out, image.Point{}, draw.Over)
	return flat
}

// Text size: tesseract reads best with characters 20-40 px high; a
// screenshot or crop has them at 10-15 px, and there enlarging helps, but
// text that is already large reads worse enlarged (tesseract.js's
// chinese.png, 320×180 with 40 px characters, chi_tra: CER 0 as it is,
// 0.17 at 2×, 0.33 at 4×). The size cannot be told before reading (the
// boxes tesseract gives Chinese "words" often span a line), so an image
// under minHeight is read as it is and at upscaleBy, and the reading with
// more confidence summed over its words wins: enlarging must find more, or
// the same more surely (the bench in bench_test.go has the effect).
const (
	minHeight = 1000
	upscaleBy = 2
)

// upscaleFactor is the factor an image of bounds b is read at a second
// time, or 1 for none: upscaleBy under minHeight, within maxPixels.
func upscaleFactor(b image.Rectangle, maxPixels int) int {
	if b.Dy() >= minHeight || b.Dx()*upscaleBy*b.Dy()*upscaleBy > maxPixels {
		return 1
	}
	return upscaleBy
}

// confidenceMass is the confidence summed over the words of a reading.
func confidenceMass(ws []word) float64 {
	sum := 0.0
	for _, w := range ws {
		sum += w.conf
	}
	return sum
}

// upscale enlarges img by the whole factor f.
func upscale(img image.Image, f int) image.Image {
	b := img.Bounds()
	big := image.NewRGBA(image.Rect(0, 0, b.Dx()*f, b.Dy()*f))
	xdraw.CatmullRom.Scale(big, big.Bounds(), img, b, draw.Src, nil)
	return big
}

// speckled reports whether more than 0.5% of the pixels are isolated: far
// (over 128 levels) from each of their eight neighbours. Text strokes are
// never one pixel alone; scanner and transmission speckle is, and an upscale
// turns it into blobs tesseract reads as characters.
func speckled(g *image.Gray) bool {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w < 3 || h < 3 {
		return false
	}
	isolated := 0
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			v := int(g.Pix[y*g.Stride+x])
			alone := true
			for dy := -1; dy <= 1 && alone; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dy != 0) && abs(int(g.Pix[(y+dy)*g.Stride+x+dx])-v) <= 128 {
						alone = false
						break
					}
				}
			}
			if alone {
				isolated++
			}
		}
	}
	return isolated*200 > w*h
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// median3 is g through a 3×3 median filter (edges copied).
func median3(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	copy(out.Pix, g.Pix)
	var win [9]uint8
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			k := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					win[k] = g.Pix[(y+dy)*g.Stride+x+dx]
					k++
				}
			}
			slices.Sort(win[:])
			out.Pix[y*out.Stride+x] = win[4]
		}
	}
	return out
}
