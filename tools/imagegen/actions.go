package imagegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	// Decoders of the inputs this tool reads.
	_ "golang.org/x/image/webp"

	"github.com/disintegration/imaging"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

var white = color.NRGBA{255, 255, 255, 255}

var levels = map[string]qrcode.RecoveryLevel{"L": qrcode.Low, "M": qrcode.Medium, "Q": qrcode.High, "H": qrcode.Highest}

// load reads and decodes a workspace image, its size checked first.
func (g *imageGen) load(field, path string) (image.Image, string, error) {
	raw, err := g.d.LoadImage(g.d.Sandbox.Root(), path)
	if err != nil {
		return nil, "", tool.PathError(field, path, err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, "", tool.Invalid(field, fmt.Sprintf("%s is not an image this tool reads: %v", path, err), "give a png, jpeg, gif, bmp, tiff or webp image")
	}
	if px := cfg.Width * cfg.Height; px > g.cfg.MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", tool.Errorf(tool.CodeTooLarge, "shrink the image or raise tools.image_generator.max_pixels",
			"image %s is %d×%d = %d pixels, above the %d pixel limit (tools.image_generator.max_pixels)", path, cfg.Width, cfg.Height, px, g.cfg.MaxPixels)
	}
	img, err := imaging.Decode(bytes.NewReader(raw), imaging.AutoOrientation(true))
	if err != nil {
		return nil, "", tool.Invalid(field, fmt.Sprintf("%s cannot be decoded: %v", path, err), "give a valid image")
	}
	return img, format, nil
}

// save encodes img into its planned output atomically. JPEG has no alpha
// and Go's GIF encoder draws transparent pixels black, so for those two
// formats img is first laid over bg.
func (g *imageGen) save(out *tool.Outputs, ext string, img image.Image, bg color.NRGBA, quality int, summary string, data map[string]any) (*tool.Result, error) {
	f, err := imaging.FormatFromExtension(ext)
	if err != nil {
		return nil, err
	}
	if f == imaging.JPEG || f == imaging.GIF {
		img = imaging.Overlay(imaging.New(img.Bounds().Dx(), img.Bounds().Dy(), bg), img, image.Point{}, 1)
	}
	file, err := out.WriteFrom(ext, func(w io.Writer) error { return imaging.Encode(w, img, f, imaging.JPEGQuality(quality)) })
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	data["path"], data["width"], data["height"], data["bytes"] = g.d.Sandbox.Rel(file.Path), b.Dx(), b.Dy(), file.Size
	return &tool.Result{Summary: fmt.Sprintf("%s: %s, %d×%d", summary, g.d.Sandbox.Rel(file.Path), b.Dx(), b.Dy()), Data: data, Files: []tool.File{file}}, nil
}

func (g *imageGen) qr(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	text := c.Args.String("text")
	if text == "" {
		return nil, tool.Invalid("text", "text is empty", "give the content to encode")
	}
	level := c.Args.StringOr("level", "M")
	fg, err := parseColor("foreground", c.Args.StringOr("foreground", "#000000"))
	if err != nil {
		return nil, err
	}
	bg, err := parseColor("background", c.Args.StringOr("background", "#ffffff"))
	if err != nil {
		return nil, err
	}
	if lum(fg) > lum(bg)-0.3 {
		return nil, tool.Invalid("foreground", "the foreground is not clearly darker than the background", "scanners need dark modules on a light background")
	}
	var logo image.Image
	if p := c.Args.String("logo"); p != "" {
		if level == "L" || level == "M" {
			return nil, tool.Invalid("level", "a centre logo needs level Q or H", "set level to H")
		}
		if logo, _, err = g.load("logo", p); err != nil {
			return nil, err
		}
	}
	q, err := qrcode.New(text, levels[level])
	if err != nil {
		return nil, tool.Invalid("text", fmt.Sprintf("cannot encode the text: %v", err), "QR codes hold at most about 2900 bytes (less at higher levels)")
	}
	q.ForegroundColor, q.BackgroundColor = fg, bg
	size := c.Args.Int("size", 512)
	img := image.Image(q.Image(size))
	size = img.Bounds().Dx() // skip2 draws at least one pixel a module
	data := map[string]any{"level": level, "version": q.VersionNumber, "logo": logo != nil}
	summary := "QR code level " + level
	code, side := img, size/5
	for {
		if logo != nil {
			if img, side, err = placeLogo(q, code, logo, text, bg, side); err != nil {
				return nil, err
			}
		}
		err := g.readBack(ctx, img, text)
		if err == nil {
			break
		}
		if te := (*tool.Error)(nil); errors.As(err, &te) {
			return nil, err
		}
		if logo == nil {
			return nil, tool.Errorf(tool.CodeFailed, "give a larger size or a shorter text", "the QR code does not read back: %v", err)
		}
		side = side * 9 / 10 // a smaller logo hides less of the code
	}
	if logo != nil {
		data["logo_px"] = side
		if side < size/5 {
			summary += fmt.Sprintf(", logo shrunk to %d px so the code reads", side)
		}
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: "qr", Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	return g.save(out, ".png", img, white, 0, summary, data)
}

// placeLogo draws logo over the middle of the code, at most maxSide
// pixels, and smaller while the code would not survive every module under
// the logo reading wrong. It answers the side the logo got.
func placeLogo(q *qrcode.QRCode, code image.Image, logo image.Image, text string, bg color.NRGBA, maxSide int) (image.Image, int, error) {
	size := code.Bounds().Dx()
	bitmap := q.Bitmap()
	module := max(1, size/len(bitmap))
	for side := maxSide; side >= 3*module; side = side * 9 / 10 {
		l := imaging.Fit(logo, side, side, imaging.Lanczos)
		pad := side / 10
		lb := l.Bounds()
		box := image.Rect((size-lb.Dx())/2-pad, (size-lb.Dy())/2-pad, (size+lb.Dx())/2+pad, (size+lb.Dy())/2+pad)
		if !logoFits(bitmap, q.VersionNumber, size, box, text) {
			continue
		}
		canvas := imaging.Clone(code)
		draw.Draw(canvas, box, image.NewUniform(bg), image.Point{}, draw.Src)
		return imaging.Overlay(canvas, l, image.Pt((size-lb.Dx())/2, (size-lb.Dy())/2), 1), side, nil
	}
	return nil, 0, tool.Invalid("logo", "no logo size leaves the code readable", "use level H, a shorter text, or no logo")
}

func (g *imageGen) card(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	title := strings.TrimSpace(c.Args.String("title"))
	if title == "" {
		return nil, tool.Invalid("title", "title is empty", "give the card's title")
	}
	cols, err := cardBackground(c)
	if err != nil {
		return nil, err
	}
	fg, err := parseColor("color", c.Args.StringOr("color", "#ffffff"))
	if err != nil {
		return nil, err
	}
	f, err := cjkfont.Open(g.cfg.Font)
	if err != nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "install fonts-noto-cjk or fonts-wqy-zenhei, or set tools.image_generator.font", "no CJK font: %v", err)
	}
	w := c.Args.Int("width", 1080)
	margin := float64(w) / 12
	layer, mode, err := g.cardLayer(c, w, int(margin))
	if err != nil {
		return nil, err
	}
	y := margin
	if layer != nil && mode == "banner" {
		y += float64(layer.Bounds().Dy()) + margin/2
	}
	blocks := []textBlock{{title, float64(w) / 14}, {c.Args.String("subtitle"), float64(w) / 24}, {c.Args.String("text"), float64(w) / 30}}
	drawn, y, missing, err := wrapBlocks(f, blocks, float64(w)-2*margin, y)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, tool.Invalid("text", fmt.Sprintf("the font has no glyph for %q", string(missing)), "remove those characters or set tools.image_generator.font to a font that has them")
	}
	h := int(math.Ceil(y + margin/2))
	if c.Args.Has("height") {
		if h > c.Args.Int("height", 0) {
			return nil, tool.Invalid("height", fmt.Sprintf("the text needs %d pixels of height, more than %d", h, c.Args.Int("height", 0)), "give a larger height, or leave it out to fit the text")
		}
		h = c.Args.Int("height", 0)
	}
	if w*h > g.cfg.MaxPixels {
		return nil, tool.Errorf(tool.CodeTooLarge, "shorten the text or raise tools.image_generator.max_pixels", "the card would be %d×%d, above the %d pixel limit", w, h, g.cfg.MaxPixels)
	}
	img := gradient(w, h, cols)
	switch {
	case layer != nil && mode == "banner":
		draw.Draw(img, layer.Bounds().Add(image.Pt(int(margin), int(margin))), layer, image.Point{}, draw.Over)
	case layer != nil:
		// The photo covers the card under a veil of the first background
		// colour, so light text stays readable on any photo.
		img = imaging.Overlay(img, imaging.Fill(layer, w, h, imaging.Center, imaging.Lanczos), image.Point{}, 1)
		img = imaging.Overlay(img, imaging.New(w, h, cols[0]), image.Point{}, c.Args.Float("veil", 0.45))
	}
	for _, l := range drawn {
		fc, err := f.NewFace(l.size)
		if err != nil {
			return nil, err
		}
		cjkfont.DrawString(img, fc, fg, margin, l.y, l.text)
		fc.Close()
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: "card", Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(drawn))
	for i, l := range drawn {
		lines[i] = l.text
	}
	data := map[string]any{"lines": lines}
	if layer != nil {
		data["image_mode"] = mode
	}
	return g.save(out, ".png", img, white, 0, "card of "+wording.Count(len(drawn), "line", "lines"), data)
}

// cardBackground reads background: one colour, or two for a vertical
// gradient.
func cardBackground(c *tool.Call) ([]color.NRGBA, error) {
	bgs := strings.Split(c.Args.StringOr("background", "#1e3a5f"), ",")
	if len(bgs) > 2 {
		return nil, tool.Invalid("background", "background has more than two colours", "give one colour, or two joined by a comma")
	}
	var cols []color.NRGBA
	for _, s := range bgs {
		col, err := parseColor("background", strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	return cols, nil
}

// textBlock is a paragraph of a card in its font size.
type textBlock struct {
	text string
	size float64
}

// cardLine is a wrapped line of a card with its size and baseline.
type cardLine struct {
	text    string
	size, y float64
}

// wrapBlocks wraps the non-empty blocks to width from y down, returning
// the lines, the y below them and the characters the font lacks.
func wrapBlocks(f *cjkfont.Font, blocks []textBlock, width, y float64) ([]cardLine, float64, []rune, error) {
	var missing []rune
	var drawn []cardLine
	for _, b := range blocks {
		if strings.TrimSpace(b.text) == "" {
			continue
		}
		missing = append(missing, f.Missing(b.text)...)
		fc, err := f.NewFace(b.size)
		if err != nil {
			return nil, 0, nil, err
		}
		m := fc.Metrics()
		lineH := float64(m.Height) / 64 * 1.25
		for _, l := range cjkfont.Wrap(fc, b.text, width) {
			drawn = append(drawn, cardLine{text: l, size: b.size, y: y + float64(m.Ascent)/64})
			y += lineH
		}
		fc.Close()
		y += b.size / 2
	}
	return drawn, y, missing, nil
}

// gradient is a w×h image filled with cols[0], or shading from cols[0] at
// the top to cols[1] at the bottom.
func gradient(w, h int, cols []color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for yy := range h {
		col := cols[0]
		if len(cols) == 2 {
			t := float64(yy) / float64(max(1, h-1))
			mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-t) + float64(b)*t)) }
			col = color.NRGBA{mix(cols[0].R, cols[1].R), mix(cols[0].G, cols[1].G), mix(cols[0].B, cols[1].B), 255}
		}
		draw.Draw(img, image.Rect(0, yy, w, yy+1), image.NewUniform(col), image.Point{}, draw.Src)
	}
	return img
}

// cardLayer loads a card's image layer: a banner at the content width
// (at most three quarters of the card's width high, cropped around the
// centre if taller), or the photo itself for a background.
func (g *imageGen) cardLayer(c *tool.Call, w, margin int) (image.Image, string, error) {
	mode := c.Args.StringOr("image_mode", "banner")
	p := c.Args.String("image")
	if p == "" {
		if c.Args.Has("image_mode") {
			return nil, "", tool.Invalid("image_mode", "image_mode without an image", "give image, the picture to put on the card")
		}
		return nil, mode, nil
	}
	img, _, err := g.load("image", p)
	if err != nil {
		return nil, "", err
	}
	if mode == "background" {
		return img, mode, nil
	}
	cw := w - 2*margin
	b := img.Bounds()
	bh := max(1, int(math.Round(float64(b.Dy())*float64(cw)/float64(b.Dx()))))
	if limit := w * 3 / 4; bh > limit {
		return imaging.Fill(img, cw, limit, imaging.Center, imaging.Lanczos), mode, nil
	}
	return imaging.Resize(img, cw, bh, imaging.Lanczos), mode, nil
}

func (g *imageGen) transform(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	bg, err := parseColor("background", c.Args.StringOr("background", "#ffffff"))
	if err != nil {
		return nil, err
	}
	img, format, err := g.load("path", path)
	if err != nil {
		return nil, err
	}
	var done []string
	if s := c.Args.String("crop"); s != "" {
		b := img.Bounds()
		r, err := cropRect(s, b)
		if err != nil {
			return nil, err
		}
		img = imaging.Crop(img, r.Add(b.Min))
		done = append(done, "cropped")
	}
	if c.Args.Has("rotate") {
		deg := math.Mod(c.Args.Float("rotate", 0), 360)
		switch {
		case deg == 90 || deg == -270:
			img = imaging.Rotate90(img)
		case deg == 180 || deg == -180:
			img = imaging.Rotate180(img)
		case deg == 270 || deg == -90:
			img = imaging.Rotate270(img)
		case deg != 0:
			img = imaging.Rotate(img, deg, color.White)
		}
		done = append(done, fmt.Sprintf("rotated %g°", deg))
	}
	if w, h := c.Args.Int("width", 0), c.Args.Int("height", 0); w > 0 || h > 0 {
		if b := img.Bounds(); w*max(h, 1) > g.cfg.MaxPixels || (h == 0 && w*w*b.Dy()/b.Dx() > g.cfg.MaxPixels) || (w == 0 && h*h*b.Dx()/b.Dy() > g.cfg.MaxPixels) {
			return nil, tool.Errorf(tool.CodeTooLarge, "give a smaller size or raise tools.image_generator.max_pixels", "the result would be above the %d pixel limit", g.cfg.MaxPixels)
		}
		img = imaging.Resize(img, w, h, imaging.Lanczos)
		done = append(done, "resized")
	}
	outFmt := c.Args.String("format")
	if outFmt == "" {
		outFmt = format
		if format == "webp" {
			outFmt = "png"
		}
	}
	ext := "." + map[string]string{"jpeg": "jpg"}[outFmt]
	if ext == "." {
		ext = "." + outFmt
	}
	if len(done) == 0 && outFmt == format {
		return nil, tool.Invalid("format", "nothing to do", "give width, height, crop, rotate or another format")
	}
	if outFmt != format {
		done = append(done, "converted to "+outFmt)
	}
	abs, _ := g.d.Sandbox.Resolve(path)
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(filepath.Base(path)) + "_edited", Exts: []string{ext}, Inputs: []string{abs}})
	if err != nil {
		return nil, err
	}
	return g.save(out, ext, img, bg, c.Args.Int("quality", 90), strings.Join(done, ", "), map[string]any{"format": outFmt})
}

// cropRect reads crop, "x,y,width,height" inside an image of bounds b, or
// "square" for the centred square.
func cropRect(s string, b image.Rectangle) (image.Rectangle, error) {
	var r image.Rectangle
	var err error
	if s == "square" {
		side := min(b.Dx(), b.Dy())
		r = image.Rect((b.Dx()-side)/2, (b.Dy()-side)/2, (b.Dx()-side)/2+side, (b.Dy()-side)/2+side)
	} else {
		var n [4]int
		parts := strings.Split(s, ",")
		for i := 0; i < 4 && len(parts) == 4; i++ {
			if n[i], err = strconv.Atoi(strings.TrimSpace(parts[i])); err != nil {
				break
			}
		}
		if len(parts) != 4 || err != nil || n[2] <= 0 || n[3] <= 0 {
			return r, tool.Invalid("crop", fmt.Sprintf("crop %q is not x,y,width,height", s), "give e.g. 10,20,300,200, or square")
		}
		r = image.Rect(n[0], n[1], n[0]+n[2], n[1]+n[3])
		if !r.In(image.Rect(0, 0, b.Dx(), b.Dy())) {
			return r, tool.Invalid("crop", fmt.Sprintf("crop %v is outside the %d×%d image", s, b.Dx(), b.Dy()), "give a rectangle inside the image")
		}
	}
	return r, nil
}

func parseColor(field, s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(s, "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 6 || err != nil {
		return color.NRGBA{}, tool.Invalid(field, fmt.Sprintf("colour %q is not #rrggbb", s), "give a colour as #rrggbb")
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
}

// lum is relative luminance in 0..1.
func lum(c color.NRGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}
