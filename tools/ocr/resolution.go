package ocr

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
)

// resolution is the pixel density, in dots per inch, an image file
// declares (PNG pHYs, JPEG JFIF, TIFF XResolution), or 0 when it declares
// none. The tesseract CLI reads it from the file; tesseract reading our
// re-encoded PNG is told it with --dpi, for without it tesseract guesses
// from the text and guesses worse (RapidOCR's black_font_color_transparent
// .png, 300 dpi: "中国人" instead of "我是中国人").
func resolution(raw []byte) float64 {
	switch {
	case bytes.HasPrefix(raw, []byte(pngMagic)):
		return pngResolution(raw)
	case bytes.HasPrefix(raw, []byte{0xff, 0xd8}):
		return jfifResolution(raw)
	case bytes.HasPrefix(raw, []byte("II*\x00")), bytes.HasPrefix(raw, []byte("MM\x00*")):
		return tiffResolution(raw)
	}
	return 0
}

const inchesPerMetre = 39.3701

// pngResolution reads the pHYs chunk (pixels per metre when its unit is 1).
func pngResolution(raw []byte) float64 {
	if d := pngChunk(raw, "pHYs"); len(d) == 9 && d[8] == 1 {
		return float64(binary.BigEndian.Uint32(d)) / inchesPerMetre
	}
	return 0
}

// jfifResolution reads the JFIF APP0 segment's density (unit 1: per inch,
// 2: per centimetre).
func jfifResolution(raw []byte) float64 {
	if len(raw) < 18 || raw[2] != 0xff || raw[3] != 0xe0 || string(raw[6:11]) != "JFIF\x00" {
		return 0
	}
	x := float64(binary.BigEndian.Uint16(raw[14:]))
	switch raw[13] {
	case 1:
		return x
	case 2:
		return x * 2.54
	}
	return 0
}

// tiffResolution reads XResolution and ResolutionUnit of the first IFD
// (unit 2, the default: per inch; 3: per centimetre).
func tiffResolution(raw []byte) float64 {
	typ, val, bo := tiffEntry(raw, 282)
	if typ != 5 || bo.Uint32(val[4:]) == 0 {
		return 0
	}
	res := float64(bo.Uint32(val)) / float64(bo.Uint32(val[4:]))
	unit := uint16(2)
	if typ, val, bo := tiffEntry(raw, 296); typ == 3 {
		unit = bo.Uint16(val)
	}
	switch unit {
	case 2:
		return res
	case 3:
		return res * 2.54
	}
	return 0
}

// dpiArg is the --dpi tesseract is given for an image of declared
// resolution dpi enlarged by scale: none when undeclared or outside what
// tesseract accepts (70-2400).
func dpiArg(dpi float64, scale int) []string {
	d := math.Round(dpi * float64(scale))
	if d < 70 || d > 2400 {
		return nil
	}
	return []string{"--dpi", strconv.Itoa(int(d))}
}
