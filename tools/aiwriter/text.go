package aiwriter

import (
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// countWords counts words, a CJK character counting as one.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r):
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !in {
				n++
			}
			in = true
		default:
			in = false
		}
	}
	return n
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	out := strings.Join(f, " ")
	if r := []rune(out); len(r) > 40 {
		out = string(r[:40])
	}
	return strings.Trim(out, "#*:：,. ")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func lastChars(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[len(r)-n:])
}

// stripHeading drops a heading the model repeated at the top of a section.
func stripHeading(text, heading string) string {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.HasPrefix(strings.TrimSpace(first), "#") || strings.EqualFold(strings.Trim(strings.TrimSpace(first), "#* "), heading) {
		return strings.TrimSpace(rest)
	}
	return text
}

var unsafeName = regexp.MustCompile(`[^\p{L}\p{N}]+`)

// safeStem makes a file name from a title.
func safeStem(title, fallback string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(title, "_"), "_")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60])
	}
	if s == "" {
		return fallback
	}
	return s
}

func extOf(p string) string { return filepath.Ext(p) }

func modelName(m string) string {
	if m == "" {
		return ""
	}
	return " " + m
}
