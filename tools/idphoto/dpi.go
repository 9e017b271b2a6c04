package idphoto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"math"
)

// encode encodes img as PNG or JPEG with its resolution set to dpi: a pHYs
// chunk after the PNG header, or a JFIF APP0 segment (density in dots per
// inch) after the JPEG start marker. Go's encoders write neither.
func encode(img image.Image, format string) ([]byte, error) {
	var buf bytes.Buffer
	if format == "png" {
		if err := png.Encode(&buf, img); err != nil {
			return nil, err
		}
		return withPHYs(buf.Bytes(), dpi)
	}
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		return nil, err
	}
	return withJFIF(buf.Bytes(), dpi)
}

// withPHYs inserts a pHYs chunk (pixels per metre) after IHDR.
func withPHYs(p []byte, dpi int) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, length, type, data, CRC
	if len(p) < ihdrEnd || string(p[12:16]) != "IHDR" {
		return nil, errors.New("not a PNG")
	}
	ppm := uint32(math.Round(float64(dpi) / 0.0254))
	data := make([]byte, 9)
	binary.BigEndian.PutUint32(data[0:], ppm)
	binary.BigEndian.PutUint32(data[4:], ppm)
	data[8] = 1 // unit: metre
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	chunk = append(chunk, "pHYs"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte{}, p[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, p[ihdrEnd:]...), nil
}

// withJFIF inserts a JFIF 1.01 APP0 segment with the density after SOI.
func withJFIF(p []byte, dpi int) ([]byte, error) {
	if len(p) < 4 || p[0] != 0xFF || p[1] != 0xD8 {
		return nil, errors.New("not a JPEG")
	}
	seg := []byte{0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 1}
	seg = binary.BigEndian.AppendUint16(seg, uint16(dpi))
	seg = binary.BigEndian.AppendUint16(seg, uint16(dpi))
	seg = append(seg, 0, 0) // no thumbnail
	out := append([]byte{}, p[:2]...)
	out = append(out, seg...)
	return append(out, p[2:]...), nil
}

// readDPI reads the resolution back from a PNG pHYs chunk or a JPEG JFIF
// segment; 0 when none is set.
func readDPI(p []byte) float64 {
	switch {
	case bytes.HasPrefix(p, []byte("\x89PNG\r\n\x1a\n")):
		for i := 8; i+12 <= len(p); {
			n := int(binary.BigEndian.Uint32(p[i:]))
			if string(p[i+4:i+8]) == "pHYs" && n == 9 && i+17 <= len(p) && p[i+16] == 1 {
				return float64(binary.BigEndian.Uint32(p[i+8:])) * 0.0254
			}
			if string(p[i+4:i+8]) == "IDAT" {
				return 0
			}
			i += 12 + n
		}
	case len(p) > 20 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF && p[3] == 0xE0 && string(p[6:11]) == "JFIF\x00" && p[13] == 1:
		return float64(binary.BigEndian.Uint16(p[14:]))
	}
	return 0
}
