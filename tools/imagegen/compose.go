package imagegen

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"math"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// maxCollageImages bounds one collage (each image is decoded in turn).
const maxCollageImages = 100

func (g *imageGen) placeholder(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	w, h := c.Args.Int("width", 800), c.Args.Int("height", 600)
	if w*h > g.cfg.MaxPixels {
		return nil, tool.Errorf(tool.CodeTooLarge, "give a smaller size or raise tools.image_generator.max_pixels", "%d×%d is above the %d pixel limit", w, h, g.cfg.MaxPixels)
	}
	bg, err := parseColor("background", c.Args.StringOr("background", "#cccccc"))
	if err != nil {
		return nil, err
	}
	fg, err := parseColor("color", c.Args.StringOr("color", "#555555"))
	if err != nil {
		return nil, err
	}
	label := c.Args.StringOr("label", fmt.Sprintf("%d×%d", w, h))
	img := imaging.New(w, h, bg)
	if label != "" {
		f, err := cjkfont.Open(g.cfg.Font)
		if err != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "install fonts-noto-cjk or fonts-wqy-zenhei, or set tools.image_generator.font", "no CJK font: %v", err)
		}
		if m := f.Missing(label); len(m) > 0 {
			return nil, tool.Invalid("label", fmt.Sprintf("the font has no glyph for %q", string(m)), "remove those characters")
		}
		// The label is as large as fits: a fifth of the short side, less
		// when it is wider than 90% of the image.
		size := float64(min(w, h)) / 5
		if tw := f.Width(label, size); tw > 0.9*float64(w) {
			size *= 0.9 * float64(w) / tw
		}
		if size >= 4 {
			text, err := cjkfont.TextImage(f, label, size, fg, 0)
			if err != nil {
				return nil, err
			}
			tb := text.Bounds()
			img = imaging.Overlay(img, text, image.Pt((w-tb.Dx())/2, (h-tb.Dy())/2), 1)
		}
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: fmt.Sprintf("placeholder_%dx%d", w, h), Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	return g.save(out, ".png", img, white, 0, "placeholder "+label, map[string]any{"label": label})
}

func (g *imageGen) collage(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	paths := c.Args.Strings("paths")
	n := len(paths)
	if n == 0 {
		return nil, tool.Invalid("paths", "no images", "give the images to put in the grid")
	}
	if n > maxCollageImages {
		return nil, tool.Errorf(tool.CodeTooLarge, "make several collages", "%d images, more than the %d a collage takes", n, maxCollageImages)
	}
	rows, cols := c.Args.Int("rows", 0), c.Args.Int("cols", 0)
	switch {
	case rows == 0 && cols == 0:
		cols = int(math.Ceil(math.Sqrt(float64(n))))
		rows = (n + cols - 1) / cols
	case rows == 0:
		rows = (n + cols - 1) / cols
	case cols == 0:
		cols = (n + rows - 1) / rows
	}
	if rows*cols < n {
		return nil, tool.Invalid("rows", fmt.Sprintf("%d×%d cells hold %d images, not %d", rows, cols, rows*cols, n), "give more rows or cols, or leave them out")
	}
	cw := c.Args.Int("cell_width", 400)
	ch := c.Args.Int("cell_height", cw)
	gap := c.Args.Int("gap", 10)
	bg, err := parseColor("background", c.Args.StringOr("background", "#ffffff"))
	if err != nil {
		return nil, err
	}
	w, h := cols*cw+(cols+1)*gap, rows*ch+(rows+1)*gap
	if w*h > g.cfg.MaxPixels {
		return nil, tool.Errorf(tool.CodeTooLarge, "give smaller cells or raise tools.image_generator.max_pixels", "the collage would be %d×%d, above the %d pixel limit", w, h, g.cfg.MaxPixels)
	}
	fill := c.Args.StringOr("mode", "fill") == "fill"
	canvas := imaging.New(w, h, bg)
	for i, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img, _, err := g.load("paths", p)
		if err != nil {
			return nil, err
		}
		x, y := gap+(i%cols)*(cw+gap), gap+(i/cols)*(ch+gap)
		var cell image.Image
		if fill {
			// Cover the cell, cropping the overflow around the centre.
			cell = imaging.Fill(img, cw, ch, imaging.Center, imaging.Lanczos)
		} else {
			// Whole image inside the cell, centred, enlarged if small.
			b := img.Bounds()
			s := math.Min(float64(cw)/float64(b.Dx()), float64(ch)/float64(b.Dy()))
			cell = imaging.Resize(img, max(1, int(math.Round(float64(b.Dx())*s))), max(1, int(math.Round(float64(b.Dy())*s))), imaging.Lanczos)
		}
		cb := cell.Bounds()
		at := image.Pt(x+(cw-cb.Dx())/2, y+(ch-cb.Dy())/2)
		draw.Draw(canvas, image.Rectangle{Min: at, Max: at.Add(cb.Size())}, cell, cb.Min, draw.Over)
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: "collage", Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	return g.save(out, ".png", canvas, white, 0, fmt.Sprintf("collage of %d images, %d×%d", n, rows, cols), map[string]any{"rows": rows, "cols": cols, "images": n})
}
