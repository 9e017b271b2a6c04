package docx

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // decoders for image.DecodeConfig
	_ "image/jpeg"
	"image/png"
	"strconv"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// NormalizeImage returns image bytes in a format Office embeds (PNG, JPEG,
// GIF), converting others to PNG, with the file extension and pixel size.
func NormalizeImage(data []byte) (out []byte, ext string, w, h int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", 0, 0, fmt.Errorf("image: unrecognised format (PNG, JPEG, GIF, BMP, TIFF or WebP expected): %w", err)
	}
	switch format {
	case "png", "jpeg", "gif":
		return data, format, cfg.Width, cfg.Height, nil
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", 0, 0, fmt.Errorf("image: decode %s: %w", format, err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, "", 0, 0, fmt.Errorf("image: encode png: %w", err)
	}
	return buf.Bytes(), "png", cfg.Width, cfg.Height, nil
}

// FitEMU scales a w×h pixel image (at 96 dpi) to fit maxW×maxH EMU, keeping
// the aspect ratio and never enlarging.
func FitEMU(w, h int, maxW, maxH int64) (int64, int64) {
	cx, cy := int64(w)*9525, int64(h)*9525
	if cx <= 0 || cy <= 0 {
		return maxW, maxW / 2
	}
	if cx > maxW {
		cy = cy * maxW / cx
		cx = maxW
	}
	if maxH > 0 && cy > maxH {
		cx = cx * maxH / cy
		cy = maxH
	}
	return cx, cy
}

func (w *writer) image(img Image) error {
	data, ext, pw, ph, err := NormalizeImage(img.Data)
	if err != nil {
		return fmt.Errorf("docx: %w", err)
	}
	maxW := w.opts.contentWidthEMU()
	if img.WidthMM > 0 {
		if want := int64(img.WidthMM / 25.4 * 914400); want < maxW {
			maxW = want
			// An explicit width may enlarge a small image.
			if cx := int64(pw) * 9525; cx < maxW && pw > 0 {
				pw, ph = int(maxW/9525), int(int64(ph)*maxW/cx)
			}
		}
	}
	cx, cy := FitEMU(pw, ph, maxW, w.opts.contentHeightEMU()*85/100)
	w.drawID++
	id := w.drawID
	name := "image" + strconv.Itoa(id) + "." + ext
	w.media = append(w.media, media{name: name, data: data})
	rid := w.addRel(relImage, "media/"+name, "")
	fmt.Fprintf(&w.body, `<w:p><w:pPr><w:keepNext/><w:jc w:val="center"/></w:pPr><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="%d" cy="%d"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="%d" name="Picture %d" descr="%s"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="%d" name="%s"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="%s"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
		cx, cy, id, id, esc(img.Alt), id, name, rid, cx, cy)
	if img.Caption != "" {
		w.para(pPr{style: "Caption"}, Text(img.Caption))
	}
	return nil
}
