package idphoto

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// A 6-inch print is 4×6 in; at 300 dpi 1800×1200 pixels, laid out in the
// orientation that holds more copies.
const (
	sheetLong, sheetShort = 6 * dpi, 4 * dpi
	sheetGap              = 12 // pixels between copies, 1 mm: room for the cut (eight 2-inch copies fit)
	sheetMargin           = 12 // pixels at the paper's edge
)

// guideColour is the cut guides' grey: visible, light enough not to show
// on a cut photo's edge.
var guideColour = color.NRGBA{170, 170, 170, 255}

// layout is how many copies of a w×h photo fit on the sheet, and how.
type layout struct {
	W, H       int // the sheet
	Cols, Rows int
}

func fit(w, h int) layout {
	count := func(sw, sh int) layout {
		return layout{W: sw, H: sh, Cols: (sw - 2*sheetMargin + sheetGap) / (w + sheetGap), Rows: (sh - 2*sheetMargin + sheetGap) / (h + sheetGap)}
	}
	a, b := count(sheetLong, sheetShort), count(sheetShort, sheetLong)
	if b.Cols*b.Rows > a.Cols*a.Rows {
		return b
	}
	return a
}

func (p *idPhoto) sheet(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	format := c.Args.StringOr("format", "jpg")
	if format != "png" && format != "jpg" {
		return nil, tool.Invalid("format", fmt.Sprintf("unknown format %q", format), "use png or jpg")
	}
	img, raw, err := p.load(path)
	if err != nil {
		return nil, err
	}
	// A photo at another resolution is scaled to its printed size at 300 dpi.
	if d := readDPI(raw); d > 0 && math.Abs(d-dpi) > 1 {
		b := img.Bounds()
		img = imaging.Resize(img, int(math.Round(float64(b.Dx())*dpi/d)), int(math.Round(float64(b.Dy())*dpi/d)), imaging.Lanczos)
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	l := fit(w, h)
	if l.Cols*l.Rows == 0 {
		return nil, tool.Invalid("path", fmt.Sprintf("a %d×%d photo (%.1f×%.1f mm at 300 dpi) does not fit on 4×6 in paper", w, h, float64(w)*25.4/dpi, float64(h)*25.4/dpi),
			"give an ID photo made by id_photo create")
	}
	copies := l.Cols * l.Rows
	if c.Args.Has("copies") {
		n := c.Args.Int("copies", copies)
		if n > copies {
			return nil, tool.Invalid("copies", fmt.Sprintf("%d copies asked, only %d of a %d×%d photo fit on 4×6 in paper", n, copies, w, h), fmt.Sprintf("ask for at most %d", copies))
		}
		copies = n
	}
	out, err := p.planOutput(c, path, "sheet", format)
	if err != nil {
		return nil, err
	}

	sheet := image.NewNRGBA(image.Rect(0, 0, l.W, l.H))
	draw.Draw(sheet, sheet.Bounds(), image.White, image.Point{}, draw.Src)
	// The block of copies is centred on the paper.
	x0 := (l.W - (l.Cols*(w+sheetGap) - sheetGap)) / 2
	y0 := (l.H - (l.Rows*(h+sheetGap) - sheetGap)) / 2
	var cells []image.Rectangle
	for i := range copies {
		r := image.Rect(0, 0, w, h).Add(image.Pt(x0+(i%l.Cols)*(w+sheetGap), y0+(i/l.Cols)*(h+sheetGap)))
		cells = append(cells, r)
	}
	// Cut guides: a line across the whole sheet on every photo edge, drawn
	// first so that the photos cover them and they show only in the gaps
	// and margins, where the cuts go.
	line := func(r image.Rectangle) { draw.Draw(sheet, r, &image.Uniform{guideColour}, image.Point{}, draw.Src) }
	for _, r := range cells {
		line(image.Rect(r.Min.X-1, 0, r.Min.X, l.H))
		line(image.Rect(r.Max.X, 0, r.Max.X+1, l.H))
		line(image.Rect(0, r.Min.Y-1, l.W, r.Min.Y))
		line(image.Rect(0, r.Max.Y, l.W, r.Max.Y+1))
	}
	for _, r := range cells {
		draw.Draw(sheet, r, img, img.Bounds().Min, draw.Src)
	}
	file, rel, err := p.save(out, sheet, format)
	if err != nil {
		return nil, err
	}
	boxes := make([]map[string]int, len(cells))
	for i, r := range cells {
		boxes[i] = boxJSON(r)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("print sheet %s: %s of %d×%d on 4×6 in paper (%d×%d at %d dpi) with cut guides", rel, wording.Count(copies, "copy", "copies"), w, h, l.W, l.H, dpi),
		Data:    map[string]any{"path": rel, "copies": copies, "width": l.W, "height": l.H, "dpi": dpi, "photo_width": w, "photo_height": h, "cells": boxes, "bytes": file.Size},
		Files:   []tool.File{file},
	}, nil
}
