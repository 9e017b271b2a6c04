package jail

import (
	"strings"
	"unicode/utf8"
)

// Capped keeps the first Limit bytes written to it and counts the rest, so
// a chatty program never blocks on a full pipe and never floods the result.
type Capped struct {
	Limit int
	buf   []byte
	total int64
}

// NewCapped returns a writer that keeps at most limit bytes.
func NewCapped(limit int) *Capped { return &Capped{Limit: limit} }

func (c *Capped) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	if room := c.Limit - len(c.buf); room > 0 {
		if len(p) > room {
			c.buf = append(c.buf, p[:room]...)
		} else {
			c.buf = append(c.buf, p...)
		}
	}
	return len(p), nil
}

// Total is the number of bytes written, kept or not.
func (c *Capped) Total() int64 { return c.total }

// Truncated reports whether bytes were dropped.
func (c *Capped) Truncated() bool { return c.total > int64(len(c.buf)) }

// String returns the kept bytes as valid UTF-8: a rune cut by the cap is
// dropped and invalid bytes become U+FFFD.
func (c *Capped) String() string {
	b := c.buf
	if c.Truncated() {
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

// lineWriter calls fn with every complete line written to it (without the
// newline); a line longer than maxLine is passed on in pieces. Flush passes
// the last, unterminated line.
type lineWriter struct {
	fn      func(string)
	partial []byte
}

const maxLine = 4 << 10

func (l *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			for len(l.partial) >= maxLine {
				l.fn(strings.ToValidUTF8(string(l.partial[:maxLine]), "\uFFFD"))
				l.partial = append(l.partial[:0], l.partial[maxLine:]...)
			}
			break
		}
		l.partial = append(l.partial, p[:i]...)
		l.fn(strings.ToValidUTF8(string(l.partial), "\uFFFD"))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (l *lineWriter) Flush() {
	if len(l.partial) > 0 {
		l.fn(strings.ToValidUTF8(string(l.partial), "\uFFFD"))
		l.partial = nil
	}
}
