package imagegen

import (
	"context"
	"fmt"
	"image"
	"path/filepath"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// positions a watermark may take; tile repeats it over the whole image.
var positions = []string{"top-left", "top-right", "bottom-left", "bottom-right", "center", "tile"}

func (g *imageGen) watermark(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	img, format, err := g.load("path", path)
	if err != nil {
		return nil, err
	}
	kind, err := c.Args.ExactlyOne("give text for a text mark or image for a logo", "text", "image")
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	var mark image.Image
	if kind == "text" {
		text := c.Args.String("text")
		col, err := parseColor("color", c.Args.StringOr("color", "#ffffff"))
		if err != nil {
			return nil, err
		}
		f, err := cjkfont.Open(g.cfg.Font)
		if err != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "install fonts-noto-cjk or fonts-wqy-zenhei, or set tools.image_generator.font", "no CJK font: %v", err)
		}
		if m := f.Missing(text); len(m) > 0 {
			return nil, tool.Invalid("text", fmt.Sprintf("the font has no glyph for %q", string(m)), "remove those characters or set tools.image_generator.font to a font that has them")
		}
		size := c.Args.Float("font_size", 0)
		if size == 0 {
			size = float64(max(12, b.Dx()/24))
		}
		if mark, err = cjkfont.TextImage(f, text, size, col, float64(b.Dx())*0.9); err != nil {
			return nil, err
		}
	} else {
		logo, _, err := g.load("image", c.Args.String("image"))
		if err != nil {
			return nil, err
		}
		side := max(1, int(float64(b.Dx())*c.Args.Float("scale", 0.2)))
		mark = imaging.Fit(logo, side, side, imaging.Lanczos)
	}
	pos := c.Args.StringOr("position", "bottom-right")
	opacity := c.Args.Float("opacity", 0.5)
	margin := c.Args.Int("margin", max(4, b.Dx()/50))
	out := g.stamp(img, mark, pos, opacity, margin)

	ext := "." + format
	if format == "jpeg" {
		ext = ".jpg"
	} else if format == "webp" {
		ext = ".png"
	}
	abs, _ := g.d.Sandbox.Resolve(path)
	plan, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(filepath.Base(path)) + "_watermarked", Exts: []string{ext}, Inputs: []string{abs}})
	if err != nil {
		return nil, err
	}
	mb := mark.Bounds()
	return g.save(plan, ext, out, white, c.Args.Int("quality", 90), fmt.Sprintf("%s watermark at %s, opacity %g", kind, pos, opacity),
		map[string]any{"position": pos, "opacity": opacity, "mark_width": mb.Dx(), "mark_height": mb.Dy()})
}

// stamp draws mark over img at pos with opacity (0..1; the mark's own
// alpha still applies), margin pixels in from the edges. A tiled mark
// repeats on a grid with a gap of its own size between copies.
func (g *imageGen) stamp(img, mark image.Image, pos string, opacity float64, margin int) *image.NRGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	mw, mh := mark.Bounds().Dx(), mark.Bounds().Dy()
	out := imaging.Clone(img)
	if pos == "tile" {
		stepX, stepY := mw+max(mw/2, margin), mh+max(mh, margin)
		for row, y := 0, margin; y < h; row, y = row+1, y+stepY {
			// Alternate rows shift by half a step so the marks do not form columns.
			for x := margin - (row%2)*stepX/2; x < w; x += stepX {
				out = imaging.Overlay(out, mark, image.Pt(x, y), opacity)
			}
		}
		return out
	}
	x, y := margin, margin
	switch pos {
	case "top-right":
		x = w - mw - margin
	case "bottom-left":
		y = h - mh - margin
	case "bottom-right":
		x, y = w-mw-margin, h-mh-margin
	case "center":
		x, y = (w-mw)/2, (h-mh)/2
	}
	return imaging.Overlay(out, mark, image.Pt(x, y), opacity)
}
