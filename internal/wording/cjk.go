package wording

import "unicode"

// IsCJK reports whether r is Chinese, Japanese or Korean script, or CJK
// punctuation or a full-width form: the runes that want an East-Asian font
// and take no spaces between words.
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		unicode.Is(unicode.Hangul, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// HasCJK reports whether s holds any rune IsCJK accepts.
func HasCJK(s string) bool {
	for _, r := range s {
		if IsCJK(r) {
			return true
		}
	}
	return false
}

// HasHan reports whether s holds a Chinese character: the text is (at
// least partly) Chinese.
func HasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// HanShare is the share of Chinese characters (the common CJK Unified
// Ideographs) among the letters of s, Chinese and ASCII: 0 for English, 1
// for Chinese, 0 where s has neither. It picks a document's language.
func HanShare(s string) float64 {
	var han, letters int
	for _, r := range s {
		if r >= 0x4E00 && r <= 0x9FFF {
			han++
			letters++
		} else if r|0x20 >= 'a' && r|0x20 <= 'z' {
			letters++
		}
	}
	if letters == 0 {
		return 0
	}
	return float64(han) / float64(letters)
}
