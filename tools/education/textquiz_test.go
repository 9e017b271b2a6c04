package education

import (
	"reflect"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const (
	enNotes = "The mitochondria is the powerhouse of the cell. Photosynthesis happens in the chloroplast! " +
		"Dr. Smith studied mitochondria in 1998. Why do cells divide? Cells divide to grow, and mitochondria divide too. " +
		"Pi is 3.14 and the chloroplast is green."
	zhNotes = "光合作用是植物利用光能把二氧化碳和水转化为有机物的过程。叶绿体是光合作用的场所！" +
		"植物的叶片中含有大量叶绿体。为什么植物需要阳光？因为光合作用需要光能；没有光能，叶绿体就不能工作。"
)

// TestTextQuizSentences_SplitsAtChineseAndEnglishEnds: 。！？；!?; and a
// full stop before a space end a sentence; decimals, titles and initials do
// not; a closing quote stays with its sentence.
func TestTextQuizSentences_SplitsAtChineseAndEnglishEnds(t *testing.T) {
	got := splitSentences("He said \"Stop!\" Then left. Pi is 3.14. Mr. Li met J. Smith at 5 p.m. today.\n你好。真的吗？！“好！”他说；走吧")
	want := []string{`He said "Stop!"`, "Then left.", "Pi is 3.14.", "Mr. Li met J. Smith at 5 p.m. today.", "你好。", "真的吗？！", "“好！”", "他说；", "走吧"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func (r *rig) textQuiz(t *testing.T, args map[string]any) []textQuestion {
	t.Helper()
	args["action"] = "text_quiz"
	return r.must(t, args)["questions"].([]textQuestion)
}

// TestTextQuiz_ClozeAnswersAreContentWordsOfTheText: each blank, filled
// with its answer, is a sentence of the text; English answers are never
// stop words; Chinese ones are 2–4 character terms, the recurring ones first.
func TestTextQuiz_ClozeAnswersAreContentWordsOfTheText(t *testing.T) {
	r := newRig(t)
	for _, text := range []string{enNotes, zhNotes} {
		qs := r.textQuiz(t, map[string]any{"text": text, "count": 20, "seed": 3})
		if len(qs) != len(splitSentences(text)) {
			t.Fatalf("%d questions for %d sentences", len(qs), len(splitSentences(text)))
		}
		seen := map[string]bool{}
		for _, q := range qs {
			filled := strings.Replace(q.Question, blank, q.Answer, 1)
			if q.Type != "cloze" || strings.Count(q.Question, blank) != 1 || !strings.Contains(text, filled) || filled != splitSentences(text)[q.Sentence-1] {
				t.Fatalf("%+v does not give back sentence %d", q, q.Sentence)
			}
			if englishStop[strings.ToLower(q.Answer)] || seen[strings.ToLower(q.Answer)] {
				t.Fatalf("answer %q is a stop word or repeated", q.Answer)
			}
			seen[strings.ToLower(q.Answer)] = true
			if n := len([]rune(q.Answer)); hanRun.MatchString(q.Answer) && (n < 2 || n > 4) {
				t.Fatalf("Chinese answer %q is not 2–4 characters", q.Answer)
			}
		}
	}
	zh := r.textQuiz(t, map[string]any{"text": zhNotes, "count": 2, "seed": 1})
	got := []string{zh[0].Answer, zh[1].Answer}
	if !reflect.DeepEqual(got, []string{"光合作用", "叶绿体"}) { // the two terms that recur most
		t.Fatalf("chose %q", got)
	}
	en := r.textQuiz(t, map[string]any{"text": enNotes, "count": 1, "seed": 1})
	if en[0].Answer != "mitochondria" {
		t.Fatalf("chose %q, not the recurring mitochondria", en[0].Answer)
	}
}

// TestTextQuiz_ChoiceDistractorsFromTextNeverTheAnswer: four options, the
// answer once at its letter, distractors of the answer's script taken from
// the text, none also fitting the blank nor shown in the question.
func TestTextQuiz_ChoiceDistractorsFromTextNeverTheAnswer(t *testing.T) {
	r := newRig(t)
	for _, text := range []string{enNotes, zhNotes} {
		for seed := 1; seed <= 20; seed++ {
			for _, q := range r.textQuiz(t, map[string]any{"text": text, "kind": "choice", "count": 10, "seed": seed}) {
				if q.Type != "choice" || len(q.Options) < 2 || len(q.Options) > 4 {
					t.Fatalf("%+v", q)
				}
				if q.Options[q.AnswerOption[0]-'A'] != q.Answer {
					t.Fatalf("answer %q is not option %s of %q", q.Answer, q.AnswerOption, q.Options)
				}
				for _, o := range q.Options {
					if o == q.Answer {
						continue
					}
					if strings.EqualFold(o, q.Answer) || !strings.Contains(text, o) || shown(q.Question, o) ||
						strings.Contains(text, strings.Replace(q.Question, blank, o, 1)) || hanRun.MatchString(o) != hanRun.MatchString(q.Answer) {
						t.Fatalf("bad distractor %q for %+v", o, q)
					}
				}
			}
		}
	}
	mixed := r.textQuiz(t, map[string]any{"text": enNotes, "kind": "mixed", "count": 4, "seed": 2})
	if mixed[0].Type != "cloze" || mixed[1].Type != "choice" {
		t.Fatalf("mixed does not alternate: %+v", mixed)
	}
}

// TestTextQuiz_SameSeedSameQuiz: a seed fixes the quiz; the seed is echoed.
func TestTextQuiz_SameSeedSameQuiz(t *testing.T) {
	r := newRig(t)
	args := func(seed int) map[string]any {
		return map[string]any{"action": "text_quiz", "text": enNotes + zhNotes, "kind": "mixed", "count": 8, "seed": seed}
	}
	a, b := r.must(t, args(42)), r.must(t, args(42))
	if !reflect.DeepEqual(a, b) || a["seed"] != uint64(42) {
		t.Fatalf("seed 42 gave two quizzes:\n%v\n%v", a, b)
	}
	differ := false
	for seed := 1; seed < 10 && !differ; seed++ {
		differ = !reflect.DeepEqual(r.must(t, args(seed))["questions"], a["questions"])
	}
	if !differ {
		t.Fatal("every seed gave the same quiz")
	}
	if r := r.must(t, map[string]any{"action": "text_quiz", "text": enNotes}); r["seed"] == nil {
		t.Fatal("no seed echoed")
	}
}

// TestTextQuizChecker_CatchesWrongQuestions: the check refuses an answer
// that does not give back the sentence, an answer at the wrong letter, and
// a distractor that also fits.
func TestTextQuizChecker_CatchesWrongQuestions(t *testing.T) {
	text := "Cats chase mice. Dogs chase mice."
	s := "Cats chase mice."
	for name, q := range map[string]textQuestion{
		"wrong answer": {Type: "cloze", Question: "____ chase mice.", Answer: "Dogs", source: s},
		"no blank":     {Type: "cloze", Question: "Cats chase mice.", Answer: "Cats", source: s},
		"wrong letter": {Type: "choice", Question: "____ chase mice.", Answer: "Cats", Options: []string{"Cats", "Birds"}, AnswerOption: "B", source: s},
		"also fits":    {Type: "choice", Question: "____ chase mice.", Answer: "Cats", Options: []string{"Cats", "Dogs"}, AnswerOption: "A", source: s},
		"answer twice": {Type: "choice", Question: "____ chase mice.", Answer: "Cats", Options: []string{"Cats", "cats"}, AnswerOption: "A", source: s},
	} {
		if err := checkTextQuestion(text, q); err == nil {
			t.Errorf("%s: passed the check", name)
		}
	}
	if err := checkTextQuestion(text, textQuestion{Type: "choice", Question: "____ chase mice.", Answer: "Cats", Options: []string{"Birds", "Cats"}, AnswerOption: "B", source: s}); err != nil {
		t.Fatal(err)
	}
}

// TestTextQuizBadInput_NamesField.
func TestTextQuizBadInput_NamesField(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name  string
		args  map[string]any
		field string
	}{
		{"missing text", map[string]any{"action": "text_quiz"}, "text"},
		{"blank text", map[string]any{"action": "text_quiz", "text": "  \n "}, "text"},
		{"nothing to blank", map[string]any{"action": "text_quiz", "text": "a an the. of!"}, "text"},
		{"too long", map[string]any{"action": "text_quiz", "text": strings.Repeat("长", 20_001)}, "text"},
		{"no distractors", map[string]any{"action": "text_quiz", "text": "Photosynthesis.", "kind": "choice"}, "text"},
		{"bad kind", map[string]any{"action": "text_quiz", "text": enNotes, "kind": "essay"}, "kind"},
		{"count", map[string]any{"action": "text_quiz", "text": enNotes, "count": 101}, "count"},
	} {
		_, err := tooltest.Run(t, r.t, tc.args)
		if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Field+" "+te.Message, tc.field) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.field)
		}
	}
}

// shown reports whether word o is in question q (a whole word for English).
func shown(q, o string) bool {
	if hanRun.MatchString(o) {
		return strings.Contains(q, o)
	}
	for _, w := range latinWord.FindAllString(q, -1) {
		if strings.EqualFold(w, o) {
			return true
		}
	}
	return strings.Contains(q, " "+o+" ")
}
