package education

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// Text quizzes: cloze and multiple-choice questions from a text the caller
// gives, in Chinese, English or both. There is no dictionary or segmenter:
// English blanks are content words (not stop words, four letters or more)
// and numbers; Chinese blanks are 2–4 character terms that recur in the
// text (the longest form that recurs as often) or, failing that, short
// phrases standing between punctuation and function characters. Terms that
// recur or are longer score higher. Distractors are other terms of the same
// script from the same text, never the answer, and never a term that would
// also make a sentence of the text. Every question is checked against the
// text before it is handed out.

const blank = "____"

// textQuestion is one generated question.
type textQuestion struct {
	Type     string   `json:"type"` // cloze or choice
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
	Answer   string   `json:"answer"`
	// AnswerOption is the letter of the answer among Options (choice only).
	AnswerOption string `json:"answer_option,omitempty"`
	// Sentence is the 1-based number of the sentence the question is from.
	Sentence int `json:"sentence"`
	source   string
}

// splitSentences cuts text at 。！？；!?; and newlines, and at a full stop
// not followed by a letter or digit (so 3.14, e.g. and Mr. stay whole),
// keeping each terminator and a closing quote after it with its sentence.
func splitSentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	emit := func(end int) {
		if s := strings.TrimSpace(string(rs[start:end])); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\n' || r == '\r':
			emit(i + 1)
			continue
		case strings.ContainsRune("。！？；!?;…", r):
		case r == '.':
			if i+1 < len(rs) && (unicode.In(rs[i+1], unicode.Latin) || unicode.IsDigit(rs[i+1])) {
				continue // 3.14, e.g, a.m, example.com
			}
			if abbreviation(rs[start:i]) {
				continue
			}
		default:
			continue
		}
		j := i + 1
		for j < len(rs) && (strings.ContainsRune("。！？；!?;….", rs[j]) || isClosing(rs[j])) {
			j++
		}
		emit(j)
		i = j - 1
	}
	emit(len(rs))
	return out
}

func isClosing(r rune) bool { return strings.ContainsRune(`"'”’」』）)】》`, r) }

var abbreviations = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "no": true, "fig": true, "jr": true, "sr": true, "a.m": true, "p.m": true}

// abbreviation reports whether the word before a full stop is a title or a
// single initial, after which a sentence does not end.
func abbreviation(before []rune) bool {
	s := strings.TrimRightFunc(string(before), unicode.IsSpace)
	k := strings.LastIndexFunc(s, unicode.IsSpace)
	w := strings.ToLower(strings.TrimLeft(s[k+1:], `"'“‘(`))
	if abbreviations[w] {
		return true
	}
	n := utf8.RuneCountInString(w)
	return n == 1 && unicode.IsUpper([]rune(s[k+1:])[0])
}

// A term is a possible blank.
type term struct {
	Text  string // first surface form
	Key   string // lower case, for counting and comparing
	Kind  string // latin, number or han
	Count int
	Score float64
}

var (
	latinWord = regexp.MustCompile(`\p{Latin}(?:[\p{Latin}'’-]*\p{Latin})?`)
	number    = regexp.MustCompile(`\d+(?:[.,]\d+)*`)
	hanRun    = regexp.MustCompile(`\p{Han}+`)
)

// Characters that do not occur inside a Chinese term, and ones that do not
// start or end one.
const (
	hanBreaks = "的了是在和与及或也都就而把被着过地得吗呢吧啊很"
	hanEdges  = "这那个们一其之此为以于从对将有"
)

var englishStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about above after again against also although among another because been before being
below between both could does doing down during each either even ever every from further have having here hers herself
himself into itself just least less many might more most much must myself neither never none often once only other ought
ours ourselves over perhaps quite rather really same shall should since some such than that their theirs them themselves
then there these they this those though through thus under until upon very was were what when where whether which while
whom whose will with within without would your yours yourself yourselves almost always usually sometimes make made like
well also said says still yet back away onto towards toward whereas across along around behind beside besides beyond
inside outside near per via can cannot isn't aren't wasn't weren't don't doesn't didn't won't it's that's there's let's
one two three four five first second`) {
		englishStop[w] = true
	}
}

// hanSegments splits a run of Han characters at break characters and trims
// edge characters off each piece.
func hanSegments(run string) []string {
	var out []string
	for _, seg := range strings.FieldsFunc(run, func(r rune) bool { return strings.ContainsRune(hanBreaks, r) }) {
		seg = strings.TrimFunc(seg, func(r rune) bool { return strings.ContainsRune(hanEdges, r) })
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// hanNgrams calls fn with every 2–4 character substring of seg whose ends
// are not edge characters.
func hanNgrams(seg string, fn func(string)) {
	rs := []rune(seg)
	for i := range rs {
		for n := 2; n <= 4 && i+n <= len(rs); n++ {
			if strings.ContainsRune(hanEdges, rs[i]) || strings.ContainsRune(hanEdges, rs[i+n-1]) {
				continue
			}
			fn(string(rs[i : i+n]))
		}
	}
}

// sentenceTerms lists the candidate terms as they occur in one sentence:
// English words, numbers, Han n-grams and Han segments.
func sentenceTerms(s string, fn func(kind, text string, segment bool)) {
	for _, w := range latinWord.FindAllString(s, -1) {
		fn("latin", w, false)
	}
	for _, w := range number.FindAllString(s, -1) {
		fn("number", w, false)
	}
	for _, run := range hanRun.FindAllString(s, -1) {
		for _, seg := range hanSegments(run) {
			if n := utf8.RuneCountInString(seg); n >= 2 && n <= 4 {
				fn("han", seg, true)
			}
			hanNgrams(seg, func(g string) { fn("han", g, false) })
		}
	}
}

// collectTerms scores the candidates over all sentences.
func collectTerms(sentences []string) map[string]*term {
	terms := map[string]*term{}
	segments := map[string]bool{}
	for _, s := range sentences {
		sentenceTerms(s, func(kind, text string, segment bool) {
			key := strings.ToLower(text)
			if segment {
				segments[key] = true
				return
			}
			t := terms[key]
			if t == nil {
				t = &term{Text: text, Key: key, Kind: kind}
				terms[key] = t
			}
			t.Count++
		})
	}
	for key, t := range terms {
		n := utf8.RuneCountInString(t.Text)
		switch t.Kind {
		case "latin":
			if n < 4 || englishStop[key] {
				delete(terms, key)
				continue
			}
			t.Score = 2*float64(t.Count-1) + float64(min(n, 12))/4
			if unicode.IsUpper([]rune(t.Text)[0]) {
				t.Score++ // names and proper nouns
			}
		case "number":
			if n < 2 {
				delete(terms, key)
				continue
			}
			t.Score = 1 + 2*float64(t.Count-1)
		case "han":
			if t.Count < 2 && !segments[key] {
				delete(terms, key) // neither recurs nor stands on its own
				continue
			}
			t.Score = 2*float64(t.Count-1) + float64(n)/2
		}
	}
	// A Han term inside a longer one that recurs as often is only part of it.
	for key, t := range terms {
		if t.Kind != "han" {
			continue
		}
		for k2, t2 := range terms {
			if t2.Kind == "han" && len(k2) > len(key) && t2.Count == t.Count && strings.Contains(k2, key) {
				delete(terms, key)
				break
			}
		}
	}
	return terms
}

// locate finds term t in sentence s: for English and numbers a whole token,
// for Chinese any occurrence. It returns the byte offset or -1.
func locate(s string, t *term) int {
	switch t.Kind {
	case "han":
		return strings.Index(s, t.Text)
	case "latin":
		for _, m := range latinWord.FindAllStringIndex(s, -1) {
			if strings.EqualFold(s[m[0]:m[1]], t.Text) {
				return m[0]
			}
		}
	case "number":
		for _, m := range number.FindAllStringIndex(s, -1) {
			if s[m[0]:m[1]] == t.Text {
				return m[0]
			}
		}
	}
	return -1
}

// textQuiz builds up to n questions of kind (cloze, choice or mixed).
func textQuiz(text, kind string, n int, seed uint64) ([]textQuestion, error) {
	sentences := splitSentences(text)
	terms := collectTerms(sentences)
	r := rand.New(rand.NewPCG(seed, 0x7e47))
	keys := make([]string, 0, len(terms))
	for k := range terms {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order is random; the seed alone must decide
	jitter := map[string]float64{}
	ranked := make([]*term, 0, len(terms))
	for _, k := range keys {
		jitter[k] = r.Float64()
		ranked = append(ranked, terms[k])
	}
	sort.Slice(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if jitter[a.Key] != jitter[b.Key] {
			return jitter[a.Key] < jitter[b.Key]
		}
		return a.Key < b.Key
	})

	// Each sentence gets its best term not yet used as an answer, the
	// sentences with the best terms first.
	type pick struct {
		sentence int
		t        *term
		at       int
	}
	var picks []pick
	used := map[string]bool{}
	taken := map[int]bool{}
	for _, t := range ranked {
		if len(picks) == n {
			break
		}
		for i, s := range sentences {
			if taken[i] || strings.Contains(s, blank) {
				continue
			}
			at := locate(s, t)
			if at < 0 || strings.TrimSpace(s) == t.Text {
				continue
			}
			picks = append(picks, pick{i, t, at})
			taken[i], used[t.Key] = true, true
			break
		}
	}
	if len(picks) == 0 {
		return nil, tool.Invalid("text", "found no sentence with a word or term to blank out", "give a few sentences of running text (Chinese or English), not a list of single words")
	}
	sort.Slice(picks, func(i, j int) bool { return picks[i].sentence < picks[j].sentence })

	out := make([]textQuestion, 0, len(picks))
	for i, p := range picks {
		s := sentences[p.sentence]
		answer := s[p.at : p.at+len(p.t.Text)]
		q := textQuestion{Type: "cloze", Question: s[:p.at] + blank + s[p.at+len(answer):], Answer: answer, Sentence: p.sentence + 1, source: s}
		if kind == "choice" || (kind == "mixed" && i%2 == 1) {
			distractors := pickDistractors(text, q.Question, p.t, ranked, r)
			if len(distractors) == 0 {
				if kind == "choice" {
					return nil, tool.Invalid("text", "the text has too few distinct terms for multiple-choice distractors", "give a longer text, or ask for kind cloze")
				}
			} else {
				q.Type = "choice"
				q.Options = append(distractors, answer)
				r.Shuffle(len(q.Options), func(a, b int) { q.Options[a], q.Options[b] = q.Options[b], q.Options[a] })
				for k, o := range q.Options {
					if o == answer {
						q.AnswerOption = string(rune('A' + k))
					}
				}
			}
		}
		if err := checkTextQuestion(text, q); err != nil { // a generator bug: never hand out a wrong answer
			return nil, tool.Errorf(tool.CodeFailed, "", "generated question failed its check: %v", err)
		}
		out = append(out, q)
	}
	return out, nil
}

// pickDistractors chooses up to three other terms of the answer's script,
// closest in length, none equal to the answer and none that would also fill
// the blank to a sentence found in the text, nor one the question shows.
func pickDistractors(text, stem string, answer *term, ranked []*term, r *rand.Rand) []string {
	n := utf8.RuneCountInString(answer.Text)
	var pool []*term
	for _, t := range ranked {
		if t.Kind != answer.Kind || t.Key == answer.Key || strings.Contains(t.Key, answer.Key) || strings.Contains(answer.Key, t.Key) {
			continue
		}
		if strings.Contains(text, strings.Replace(stem, blank, t.Text, 1)) {
			continue // would also be right
		}
		if locate(stem, t) >= 0 {
			continue // already in the question: a giveaway
		}
		pool = append(pool, t)
	}
	diff := func(t *term) int {
		d := utf8.RuneCountInString(t.Text) - n
		if d < 0 {
			d = -d
		}
		return d
	}
	sort.SliceStable(pool, func(i, j int) bool { return diff(pool[i]) < diff(pool[j]) })
	pool = pool[:min(len(pool), 8)]
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	var out []string
	for _, t := range pool[:min(len(pool), 3)] {
		out = append(out, t.Text)
	}
	return out
}

// checkTextQuestion verifies a question against the text: the blank filled
// with the answer gives back a sentence of the text; a choice has the answer
// once, at its letter, and no option that also fits.
func checkTextQuestion(text string, q textQuestion) error {
	if strings.Count(q.Question, blank) != 1 {
		return fmt.Errorf("question %q does not have exactly one blank", q.Question)
	}
	filled := strings.Replace(q.Question, blank, q.Answer, 1)
	if filled != q.source || !strings.Contains(text, filled) {
		return fmt.Errorf("answer %q does not give back a sentence of the text", q.Answer)
	}
	if q.Type != "choice" {
		return nil
	}
	hits := 0
	for k, o := range q.Options {
		if strings.EqualFold(o, q.Answer) {
			hits++
			if string(rune('A'+k)) != q.AnswerOption {
				return fmt.Errorf("answer %q is not option %s", q.Answer, q.AnswerOption)
			}
			continue
		}
		if strings.Contains(text, strings.Replace(q.Question, blank, o, 1)) {
			return fmt.Errorf("option %q also fits %q", o, q.Question)
		}
	}
	if hits != 1 {
		return fmt.Errorf("answer %q is among the options %d times", q.Answer, hits)
	}
	return nil
}

func (x *edu) textQuizAction(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a := call.Args
	text := a.String("text")
	if strings.TrimSpace(text) == "" {
		return nil, tool.Invalid("text", "text is empty", "paste the notes or passage to quiz on")
	}
	if n := utf8.RuneCountInString(text); n > x.cfg.MaxChars {
		return nil, tool.Invalid("text", fmt.Sprintf("text has %d characters, more than %d", n, x.cfg.MaxChars), "quiz on a part of it, or raise tools.education_tool.max_chars")
	}
	kind := a.StringOr("kind", "cloze")
	n, err := x.countArg(a)
	if err != nil {
		return nil, err
	}
	seed := seedOf(call)
	qs, err := textQuiz(text, kind, n, seed)
	if err != nil {
		return nil, err
	}
	sum := fmt.Sprintf("%d %s questions from the text (seed %d); every answer checked against it.", len(qs), kind, seed)
	if len(qs) < n {
		sum += fmt.Sprintf(" Asked for %d: the text has only %d sentences with a term to blank.", n, len(qs))
	}
	return &tool.Result{Summary: sum, Data: map[string]any{"kind": kind, "seed": seed, "questions": qs}}, nil
}
