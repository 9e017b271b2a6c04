package shell

import (
	"strings"
	"unicode/utf8"
)

// capped keeps the first limit bytes written to it and counts the rest, so
// a chatty program never blocks on a full pipe and never floods the result.
type capped struct {
	limit int
	buf   []byte
	total int64
}

func (c *capped) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	if room := c.limit - len(c.buf); room > 0 {
		if len(p) > room {
			c.buf = append(c.buf, p[:room]...)
		} else {
			c.buf = append(c.buf, p...)
		}
	}
	return len(p), nil
}

// String returns the kept bytes as valid UTF-8: a rune cut by the cap is
// dropped and invalid bytes become U+FFFD.
func (c *capped) String() string {
	b := c.buf
	if c.total > int64(len(b)) {
		// Drop a trailing partial rune left by the cut.
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			r, size := utf8.DecodeLastRune(b)
			if r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
