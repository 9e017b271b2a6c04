package ocr

import (
	"bytes"
	"encoding/binary"
	"image"

	"github.com/disintegration/imaging"
)

// upright turns img, decoded from raw, as its EXIF orientation says: a
// photo is stored as the sensor saw it and turned by that tag, and
// tesseract would read it sideways. The tag is read from a JPEG's APP1, a
// TIFF's first IFD, a WebP's EXIF chunk and a PNG's eXIf chunk.
func upright(img image.Image, raw []byte) image.Image {
	switch exifOrientation(raw) {
	case 2:
		return imaging.FlipH(img)
	case 3:
		return imaging.Rotate180(img)
	case 4:
		return imaging.FlipV(img)
	case 5:
		return imaging.Transpose(img)
	case 6:
		return imaging.Rotate270(img)
	case 7:
		return imaging.Transverse(img)
	case 8:
		return imaging.Rotate90(img)
	}
	return img
}

// exifOrientation is the orientation tag (1-8) of an image file, 0 when
// it has none.
func exifOrientation(raw []byte) int {
	var tiff []byte
	switch {
	case bytes.HasPrefix(raw, []byte{0xff, 0xd8}):
		tiff = jpegEXIF(raw)
	case bytes.HasPrefix(raw, []byte("II*\x00")), bytes.HasPrefix(raw, []byte("MM\x00*")):
		tiff = raw
	case len(raw) >= 12 && string(raw[:4]) == "RIFF" && string(raw[8:12]) == "WEBP":
		tiff = bytes.TrimPrefix(riffChunk(raw[12:], "EXIF"), []byte("Exif\x00\x00"))
	case bytes.HasPrefix(raw, []byte(pngMagic)):
		tiff = pngChunk(raw, "eXIf")
	}
	typ, val, bo := tiffEntry(tiff, 274)
	if typ != 3 || len(val) < 2 {
		return 0
	}
	if o := int(bo.Uint16(val)); o >= 1 && o <= 8 {
		return o
	}
	return 0
}

// jpegEXIF is the TIFF data of a JPEG's "Exif" APP1 segment (those come
// before the image data), or nil.
func jpegEXIF(raw []byte) []byte {
	for p := 2; p+4 <= len(raw) && raw[p] == 0xff; {
		marker, n := raw[p+1], int(binary.BigEndian.Uint16(raw[p+2:]))
		if marker == 0xda || n < 2 || p+2+n > len(raw) { // start of scan
			return nil
		}
		if seg := raw[p+4 : p+2+n]; marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return seg[6:]
		}
		p += 2 + n
	}
	return nil
}

// riffChunk is the data of the first chunk named id in a RIFF body, or nil.
func riffChunk(body []byte, id string) []byte {
	for p := 0; p+8 <= len(body); {
		n := int(binary.LittleEndian.Uint32(body[p+4:]))
		if n < 0 || n > len(body)-p-8 {
			return nil
		}
		if string(body[p:p+4]) == id {
			return body[p+8 : p+8+n]
		}
		p += 8 + n + n%2
	}
	return nil
}

const pngMagic = "\x89PNG\r\n\x1a\n"

// pngChunk is the data of the first chunk named typ before the image
// data, or nil.
func pngChunk(raw []byte, typ string) []byte {
	for p := len(pngMagic); p+12 <= len(raw); {
		n := int(binary.BigEndian.Uint32(raw[p:]))
		t := string(raw[p+4 : p+8])
		if n < 0 || n > len(raw)-p-12 || t == "IDAT" || t == "IEND" {
			return nil
		}
		if t == typ {
			return raw[p+8 : p+8+n]
		}
		p += 12 + n
	}
	return nil
}

// tiffEntry finds tag in the first IFD of TIFF data and returns its type,
// its value bytes (in place, or at the offset the entry gives) and the
// data's byte order; type 0 when absent or out of bounds.
func tiffEntry(tiff []byte, tag uint16) (uint16, []byte, binary.ByteOrder) {
	if len(tiff) < 8 {
		return 0, nil, nil
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if tiff[0] == 'M' {
		bo = binary.BigEndian
	}
	ifd := int64(bo.Uint32(tiff[4:]))
	if ifd+2 > int64(len(tiff)) {
		return 0, nil, nil
	}
	size := map[uint16]int64{1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8}
	for i := range int64(bo.Uint16(tiff[ifd:])) {
		e := ifd + 2 + 12*i
		if e+12 > int64(len(tiff)) {
			return 0, nil, nil
		}
		if bo.Uint16(tiff[e:]) != tag {
			continue
		}
		typ := bo.Uint16(tiff[e+2:])
		n := size[typ] * int64(bo.Uint32(tiff[e+4:]))
		if n == 0 || n > 1<<20 {
			return 0, nil, nil
		}
		if n <= 4 {
			return typ, tiff[e+8 : e+8+n], bo
		}
		off := int64(bo.Uint32(tiff[e+8:]))
		if off+n > int64(len(tiff)) {
			return 0, nil, nil
		}
		return typ, tiff[off : off+n], bo
	}
	return 0, nil, nil
}
