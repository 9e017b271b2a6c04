package pdf

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// latin1 reports whether the PDF core fonts (WinAnsi) can show s.
func latin1(s string) bool {
	for _, r := range s {
		if r > 0xFF {
			return false
		}
	}
	return true
}

// watermark adds a text or image watermark (behind the content) or stamp
// (on top) to the selected pages.
func (p *pdfTool) watermark(_ context.Context, c *tool.Call, onTop bool) (*tool.Result, error) {
	action := "watermark"
	if onTop {
		action = "stamp"
	}
	text, img := c.Args.String("text"), c.Args.String("image")
	if (text == "") == (img == "") {
		return nil, tool.Invalid("text", action+" needs exactly one of 'text' or 'image'", "")
	}
	col := c.Args.StringOr("color", "#808080")
	if !hexColor.MatchString(col) {
		return nil, tool.Invalid("color", fmt.Sprintf("color must be #RRGGBB, got %q", col), "e.g. #FF0000 for red")
	}
	opacity := c.Args.Float("opacity", map[bool]float64{false: 0.3, true: 1}[onTop])
	angle := c.Args.Float("angle", 0)
	if !c.Args.Has("angle") && text != "" && !onTop {
		angle = 45
	}
	pos := c.Args.StringOr("position", "c")
	desc := []string{
		"position:" + pos,
		"opacity:" + strconv.FormatFloat(opacity, 'f', 2, 64),
		"rotation:" + strconv.FormatFloat(angle, 'f', 1, 64),
	}
	if c.Args.Has("scale") || img != "" || !latin1(text) {
		desc = append(desc, "scalefactor:"+strconv.FormatFloat(c.Args.Float("scale", 0.5), 'f', 3, 64)+" rel")
	}
	d, err := p.open(c)
	if err != nil {
		return nil, err
	}

	var wm *model.Watermark
	kind := "text"
	switch {
	case img != "":
		kind = "image"
		imgIn, err := p.readInput("image", img)
		if err != nil {
			return nil, err
		}
		wm, err = api.ImageWatermarkForReader(bytes.NewReader(imgIn.data), strings.Join(desc, ", "), onTop, false, types.POINTS)
		if err != nil {
			return nil, tool.Invalid("image", fmt.Sprintf("cannot use %s as a watermark image: %v", img, err), "use a PNG, JPEG or TIFF image")
		}
	case latin1(text):
		size := c.Args.Float("font_size", 48)
		d := append([]string{"fontname:Helvetica", "points:" + strconv.Itoa(int(size)), "fillcolor:" + col}, desc...)
		wm, err = api.TextWatermark(text, strings.Join(d, ", "), onTop, false, types.POINTS)
		if err != nil {
			return nil, opErr(action, err)
		}
	default:
		// Core PDF fonts have no CJK glyphs and pdfcpu's CJK support needs a
		// user font directory, which we do not write: draw the text as an
		// image with a system CJK font instead.
		kind = "text (as image)"
		data, err := p.textPNG(text, c.Args.Float("font_size", 48), col)
		if err != nil {
			return nil, err
		}
		wm, err = api.ImageWatermarkForReader(bytes.NewReader(data), strings.Join(desc, ", "), onTop, false, types.POINTS)
		if err != nil {
			return nil, opErr(action, err)
		}
	}
	w, err := p.writePDF(c, d, action, "_"+action, func(w io.Writer) error { return api.AddWatermarks(d.reader(), w, d.sel, wm, d.conf()) })
	if err != nil {
		return nil, err
	}
	return w.result(fmt.Sprintf("added a %s %s to %s into %s", kind, action, wording.Count(len(d.pages), "page", "pages"), w.rel),
		map[string]any{"pages": d.pages, "kind": kind, "on_top": onTop}), nil
}

// textPNG renders text at 4x the point size for a sharp result when scaled.
func (p *pdfTool) textPNG(text string, size float64, hex string) ([]byte, error) {
	f, err := cjkfont.Open(p.cfg.Font)
	if err != nil {
		if os.IsNotExist(err) || err == cjkfont.ErrNoFont {
			return nil, tool.Missing("a CJK font", "fonts-wqy-zenhei")
		}
		return nil, tool.Errorf(tool.CodeUnavailable, "set tools.pdf_tool.font to a TTF/TTC file or install fonts-wqy-zenhei", "font: %v", err)
	}
	r, _ := strconv.ParseUint(hex[1:3], 16, 8)
	g, _ := strconv.ParseUint(hex[3:5], 16, 8)
	b, _ := strconv.ParseUint(hex[5:7], 16, 8)
	img, err := cjkfont.TextImage(f, text, size*4, color.NRGBA{uint8(r), uint8(g), uint8(b), 255}, 0)
	if err != nil {
		return nil, fmt.Errorf("render watermark text: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode watermark text: %w", err)
	}
	return buf.Bytes(), nil
}
