package knowledge

import (
	"strings"
	"unicode"
)

// chunk is one indexed passage: a piece of one section of one file.
type chunk struct {
	Ord     int      // position among the file's chunks, from 0
	Page    int      // 0 when the format has no pages
	Heading []string // heading path, outer to inner
	Start   int      // rune offsets in the file's extracted text
	End     int
	Text    string
}

// chunkSections cuts sections into chunks by structure: a chunk never spans
// two sections (headings, pages); inside a section paragraphs are packed up
// to maxChars runes, a longer paragraph is cut at sentence ends (or, failing
// those, at maxChars), and each chunk after the first of a section repeats
// up to overlap runes of the one before, from a word or sentence boundary.
func chunkSections(secs []section, maxChars, overlap int) []chunk {
	var out []chunk
	for _, s := range secs {
		r := []rune(s.Text)
		prevEnd := -1
		emit := func(start, end int) {
			if prevEnd > 0 && overlap > 0 {
				start = overlapStart(r, prevEnd, overlap, start)
			}
			out = append(out, chunk{Ord: len(out), Page: s.Page, Heading: s.Heading,
				Start: s.Start + start, End: s.Start + end, Text: string(r[start:end])})
			prevEnd = end
		}
		curStart, curEnd := -1, -1
		for _, p := range pieces(r, maxChars) {
			if curStart >= 0 && p[1]-curStart > maxChars {
				emit(curStart, curEnd)
				curStart = -1
			}
			if curStart < 0 {
				curStart = p[0]
			}
			curEnd = p[1]
		}
		if curStart >= 0 {
			emit(curStart, curEnd)
		}
	}
	return out
}

// overlapStart moves a chunk's start back into the previous chunk by up to
// overlap runes, to just after a sentence end or space, so the repeated text
// starts on a boundary; with no boundary there it does not overlap.
func overlapStart(r []rune, prevEnd, overlap, start int) int {
	from := max(prevEnd-overlap, 0)
	for i := from; i < prevEnd; i++ {
		if i > 0 && (sentenceEnd(r[i-1]) || unicode.IsSpace(r[i-1])) && !unicode.IsSpace(r[i]) {
			return min(i, start)
		}
	}
	return start
}

// pieces splits runes into paragraphs (at blank lines), trimmed of space,
// and cuts a paragraph longer than maxChars at sentence ends, then hard.
func pieces(r []rune, maxChars int) [][2]int {
	var out [][2]int
	start := 0
	add := func(s, e int) {
		for s < e && unicode.IsSpace(r[s]) {
			s++
		}
		for e > s && unicode.IsSpace(r[e-1]) {
			e--
		}
		for e-s > maxChars {
			cut := s + maxChars
			for i := cut; i > s+maxChars/2; i-- {
				if sentenceEnd(r[i-1]) {
					cut = i
					break
				}
			}
			out = append(out, [2]int{s, cut})
			s = cut
			for s < e && unicode.IsSpace(r[s]) {
				s++
			}
		}
		if e > s {
			out = append(out, [2]int{s, e})
		}
	}
	for i := 0; i < len(r); i++ {
		if r[i] == '\n' && blankLineAfter(r, i) {
			add(start, i)
			start = i + 1
		}
	}
	add(start, len(r))
	return out
}

// blankLineAfter reports whether the line after the newline at i is blank.
func blankLineAfter(r []rune, i int) bool {
	for j := i + 1; j < len(r); j++ {
		switch r[j] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f':
			continue
		}
		return false
	}
	return true
}

func sentenceEnd(c rune) bool { return strings.ContainsRune(".!?;。！？；\n", c) }

// headingText joins a heading path for results.
func headingText(h []string) string { return strings.Join(h, " > ") }
