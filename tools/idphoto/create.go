package idphoto

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// backgrounds are the colours offered: white, the usual ID blue and red.
var backgrounds = map[string]color.NRGBA{
	"white": {255, 255, 255, 255},
	"blue":  {67, 142, 219, 255},
	"red":   {217, 0, 27, 255},
}

// load reads and decodes a workspace image (EXIF orientation applied),
// its file size and pixel count checked first.
func (p *idPhoto) load(path string) (image.Image, []byte, error) {
	raw, err := p.d.LoadImage(p.d.Sandbox.Root(), path)
	if err != nil {
		return nil, nil, tool.PathError("path", path, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, tool.Invalid("path", fmt.Sprintf("%s is not an image this tool reads: %v", path, err), "give a png, jpeg, gif, bmp, tiff or webp photo")
	}
	if px := cfg.Width * cfg.Height; px > p.cfg.MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, nil, tool.Errorf(tool.CodeTooLarge, "shrink the photo or raise tools.id_photo.max_pixels",
			"photo %s is %d×%d = %d pixels, above the %d pixel limit (tools.id_photo.max_pixels)", path, cfg.Width, cfg.Height, px, p.cfg.MaxPixels)
	}
	img, err := imaging.Decode(bytes.NewReader(raw), imaging.AutoOrientation(true))
	if err != nil {
		return nil, nil, tool.Invalid("path", fmt.Sprintf("%s cannot be decoded: %v", path, err), "give a valid image")
	}
	return img, raw, nil
}

func (p *idPhoto) create(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	sizeName := c.Args.StringOr("size", "two_inch")
	std, ok := standards[sizeName]
	if !ok {
		return nil, tool.Invalid("size", fmt.Sprintf("unknown size %q", sizeName), "use one of "+fmt.Sprint(sizeNames()))
	}
	bgName := c.Args.StringOr("background", "white")
	bg, ok := backgrounds[bgName]
	if !ok && bgName != "keep" {
		return nil, tool.Invalid("background", fmt.Sprintf("unknown background %q", bgName), "use white, blue, red or keep")
	}
	format := c.Args.StringOr("format", "jpg")
	if format != "png" && format != "jpg" {
		return nil, tool.Invalid("format", fmt.Sprintf("unknown format %q", format), "use png or jpg")
	}
	src, _, err := p.load(path)
	if err != nil {
		return nil, err
	}
	out, err := p.planOutput(c, path, sizeName, format)
	if err != nil {
		return nil, err
	}

	work, err := os.MkdirTemp("", "clawbridge-idphoto-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	h, err := newHelper(work, p.d.Run)
	if err != nil {
		return nil, err
	}
	if err := writePNG(filepath.Join(work, "in.png"), src); err != nil {
		return nil, err
	}
	faces, unconfirmed, err := h.detect(ctx, "in.png")
	if err != nil {
		return nil, err
	}
	face, err := p.oneFace(faces, unconfirmed)
	if err != nil {
		return nil, err
	}
	b := src.Bounds()
	who, err := h.segment(ctx, "in.png", face)
	if err != nil {
		return nil, err
	}
	crown, err := headTop(who, face, b)
	if err != nil {
		return nil, err
	}
	fr := place(std, face, crown)
	if err := checkInside(fr, face, b); err != nil {
		return nil, err
	}

	// The frame may reach past the top or sides of the photo: that part is
	// padding, background by definition.
	canvas := image.NewNRGBA(image.Rect(0, 0, fr.Rect.Dx(), fr.Rect.Dy()))
	draw.Draw(canvas, canvas.Bounds(), &image.Uniform{color.NRGBA{128, 128, 128, 255}}, image.Point{}, draw.Src)
	draw.Draw(canvas, canvas.Bounds(), src, fr.Rect.Min, draw.Src)
	crop := imaging.Resize(canvas, std.W, std.H, imaging.Lanczos)
	faceOut := image.Rect(
		int(math.Floor(float64(face.Min.X-fr.Rect.Min.X)*fr.Scale)), int(math.Floor(float64(face.Min.Y-fr.Rect.Min.Y)*fr.Scale)),
		int(math.Ceil(float64(face.Max.X-fr.Rect.Min.X)*fr.Scale)), int(math.Ceil(float64(face.Max.Y-fr.Rect.Min.Y)*fr.Scale))).Intersect(crop.Bounds())

	final := image.Image(crop)
	if bgName != "keep" {
		final = composite(crop, frameMask(who, fr.Rect, std.W, std.H), bg)
	} else if !fr.Rect.In(b) {
		return nil, tool.Invalidf("background", "choose a background colour, or use a photo with more space around the head", "the photo does not fill the %s frame around the face, and background keep has nothing to fill it with", sizeName)
	}

	file, rel, err := p.save(out, final, format)
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s ID photo %s: %d×%d at %d dpi, %s background", std.Label, rel, std.W, std.H, dpi, bgName),
		Data: map[string]any{
			"path": rel, "size": sizeName, "width": std.W, "height": std.H, "dpi": dpi, "background": bgName, "bytes": file.Size,
			"face_in_photo": boxJSON(face), "face_in_output": boxJSON(faceOut), "frame_in_photo": boxJSON(fr.Rect),
			"crown_in_output": int(math.Round((fr.Crown - float64(fr.Rect.Min.Y)) * fr.Scale)), "upscale": math.Round(fr.Scale*100) / 100,
		},
		Files: []tool.File{file},
	}, nil
}

func boxJSON(r image.Rectangle) map[string]int {
	return map[string]int{"x": r.Min.X, "y": r.Min.Y, "width": r.Dx(), "height": r.Dy()}
}

// oneFace picks the single face or says why there is none. Faces under half
// the width of the largest are people in the background. The helper has
// already merged overlapping boxes of one face and dropped boxes that are
// not confirmed as faces.
func (p *idPhoto) oneFace(faces []image.Rectangle, unconfirmed int) (image.Rectangle, error) {
	if len(faces) == 0 {
		why := ""
		if unconfirmed > 0 {
			why = fmt.Sprintf(" (%d face-like area(s) had no eyes and were not confirmed by a second detector)", unconfirmed)
		}
		return image.Rectangle{}, tool.Invalidf("path", "use a frontal portrait with the whole face visible, eyes open, well lit and not tilted", "no face was found in the photo%s", why)
	}
	largest := faces[0]
	for _, f := range faces {
		if f.Dx() > largest.Dx() {
			largest = f
		}
	}
	var main []image.Rectangle
	for _, f := range faces {
		if 2*f.Dx() >= largest.Dx() {
			main = append(main, f)
		}
	}
	if len(main) > 1 {
		return image.Rectangle{}, tool.Invalidf("path", "crop the photo to one person first (image_generator transform crop), or use a photo of one person",
			"%d faces were found in the photo (at %s); an ID photo needs exactly one", len(main), boxesText(main))
	}
	if largest.Dx() < p.cfg.MinFacePixels {
		return image.Rectangle{}, tool.Invalidf("path", "use a photo taken closer or at a higher resolution",
			"the face is %d pixels wide, below the %d pixels needed for print (tools.id_photo.min_face_pixels)", largest.Dx(), p.cfg.MinFacePixels)
	}
	return largest, nil
}

func boxesText(faces []image.Rectangle) string {
	s := ""
	for i, f := range faces {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d,%d %d×%d", f.Min.X, f.Min.Y, f.Dx(), f.Dy())
	}
	return s
}

// headTop is the crown's row, measured on the segmentation and kept within
// what a head can be above the face box. A head reaching the photo's top
// edge is cut off: its top cannot be known.
func headTop(who *person, face, b image.Rectangle) (float64, error) {
	fh := float64(face.Dy())
	least := float64(face.Min.Y) - crownAboveLeast*fh
	if who.TouchesTop || least < float64(b.Min.Y) {
		return 0, tool.Invalidf("path", cutOffHint, "the top of the head is cut off by the photo's top edge")
	}
	return math.Max(float64(face.Min.Y)-crownAboveMost*fh, math.Min(who.Crown, least)), nil
}

const cutOffHint = "use a photo showing the whole head with some space above it and the shoulders below"

// checkInside refuses a face cut off by the photo's edge, and a photo that
// ends before the bottom of the frame (the shoulders would be missing).
// Space missing above the crown or at the sides is padded instead.
func checkInside(fr frame, face, b image.Rectangle) error {
	margin := int(0.15 * float64(face.Dx())) // the ears and hair beside the face box
	switch {
	case face.Min.X-margin < b.Min.X || face.Max.X+margin > b.Max.X:
		return tool.Invalidf("path", cutOffHint, "the face is cut off by the photo's side edge")
	case fr.Chin > float64(b.Max.Y):
		return tool.Invalidf("path", cutOffHint, "the chin is cut off by the photo's bottom edge")
	case fr.Rect.Max.Y > b.Max.Y:
		return tool.Invalidf("path", cutOffHint, "the photo ends %d pixels above the bottom of the frame: the shoulders are cut off", fr.Rect.Max.Y-b.Max.Y)
	}
	return nil
}

// composite lays img over the colour bg through mask (255 = img).
func composite(img *image.NRGBA, mask *image.Gray, bg color.NRGBA) *image.NRGBA {
	out := image.NewNRGBA(img.Bounds())
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			a := int(mask.GrayAt(x, y).Y)
			i := img.PixOffset(x, y)
			for k, c := range [3]uint8{bg.R, bg.G, bg.B} {
				out.Pix[i+k] = uint8((int(img.Pix[i+k])*a + int(c)*(255-a) + 127) / 255)
			}
			out.Pix[i+3] = 255
		}
	}
	return out
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
