package convert

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp" // decoder registration

	"github.com/clawbridge/clawbridge/tools/tool"
)

// maxImagePixels refuses decompression bombs before decoding.
const maxImagePixels = 100_000_000

func (cv *converter) image(_ context.Context, c *tool.Call, src *source, to string) ([]byte, map[string]any, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(src.data))
	if err != nil {
		return nil, nil, tool.Invalidf("path", "give a png, jpeg, gif, bmp, tiff or webp image", "cannot read the image: %v", err)
	}
	if cfg.Width*cfg.Height > maxImagePixels {
		return nil, nil, tool.Errorf(tool.CodeTooLarge, "", "the image is %dx%d pixels, above the 100 megapixel limit", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(src.data))
	if err != nil {
		return nil, nil, tool.Invalidf("path", "", "cannot decode the %s image: %v", format, err)
	}
	facts := map[string]any{"width": cfg.Width, "height": cfg.Height, "source_format": format}
	if format == "gif" {
		if g, err := gif.DecodeAll(bytes.NewReader(src.data)); err == nil && len(g.Image) > 1 && to != "gif" {
			facts["note"] = fmt.Sprintf("animated GIF: only the first of %d frames was converted", len(g.Image))
		}
	}
	var buf bytes.Buffer
	switch to {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		// JPEG has no alpha: flatten onto white rather than black.
		err = jpeg.Encode(&buf, flatten(img), &jpeg.Options{Quality: c.Args.Int("quality", 90)})
	case "gif":
		err = gif.Encode(&buf, img, &gif.Options{NumColors: 256})
	case "bmp":
		err = bmp.Encode(&buf, img)
	case "tiff":
		err = tiff.Encode(&buf, img, &tiff.Options{Compression: tiff.Deflate, Predictor: true})
	default:
		return nil, nil, tool.Invalid("to", "unsupported image format "+to, "png, jpeg, gif, bmp, tiff")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("convert image to %s: %w", to, err)
	}
	return buf.Bytes(), facts, nil
}

func flatten(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, b, img, b.Min, draw.Over)
	return out
}
