package ocr

import (
	"image"
	"image/draw"
	"slices"

	xdraw "golang.org/x/image/draw"
)

// versions are the images tesseract reads of a decoded one, the plain
// one first. Transparent pixels are laid over the background that
// contrasts with the visible ones (drawn as they are stored they are
// black, and black text on them vanishes). Colour is kept: tesseract
// thresholds a colour image on its own, and a grayscale conversion first
// loses contrast it would use (tesseract.js's chinese.png, chi_tra: CER
// 0.17 through Go's gray, 0 in colour, as the tesseract CLI reads it).
// With preprocessing, an image with salt-and-pepper speckle is also read
// through a 3×3 median, in grayscale.
func versions(img image.Image, preprocess bool) []image.Image {
	flat := flatten(img)
	if !preprocess {
		return []image.Image{flat}
	}
	b := flat.Bounds()
	gray := image.NewGray(b)
	draw.Draw(gray, b, flat, b.Min, draw.Src)
	if speckled(gray) {
		return []image.Image{flat, median3(gray)}
	}
	return []image.Image{flat}
}

// flatten lays img over an opaque background: white, unless what is
// visible is mostly light (white text on a transparent background), then
// black. An opaque image is returned as it is.
func flatten(img image.Image) image.Image {
	if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
		return img
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	// out holds premultiplied colour, so light is weighted by alpha.
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	var alpha, light float64
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4]
		alpha += float64(p[3])
		light += 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
	}
	bg := 255 // what a transparent pixel adds: out = p + bg·(1-α)
	if alpha > 0 && light/alpha > 0.5 {
		bg = 0
	}
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4]
		add := bg * (255 - int(p[3])) / 255
		p[0], p[1], p[2], p[3] = uint8(int(p[0])+add), uint8(int(p[1])+add), uint8(int(p[2])+add), 255
	}
	return out
}

// Text size: tesseract reads best with characters 20-40 px high; a
// screenshot or crop has them at 10-15 px, and there enlarging helps, but
// text that is already large reads worse enlarged (tesseract.js's
// chinese.png, 320×180 with 40 px characters, chi_tra: CER 0 as it is,
// 0.17 at 2×, 0.33 at 4×). The size cannot be told before reading (the
// boxes tesseract gives Chinese "words" often span a line), and a median
// helps some speckled images and harms others (12 px English at 2%
// noise: CER 0.07 without, 0.24 with). So each version is read as it is
// and, under minHeight, at upscaleBy, and the reading with the most
// confidence summed over its words wins, the plain one on a tie: a change
// must find more, or the same more surely. On the bench in bench_test.go
// that is never worse than the plain reading (the tesseract CLI's).
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
