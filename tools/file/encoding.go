package file

import (
	"bytes"
	"io"
	"os"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// sampleSize is how much of a file encoding detection looks at. A file whose
// first MiB is ASCII and whose later part is GBK is read as UTF-8; reading it
// again with encoding=gb18030 fixes that.
const sampleSize = 1 << 20

// sniffed is what detection learned from the start of a file.
type sniffed struct {
	Encoding string // "utf-8", "gb18030", "utf-16le", "utf-16be", "" when unknown
	BOM      int    // bytes of byte-order mark to skip
	Binary   bool
}

// readSample reads up to n bytes from the start of r; full reports that the
// whole content was read.
func readSample(r io.Reader, n int) (sample []byte, full bool, err error) {
	known := int64(-1)
	if f, ok := r.(*os.File); ok {
		// A small file gets a small buffer: stat and friends call this for
		// every file, and most files are far below the sample size.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			known = st.Size()
		}
	}
	return readSampleSized(r, n, known)
}

// readSampleSized is readSample for a regular file whose size the caller
// has just read (-1: unknown), without another stat.
func readSampleSized(r io.Reader, n int, known int64) (sample []byte, full bool, err error) {
	size := n
	if known >= 0 && known < int64(n) {
		size = int(known)
	}
	buf := make([]byte, size+1)
	k, err := io.ReadFull(r, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return buf[:k], true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if size < n { // the file grew since the stat: what was read is a sample
		return buf[:k], false, nil
	}
	return buf[:n], false, nil
}

// detect classifies a sample: BOMs first, then NUL bytes mean binary, then
// valid UTF-8, then structurally valid GB18030 (which covers GBK and GB2312),
// then a high share of control bytes means binary.
func detect(b []byte, full bool) sniffed {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return sniffed{Encoding: "utf-8", BOM: 3}
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return sniffed{Encoding: "utf-16le", BOM: 2}
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return sniffed{Encoding: "utf-16be", BOM: 2}
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return sniffed{Binary: true}
	}
	if validUTF8(b, full) {
		return sniffed{Encoding: "utf-8"}
	}
	if validGB18030(b, full) {
		return sniffed{Encoding: "gb18030"}
	}
	ctrl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b {
			ctrl++
		}
	}
	if len(b) > 0 && ctrl*20 > len(b) {
		return sniffed{Binary: true}
	}
	return sniffed{}
}

// validUTF8 accepts a sample cut in the middle of a character when the
// sample is not the whole file.
func validUTF8(b []byte, full bool) bool {
	if !full {
		for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				if !utf8.FullRune(b[len(b)-i:]) {
					b = b[:len(b)-i]
				}
				break
			}
		}
	}
	return utf8.Valid(b)
}

// validGB18030 checks the byte structure of GB18030: ASCII, two-byte
// sequences (lead 0x81-0xFE, trail 0x40-0x7E or 0x80-0xFE) and four-byte
// sequences (0x81-0xFE, 0x30-0x39, 0x81-0xFE, 0x30-0x39). The x/text decoder
// replaces bad sequences instead of failing, so structure is checked here.
func validGB18030(b []byte, full bool) bool {
	multi := false
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			i++
			continue
		}
		if c == 0x80 || c == 0xFF {
			return false
		}
		if i+1 >= len(b) {
			return !full && multi
		}
		c2 := b[i+1]
		if c2 >= 0x30 && c2 <= 0x39 {
			if i+3 >= len(b) {
				return !full && multi
			}
			if c3, c4 := b[i+2], b[i+3]; c3 < 0x81 || c3 > 0xFE || c4 < 0x30 || c4 > 0x39 {
				return false
			}
			i += 4
			multi = true
			continue
		}
		if c2 < 0x40 || c2 == 0x7F || c2 == 0xFF {
			return false
		}
		i += 2
		multi = true
	}
	return multi
}

// codec returns the x/text encoding for a name.
func codec(name string) encoding.Encoding {
	switch name {
	case "gb18030":
		return simplifiedchinese.GB18030
	case "gbk":
		return simplifiedchinese.GBK
	case "utf-16le":
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case "utf-16be":
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	case "latin1":
		return charmap.ISO8859_1
	default:
		// The UTF-8 "decoder" replaces invalid bytes with U+FFFD.
		return unicode.UTF8
	}
}

// bomFor is the BOM length to skip when reading with a forced encoding.
func bomFor(s sniffed, enc string) int {
	if s.Encoding == enc {
		return s.BOM
	}
	return 0
}
