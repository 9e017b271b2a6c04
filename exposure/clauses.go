package exposure

import (
	"bytes"
	"cmp"
	"slices"
	"unicode/utf8"
)

// Composite requests name several tasks in one sentence ("grab the table
// from <url> and turn it into an excel sheet with a chart"). The whole text
// is detected as before; it is also cut into clauses on the connectives of
// both languages, and each clause is detected on its own, so a second task
// whose words are outweighed by the first one's still gets its best tool.
// A clause only adds: one that detects nothing changes nothing.

// Clause is one clause of a composite request and the tool it points at.
type Clause struct {
	Text       string  `json:"text"`
	Tool       string  `json:"tool"`
	Confidence float64 `json:"confidence"`
}

// Connectives that start a new clause, in normal form (simplified Chinese,
// lower case). English ones must stand as words. Punctuation between clauses
// (, ; ! ? newline, and a full stop before a space) also cuts.
var (
	zhConnectives = []string{"然后", "之后", "接着", "顺便", "并且", "同时", "另外", "还要", "最后", "再把", "再将", "再用", "再做", "再生成", "再导出", "再转", "再发", "再加", "再画", "再给", "再去", "再排", "再"}
	enConnectives = []string{"and then", "after that", "afterwards", "as well as", "then", "and", "also", "plus", "finally"}
)

// The first rune of each Chinese connective and the first byte of each
// English one: most of a text is rejected on them without a comparison.
var (
	zhConnectiveStarts = func() []rune {
		var rs []rune
		for _, c := range zhConnectives {
			if r, _ := utf8.DecodeRuneInString(c); !slices.Contains(rs, r) {
				rs = append(rs, r)
			}
		}
		return rs
	}()
	enConnectiveStart = func() (t [256]bool) {
		for _, c := range enConnectives {
			t[c[0]] = true
		}
		return t
	}()
)

// clauseMinEvidence is the evidence a clause needs before its best tool joins
// the view: a medium word, or a weak word with lexical support. A lone weak
// word ("画个") is too little to add a tool on its own.
const clauseMinEvidence = 1.5

// maxClauses bounds the clauses detected one by one (a pasted document is
// judged by its first few).
const maxClauses = 6

// splitClauses returns the spans [start,end) of the clauses of normalised
// text, without the connectives. A text without connectives is one clause.
func splitClauses(text []byte, dst [][2]int32) [][2]int32 {
	start := 0
	cut := func(at, next int) {
		if at > start {
			dst = append(dst, [2]int32{int32(start), int32(at)})
		}
		start = next
	}
	for i := 0; i < len(text); {
		switch b := text[i]; {
		case b == ',' || b == ';' || b == '!' || b == '?' || b == '\n':
			cut(i, i+1)
			i++
			continue
		case b == '.' && (i+1 == len(text) || text[i+1] == ' '):
			cut(i, i+1)
			i++
			continue
		case b >= 0xC0: // a rune start: Chinese connectives
			r, size := utf8.DecodeRune(text[i:])
			if !slices.Contains(zhConnectiveStarts, r) {
				i += size
				continue
			}
			if n := matchAny(text[i:], zhConnectives); n > 0 {
				cut(i, i+n)
				i += n
				continue
			}
		case enConnectiveStart[b] && (i == 0 || !isWordByte(text[i-1])):
			if n := matchAny(text[i:], enConnectives); n > 0 && (i+n == len(text) || !isWordByte(text[i+n])) {
				cut(i, i+n)
				i += n
				continue
			}
		}
		i++
	}
	cut(len(text), len(text))
	return dst
}

// matchAny returns the length of the first of words that text starts with.
func matchAny(text []byte, words []string) int {
	for _, w := range words {
		if len(text) >= len(w) && string(text[:len(w)]) == w {
			return len(w)
		}
	}
	return 0
}

// clauses scores each clause of a composite request (spans in s.spans
// over s.norm) and returns, in text order, the best tool of every intent
// with enough evidence of its own in a clause. A clause is scored on its
// normal form as it stands (no second normalisation) and only its intents'
// scores and tools are read: no lists are built for it.
func (d *Detector) clauses(s *scratch) []Clause {
	s.whole = append(s.whole[:0], s.norm...)
	var out []Clause
	for _, sp := range s.spans[:min(len(s.spans), maxClauses)] {
		part := bytes.TrimSpace(s.whole[sp[0]:sp[1]])
		// A clause inside the whole text's subject ("for a data analyst
		// with python and sql") is not a task of its own.
		if len(part) == 0 || slices.ContainsFunc(s.wholeSub, func(w [2]int32) bool { return sp[0] >= w[0] && sp[1] <= w[1] }) {
			continue
		}
		s.norm = append(s.norm[:0], part...)
		d.score(s)
		// Every intent with evidence of its own in the clause names a task:
		// its best tool joins, strongest intent first. A clause that names
		// two tasks without a connective ("写个 summary 发 email") gives
		// both, and a clause whose best tool an earlier clause already gave
		// ("搜…论文，挑五篇写个综述") still gives its other task's.
		s.order = s.order[:0]
		for i, e := range s.iscore {
			if e >= clauseMinEvidence {
				s.order = append(s.order, int32(i))
			}
		}
		slices.SortStableFunc(s.order, func(a, b int32) int { return cmp.Compare(s.iscore[b], s.iscore[a]) })
		for _, in := range s.order {
			tool, best := "", 0.0
			for t, e := range s.tscore {
				if e > best && slices.Contains(d.toolInts[t], in) {
					tool, best = d.tools[t], e
				}
			}
			if rec := d.t.Priority[d.intents[in]].Recommended; tool == "" && len(rec) > 0 {
				tool = rec[0]
			}
			if tool == "" || slices.ContainsFunc(out, func(c Clause) bool { return c.Tool == tool }) {
				continue
			}
			out = append(out, Clause{Text: string(part), Tool: tool, Confidence: round3(strength(s.iscore[in]))})
		}
	}
	if len(out) < 2 {
		// One clause with evidence: the whole text already says it all.
		return nil
	}
	return out
}

// signals maps the artefact words' patterns (in the detector's matcher)
// to tools: output formats to the tools that make them, file extensions to
// the tools that read them; a URL points at the web tools, an e-mail
// address at the mail tool, a clock time at the scheduler.
type signals struct {
	formats [][]string // pattern -> producing tools
	exts    [][]string // pattern -> reading tools (when it follows "name.")
	url     []string
	address []string // an e-mail address
	time    []string // a clock time
}

func newSignals(s Signals) *signals {
	return &signals{url: s.URL, address: s.Address, time: s.Time}
}

func (sg *signals) grow(id int32) {
	for int(id) >= len(sg.formats) {
		sg.formats = append(sg.formats, nil)
		sg.exts = append(sg.exts, nil)
	}
}

func (sg *signals) addFormat(id int32, tool string) {
	sg.grow(id)
	sg.formats[id] = appendNew(sg.formats[id], tool)
}

func (sg *signals) addExt(id int32, tool string) {
	sg.grow(id)
	sg.exts[id] = appendNew(sg.exts[id], tool)
}

// find returns the tools the artefacts of normalised text point at, in text
// order, from the occurrences of the detector's scan; dead are the spans of
// URLs and file base names.
func (sg *signals) find(norm []byte, occ []occurrence, dead [][2]int32) []string {
	var out []string
	for _, o := range occ {
		if o.pat < 0 || int(o.pat) >= len(sg.formats) || inSpans(o, dead) {
			continue
		}
		if o.start > 1 && norm[o.start-1] == '.' && (isWordByte(norm[o.start-2]) || norm[o.start-2] >= 0x80) {
			for _, t := range sg.exts[o.pat] {
				out = appendNew(out, t)
			}
			continue
		}
		for _, t := range sg.formats[o.pat] {
			out = appendNew(out, t)
		}
	}
	if bytes.Contains(norm, []byte("http://")) || bytes.Contains(norm, []byte("https://")) || bytes.Contains(norm, []byte("www.")) {
		for _, t := range sg.url {
			out = appendNew(out, t)
		}
	}
	if hasAddress(norm) {
		for _, t := range sg.address {
			out = appendNew(out, t)
		}
	}
	if hasClockTime(norm) {
		for _, t := range sg.time {
			out = appendNew(out, t)
		}
	}
	return out
}

// hasAddress reports whether normalised text holds an e-mail address.
func hasAddress(norm []byte) bool {
	for i := bytes.IndexByte(norm, '@'); i >= 0; {
		start, end := i, i+1
		for start > 0 && (isWordByte(norm[start-1]) || norm[start-1] == '.' || norm[start-1] == '-' || norm[start-1] == '_') {
			start--
		}
		for end < len(norm) && (isWordByte(norm[end]) || norm[end] == '.' || norm[end] == '-') {
			end++
		}
		if start < i && isAddress(norm[start:end]) {
			return true
		}
		next := bytes.IndexByte(norm[i+1:], '@')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// hasClockTime reports whether normalised text names a time of day: a
// number of hours with am/pm ("7am", "8 pm"), hours and minutes ("8:30"),
// an hour and 点 ("7点", "早上8点半"), or "at" and an hour that ends the
// clause or is followed by a word of time or purpose ("at 9 to call mum",
// "at 7 tomorrow"); "at 5 places" and "at 3 sites" say where, not when.
func hasClockTime(norm []byte) bool {
	for i := 0; i < len(norm); i++ {
		if !isDigit(norm[i]) || (i > 0 && isDigit(norm[i-1])) {
			continue
		}
		j := i
		for j < len(norm) && isDigit(norm[j]) {
			j++
		}
		if j-i > 2 || (j-i == 2 && (norm[i] > '2' || norm[i] == '2' && norm[i+1] > '4')) {
			i = j // not an hour of the day (50点 is a score)
			continue
		}
		rest := norm[j:]
		switch {
		case hasPrefix(rest, "点") || hasPrefix(rest, "點"):
			return true
		case len(rest) >= 3 && rest[0] == ':' && isDigit(rest[1]) && isDigit(rest[2]) && (len(rest) == 3 || !isDigit(rest[3])):
			return true
		}
		r := bytes.TrimLeft(rest, " ")
		if (hasPrefix(r, "am") || hasPrefix(r, "pm")) && (len(r) == 2 || !isWordByte(r[2])) {
			return true
		}
		if i >= 3 && string(norm[i-3:i]) == "at " && (i == 3 || !isWordByte(norm[i-4])) && (len(rest) == 0 || !isWordByte(rest[0])) && atHour(r) {
			return true
		}
		i = j
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// atHourWords may follow "at N" when N is a time.
var atHourWords = []string{"to", "and", "then", "today", "tonight", "tomorrow", "every", "each", "sharp", "o'clock", "oclock", "in", "on", "please"}

// atHour reports whether what follows "at N" (spaces trimmed) lets N be an
// hour: nothing, punctuation, or one of atHourWords.
func atHour(r []byte) bool {
	if len(r) == 0 || !isWordByte(r[0]) {
		return true
	}
	k := 0
	for k < len(r) && (isWordByte(r[k]) || r[k] == '\'') {
		k++
	}
	return slices.Contains(atHourWords, string(r[:k]))
}

func inSpans(o occurrence, spans [][2]int32) bool {
	for _, sp := range spans {
		if o.start >= sp[0] && o.end <= sp[1] {
			return true
		}
	}
	return false
}

func appendNew[T comparable](list []T, s T) []T {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
