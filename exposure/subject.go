package exposure

import (
	"slices"
	"unicode/utf8"
)

// The subject of a task is not the task. A request names its task with a
// verb and an object ("write a resume", "add a watermark", "拆出第3到第5页")
// and often says what the artefact is about or which existing thing it
// works on: "a resume for a junior data analyst", "a watermark to the
// contract PDF", "关于新能源汽车的汇报", "把扫描件里第3到第5页拆出来". The
// words of such a subject span are topic words: when a specific phrase
// (a strong keyword) outside the spans names the task, keywords found only
// inside them are not evidence, and a clause inside one is not a task of
// its own. A request whose only words are in a subject span ("tell me
// about the weather") is judged by them as before.

// English phrases that open a subject span, in normal form; each must
// stand as words. "to a"/"to an" are left out: "convert it to a PDF" names
// the output, not the subject.
var enSubjectMarkers = []string{
	"for a", "for an", "for the", "for my", "for our", "for your", "for this", "for these",
	"to the", "to my", "to our", "to your", "to this", "to that", "to these",
	"about", "regarding", "concerning",
}

// English words that end a subject span: a connective (a new task
// starts) or a preposition (the subject's noun phrase is over: "to the
// team on telegram" names the recipient, not the channel). "with" and "of"
// do not end it ("a data analyst with python", "a map of the chapters").
// A bare "and" ends it too, unless one word follows before the end, a
// list's last item ("with python and sql").
var enSubjectEnds = []string{"and then", "then", "after that", "afterwards", "also", "finally",
	"on", "in", "at", "by", "via", "using", "from", "into", "over", "through", "during", "before", "after", "until", "to", "as"}

// Chinese: a topic runs from 关于/有关 to the next 的; a container from 把/从
// to a locative 里/中/内 at most maxContainerRunes later ("把扫描件里…",
// "从报表中…"): the verb after it works on a part of the container. A
// locative after 到/进/在/入 is a destination ("把金额记到账本里"), not a
// container.
var (
	zhTopicMarkers     = []string{"关于", "有关"}
	zhContainerMarkers = []rune{'把', '从'}
	zhLocatives        = []rune{'里', '中', '内'}
	zhDestinations     = []rune{'到', '进', '在', '入'}
	// 给X加/添/盖/打/插/标…: X is the target something is added onto
	// ("给合同PDF加上页码").
	zhTargetMarker = '给'
	zhTargetVerbs  = []rune{'加', '添', '盖', '打', '插', '标'}
)

const maxContainerRunes = 10

// subjectSpans appends the subject spans [start,end) of normalised text.
func subjectSpans(text []byte, dst [][2]int32) [][2]int32 {
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			if i == 0 || !isWordByte(text[i-1]) {
				if n := matchWord(text[i:], enSubjectMarkers); n > 0 {
					end := enSubjectEnd(text, i+n)
					dst = appendSpan(dst, i+n, end)
					i = end
					continue
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if n := matchAny(text[i:], zhTopicMarkers); n > 0 {
			end := zhTopicEnd(text, i+n)
			dst = appendSpan(dst, i+n, end)
			i = end
			continue
		}
		if r == zhTargetMarker {
			if end, ok := zhSpanEnd(text, i+size, zhTargetVerbs, false); ok {
				dst = appendSpan(dst, i+size, end)
				i = end
				continue
			}
		}
		if slices.Contains(zhContainerMarkers, r) {
			if end, ok := zhSpanEnd(text, i+size, zhLocatives, true); ok {
				dst = appendSpan(dst, i+size, end)
				i = end
				continue
			}
		}
		i += size
	}
	return dst
}

func appendSpan(dst [][2]int32, start, end int) [][2]int32 {
	if end > start {
		dst = append(dst, [2]int32{int32(start), int32(end)})
	}
	return dst
}

// matchWord is matchAny for English words: the match must end at a word
// boundary.
func matchWord(text []byte, words []string) int {
	for _, w := range words {
		if len(text) >= len(w) && string(text[:len(w)]) == w && (len(text) == len(w) || !isWordByte(text[len(w)])) {
			return len(w)
		}
	}
	return 0
}

// isClauseCut reports whether the byte at i ends a clause: , ; ! ? a
// newline, or a full stop before a space or the end.
func isClauseCut(text []byte, i int) bool {
	switch text[i] {
	case ',', ';', '!', '?', '\n':
		return true
	case '.':
		return i+1 == len(text) || text[i+1] == ' '
	}
	return false
}

// enSubjectEnd returns where an English subject span starting at i ends: a
// clause cut, a connective that starts a new task, or the end of the text.
func enSubjectEnd(text []byte, i int) int {
	for j := i; j < len(text); j++ {
		if isClauseCut(text, j) {
			return j
		}
		if j == 0 || !isWordByte(text[j-1]) {
			if matchWord(text[j:], enSubjectEnds) > 0 {
				return j
			}
			if n := matchWord(text[j:], []string{"and"}); n > 0 && !lastWord(text[j+n:]) {
				return j
			}
		}
		if text[j] >= 0xC0 {
			if matchAny(text[j:], zhConnectives) > 0 {
				return j
			}
		}
	}
	return len(text)
}

// lastWord reports whether text holds one word before a clause cut or its
// end.
func lastWord(text []byte) bool {
	words, in := 0, false
	for i := 0; i < len(text) && !isClauseCut(text, i); i++ {
		w := isWordByte(text[i]) || text[i] >= 0x80
		if w && !in {
			words++
		}
		in = w
	}
	return words == 1
}

// zhTopicEnd returns the end of a topic span: its first 的, or a clause cut.
func zhTopicEnd(text []byte, i int) int {
	for j := i; j < len(text); {
		if isClauseCut(text, j) {
			return j
		}
		r, size := utf8.DecodeRune(text[j:])
		if r == '的' {
			return j
		}
		j += size
	}
	return len(text)
}

// zhSpanEnd returns the end of a span opened at i and closed by one of
// closers within maxContainerRunes, with no clause cut or destination
// between; a locative closer is part of the span (a container: "扫描件里"),
// a verb closer is not.
func zhSpanEnd(text []byte, i int, closers []rune, keep bool) (int, bool) {
	for j, n := i, 0; j < len(text) && n <= maxContainerRunes; n++ {
		if isClauseCut(text, j) {
			return 0, false
		}
		r, size := utf8.DecodeRune(text[j:])
		if slices.Contains(zhDestinations, r) {
			return 0, false
		}
		if slices.Contains(closers, r) {
			if keep {
				return j + size, j > i
			}
			return j, j > i
		}
		j += size
	}
	return 0, false
}
