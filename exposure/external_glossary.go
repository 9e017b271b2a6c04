package exposure

import (
	"bytes"
	"maps"
	"slices"
	"strings"
)

// glossEntry is one glossary word as the router matches it.
type glossEntry struct {
	key, en string // the key normalised; its English words
	verb    bool   // en starts with a verb (see onlyModifier)
}

// compileGlossary normalises the glossary's keys with the tables'
// normalizer, once per external set.
// The keys are taken sorted, so that the words are added in one order and
// the scores summed in one order: routing is deterministic.
func compileGlossary(n *normalizer, rk Ranking) (zh []glossEntry, en [][2][]byte) {
	for _, k := range slices.Sorted(maps.Keys(rk.GlossaryZH)) {
		e := rk.GlossaryZH[k]
		_, verb := verbClasses[strings.Fields(e)[0]]
		zh = append(zh, glossEntry{key: n.normal(k), en: e, verb: verb})
	}
	for _, k := range slices.Sorted(maps.Keys(rk.GlossaryEN)) {
		en = append(en, [2][]byte{[]byte(k), []byte(rk.GlossaryEN[k])})
	}
	return zh, en
}

// measureWords stand between a Chinese verb and its object.
var measureWords = []string{"一个", "一张", "一下", "一条", "一份", "个", "张"}

// withGlossary appends the English words of the glossary's words found in
// normalised text. A measure word between a verb and its object does not
// hide them ("截个图" is "截图"), and a verb followed by 的 is a modifier,
// not the request's verb ("合并的 PR" are merged PRs, not a merge).
func (x *externalSet) withGlossary(text []byte) []byte {
	out := text
	if hasNonASCII(text) {
		str := string(text)
		plain := str
		for _, m := range measureWords {
			plain = strings.ReplaceAll(plain, m, "")
		}
		for _, g := range x.glossZH {
			if !strings.Contains(str, g.key) && (len(plain) == len(str) || !strings.Contains(plain, g.key)) {
				continue
			}
			if g.verb && !slices.Contains(zhQuestionWords, g.key) && onlyModifier(str, g.key) { // 有没有人: a question, not an agent noun
				continue
			}
			if g.verb && askedDone(str, g.key) {
				// 留了哪些评论: which comments were left; 回复了什么: the
				// replies; the verb's thing, not its doing
				out = append(append(out, " view "...), doneNoun(g.en)...)
				continue
			}
			out = append(append(out, ' '), g.en...)
		}
	}
	for _, g := range x.glossEN {
		if bytes.Contains(text, g[0]) && hintedPhrase(text, g[0]) {
			out = append(append(out, ' '), g[1]...)
		}
	}
	return out
}

// hintedPhrase is hinted for one glossary key; a key of several words
// must also start after a space or at the start ("go to", not the "go
// to" of "b.go to acme/tool").
func hintedPhrase(text, key []byte) bool {
	if bytes.IndexByte(key, ' ') < 0 {
		return hinted(text, [][]byte{key})
	}
	ok := false
	eachHint(text, [][]byte{key}, func(at, _ int) bool {
		ok = at == 0 || text[at-1] == ' '
		return !ok
	})
	return ok
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// doneNoun is what an asked-about action made, from its English verb:
// reply gives replies. A plural that still reads as the verb (writes)
// gives nothing.
func doneNoun(en string) string {
	w, _, _ := strings.Cut(en, " ")
	n := w + "s"
	if strings.HasSuffix(w, "y") {
		n = w[:len(w)-1] + "ies"
	}
	if verbOf(n) != nil {
		return "" // writes, leaves: still the verb
	}
	return n
}

// zhQuestionWords make a Chinese sentence a question about things.
var zhQuestionWords = []string{"哪些", "什么", "多少", "有没有", "吗", "谁", "何时"}

// askedDone reports whether every occurrence of the verb k in text is
// followed by 了, 过 or 是 in a question ("留了哪些评论", "都回复了什么",
// "最后一次编辑是什么时候"): the request asks what was done, a reading,
// not for it to be done again.
func askedDone(text, k string) bool {
	return slices.ContainsFunc(zhQuestionWords, func(q string) bool { return strings.Contains(text, q) }) &&
		everyFollowedBy(text, k, []string{"了", "过", "是"})
}

// modifierEnds after a verb make it part of a noun: 合并的 PR (merged
// PRs), 修改时间 (the time of a change), 创建者 (who created it).
var modifierEnds = []string{"的", "时间", "日期", "者", "人"}

// onlyModifier reports whether every occurrence of k in text is followed
// by one of modifierEnds.
func onlyModifier(text, k string) bool { return everyFollowedBy(text, k, modifierEnds) }

// everyFollowedBy reports whether k occurs in text and every occurrence
// is followed by one of ends.
func everyFollowedBy(text, k string, ends []string) bool {
	found := false
	for off := 0; ; {
		i := strings.Index(text[off:], k)
		if i < 0 {
			return found
		}
		end := off + i + len(k)
		if !slices.ContainsFunc(ends, func(m string) bool { return strings.HasPrefix(text[end:], m) }) {
			return false
		}
		found = true
		off = end
	}
}
