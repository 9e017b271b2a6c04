package exposure

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalizer folds a request into the form the keyword tables are written in:
// lower case, full-width ASCII to ASCII, traditional to simplified Chinese.
type normalizer struct {
	t2s map[rune]rune
}

func parseT2S(data []byte) (map[rune]rune, error) {
	m := make(map[rune]rune, 700)
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		for _, pair := range strings.Fields(text) {
			rs := []rune(pair)
			if len(rs) != 2 {
				return nil, fmt.Errorf("t2s line %d: %q is not one traditional and one simplified character", line, pair)
			}
			m[rs[0]] = rs[1]
		}
	}
	return m, sc.Err()
}

// fold maps one rune to its normal form.
func (n *normalizer) fold(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		r -= 0xFEE0
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	case r == 0x3000: // ideographic space
		return ' '
	case r == 0x3002 || r == 0xFF61: // 。
		return '.'
	case r == 0x3001: // 、
		return ','
	}
	if s, ok := n.t2s[r]; ok {
		return s
	}
	return unicode.ToLower(r)
}

// appendNormal appends the normal form of s to dst.
func (n *normalizer) appendNormal(dst []byte, s string) []byte {
	for _, r := range s {
		dst = utf8.AppendRune(dst, n.fold(r))
	}
	return dst
}

func (n *normalizer) normal(s string) string {
	return string(n.appendNormal(nil, s))
}

// isHan reports whether r is a CJK ideograph.
func isHan(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0xF900 && r <= 0xFAFF) || (r >= 0x20000 && r <= 0x2FA1F)
}

func isWordByte(b byte) bool {
	return ('a' <= b && b <= 'z') || ('0' <= b && b <= '9')
}

// Language returns "zh" when a request is mainly Chinese (at least as many
// Chinese characters as Latin words), else "en".
func Language(text string) string {
	han, words := 0, 0
	inWord := false
	for _, r := range text {
		switch {
		case isHan(r):
			han++
			inWord = false
		case r < utf8.RuneSelf && (('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')):
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
		}
	}
	if han > 0 && han >= words {
		return "zh"
	}
	return "en"
}
