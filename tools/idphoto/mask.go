package idphoto

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/png"
	"io/fs"
	"math"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// frameMask is the person's mask for an output of w×h pixels showing the
// photo's rectangle fr: each output pixel takes the mask value under its
// centre, interpolated between mask pixels (which softens the edge by
// about one mask pixel). Outside the segmented region, and so outside the
// photo, is background.
func frameMask(p *person, fr image.Rectangle, w, h int) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, w, h))
	mw, mh := p.Mask.Bounds().Dx(), p.Mask.Bounds().Dy()
	kx := float64(mw) / float64(p.Region.Dx())
	ky := float64(mh) / float64(p.Region.Dy())
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= mw || y >= mh {
			return 0
		}
		return float64(p.Mask.Pix[y*p.Mask.Stride+x])
	}
	for y := range h {
		sy := float64(fr.Min.Y) + (float64(y)+0.5)*float64(fr.Dy())/float64(h)
		my := (sy-float64(p.Region.Min.Y))*ky - 0.5
		y0 := int(math.Floor(my))
		fy := my - float64(y0)
		for x := range w {
			sx := float64(fr.Min.X) + (float64(x)+0.5)*float64(fr.Dx())/float64(w)
			mx := (sx-float64(p.Region.Min.X))*kx - 0.5
			x0 := int(math.Floor(mx))
			fx := mx - float64(x0)
			v := (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// maxMask bounds the mask file: one byte a pixel of the largest photo, as PNG.
const maxMask = 64 << 20

// readGray reads the helper's mask. The jailed helper wrote it, so it is
// read as any input is: a regular file under a cap, no link followed, and
// the error names no host path.
func readGray(path string) (*image.Gray, error) {
	f, err := sandbox.ReadRegular(path, maxMask)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, tool.Errorf(tool.CodeFailed, "see the server log", "the OpenCV helper wrote no usable mask: %v", err)
	}
	m, err := png.Decode(bytes.NewReader(f))
	if err != nil || m.Bounds().Empty() {
		return nil, tool.Errorf(tool.CodeFailed, "see the server log", "the OpenCV helper's mask is unreadable")
	}
	g := image.NewGray(image.Rect(0, 0, m.Bounds().Dx(), m.Bounds().Dy()))
	draw.Draw(g, g.Bounds(), m, m.Bounds().Min, draw.Src)
	return g, nil
}
