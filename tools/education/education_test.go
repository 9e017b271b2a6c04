package education

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type rig struct {
	t   tool.Tool
	d   *tool.Deps
	x   *edu
	now time.Time
}

// newRig is newRigOn a SQLite store of its own.
func newRig(t *testing.T) *rig { return newRigOn(t, storetest.SQLite(t)) }

func newRigOn(t *testing.T, db *storetest.DB) *rig {
	t.Helper()
	return newRigAt(t, db, "Asia/Shanghai", time.Date(2024, 4, 30, 17, 0, 0, 0, time.UTC)) // 05-01 01:00 in Shanghai
}

// newRigAt is the tool on db's store, in zone tz, whose clock reads r.now.
func newRigAt(t *testing.T, db *storetest.DB, tz string, now time.Time) *rig {
	t.Helper()
	x, tl, d := tooltest.Records(t, db, lifecycle, tz)
	r := &rig{t: tl, d: d, x: x, now: now}
	x.now = func() time.Time { return r.now }
	return r
}

func (r *rig) must(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.MustRun(t, r.t, args)
}

func (r *rig) count(t *testing.T, table string) int {
	t.Helper()
	return tooltest.Count(t, r.d, `SELECT COUNT(*) FROM `+table)
}

// sm2Table is worked by hand from the published SM-2 rules, starting at
// EF 2.5: q ≥ 3 gives I = 1, 6, then round(I·EF) with the EF before the
// review; q < 3 sets n = 0, I = 1; EF' = EF + 0.1 − (5−q)(0.08 + (5−q)0.02),
// floored at 1.3.
var sm2Table = []struct {
	q, reps, interval int
	ef                string
}{
	{5, 1, 1, "2.6"},   // first success: 1 day; +0.10
	{4, 2, 6, "2.6"},   // second: 6 days; q 4 leaves EF
	{3, 3, 16, "2.46"}, // round(6 × 2.6 = 15.6) = 16; −0.14
	{5, 4, 39, "2.56"}, // round(16 × 2.46 = 39.36) = 39
	{2, 0, 1, "2.24"},  // wrong: start again; −0.32
	{4, 1, 1, "2.24"},
	{4, 2, 6, "2.24"},
	{5, 3, 13, "2.34"}, // round(6 × 2.24 = 13.44) = 13
	{0, 0, 1, "1.54"},  // −0.80
	{1, 0, 1, "1.3"},   // 1.54 − 0.54 = 1.00, floored
	{3, 1, 1, "1.3"},   // 1.3 − 0.14 floored
	{3, 2, 6, "1.3"},
	{3, 3, 8, "1.3"},  // round(6 × 1.3 = 7.8) = 8
	{5, 4, 10, "1.4"}, // round(8 × 1.3 = 10.4) = 10
	{5, 5, 14, "1.5"}, // round(10 × 1.4) = 14
	{4, 6, 21, "1.5"}, // round(14 × 1.5) = 21
	{5, 7, 32, "1.6"}, // round(21 × 1.5 = 31.5) = 32: half rounds up
}

// TestSM2_HandComputedTable: the pure step and the review action (through
// the store, one review on each due day) follow the table.
func TestSM2_HandComputedTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		s := sm2State{EF100: startEF100}
		for i, row := range sm2Table {
			s = s.review(row.q)
			if s.Reps != row.reps || s.Interval != row.interval || ef(s.EF100) != row.ef {
				t.Fatalf("step %d (q %d): n %d I %d EF %s, want n %d I %d EF %s", i+1, row.q, s.Reps, s.Interval, ef(s.EF100), row.reps, row.interval, row.ef)
			}
		}
		r := newRigOn(t, db)
		id := r.must(t, map[string]any{"action": "add_cards", "deck": "vocab", "cards": []any{map[string]any{"front": "apple", "back": "苹果"}}})["added"].([]map[string]any)[0]["id"].(string)
		for i, row := range sm2Table {
			if due := r.must(t, map[string]any{"action": "due", "deck": "vocab"}); due["due"] != 1 {
				t.Fatalf("step %d: not due on its day: %v", i+1, due)
			}
			v := r.must(t, map[string]any{"action": "review", "id": id, "quality": row.q})
			sh, _ := time.LoadLocation("Asia/Shanghai")
			want := r.now.In(sh).AddDate(0, 0, row.interval).Format(dayFmt)
			if v["repetitions"] != row.reps || v["interval_days"] != row.interval || v["easiness"] != row.ef || v["due"] != want {
				t.Fatalf("step %d: %v, want n %d I %d EF %s due %s", i+1, v, row.reps, row.interval, row.ef, want)
			}
			if row.interval > 1 { // the day before it is due it is not listed
				r.now = r.now.AddDate(0, 0, row.interval-1)
				if due := r.must(t, map[string]any{"action": "due"}); due["due"] != 0 {
					t.Fatalf("step %d: due a day early: %v", i+1, due)
				}
				r.now = r.now.AddDate(0, 0, 1)
			} else {
				r.now = r.now.AddDate(0, 0, 1)
			}
		}
		if n := r.count(t, "edu_reviews"); n != len(sm2Table) {
			t.Fatalf("%d reviews recorded", n)
		}
	})
}

// TestFlashcards_DecksDuplicatesTrashAndExport.
func TestFlashcards_DecksDuplicatesTrashAndExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRigOn(t, db)
		add := r.must(t, map[string]any{"action": "add_cards", "deck": "vocab", "cards": []any{
			map[string]any{"front": "apple", "back": "苹果"}, map[string]any{"front": "pear", "back": "梨"}, map[string]any{"front": "apple", "back": "again"}}})
		if len(add["added"].([]map[string]any)) != 2 {
			t.Fatalf("add = %v", add)
		}
		again := r.must(t, map[string]any{"action": "add_cards", "deck": "vocab", "cards": []any{map[string]any{"front": "pear", "back": "梨"}}})
		if len(again["added"].([]map[string]any)) != 0 || len(again["skipped"].([]string)) != 1 {
			t.Fatalf("second add = %v", again)
		}
		r.must(t, map[string]any{"action": "add_cards", "cards": []any{map[string]any{"front": "勾股定理", "back": "a²+b²=c²"}}})
		decks := r.must(t, map[string]any{"action": "decks"})["decks"].([]map[string]any)
		if len(decks) != 2 || decks[0]["deck"] != "default" || decks[1]["cards"] != 2 || decks[1]["due_today"] != 2 {
			t.Fatalf("decks = %v", decks)
		}
		id := add["added"].([]map[string]any)[0]["id"].(string)
		r.must(t, map[string]any{"action": "review", "id": id, "quality": 5})
		r.must(t, map[string]any{"action": "delete_card", "id": id})
		if r.count(t, "edu_cards") != 2 || r.count(t, "edu_reviews") != 0 {
			t.Fatal("not deleted")
		}
		back := r.must(t, map[string]any{"action": "restore_card", "id": id})
		if back["easiness"] != "2.6" || back["due"] != "2024-05-02" || r.count(t, "edu_reviews") != 1 {
			t.Fatalf("restored = %v", back)
		}
		out := r.must(t, map[string]any{"action": "export_cards", "deck": "vocab"})
		f, err := os.Open(filepath.Join(r.d.Config.Workspace[0], out["path"].(string)))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil || len(rows) != 3 || !strings.Contains(strings.Join(rows[1], "|")+"\n"+strings.Join(rows[2], "|"), "vocab|apple|苹果|1|1|2.6|2024-05-02") {
			t.Fatalf("csv %v %v", rows, err)
		}
	})
}

// TestFlashcardsBadInput_NamesFieldWritesNothing.
func TestFlashcardsBadInput_NamesFieldWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRigOn(t, db)
		id := r.must(t, map[string]any{"action": "add_cards", "cards": []any{map[string]any{"front": "kept", "back": "k"}}})["added"].([]map[string]any)[0]["id"].(string)
		for _, tc := range []struct {
			args  map[string]any
			field string
		}{
			{map[string]any{"action": "add_cards"}, "cards"},
			{map[string]any{"action": "add_cards", "cards": []any{}}, "cards"},
			{map[string]any{"action": "add_cards", "cards": []any{map[string]any{"front": "ok", "back": "b"}, map[string]any{"front": "x"}}}, "cards[1].back"},
			{map[string]any{"action": "add_cards", "cards": []any{map[string]any{"front": "  ", "back": "b"}}}, "cards[0].front"},
			{map[string]any{"action": "add_cards", "deck": " ", "cards": []any{map[string]any{"front": "a", "back": "b"}}}, "deck"},
			{map[string]any{"action": "review", "id": id}, "quality"},
			{map[string]any{"action": "review", "id": id, "quality": 6}, "quality"},
			{map[string]any{"action": "review", "id": id, "quality": 2.5}, "quality"},
			{map[string]any{"action": "review", "id": "nope", "quality": 4}, "id"},
			{map[string]any{"action": "due", "date": "2024-02-30"}, "date"},
			{map[string]any{"action": "delete_card", "id": "nope"}, "id"},
			{map[string]any{"action": "restore_card", "id": id}, "id"},
		} {
			tooltest.RefusedNaming(t, r.t, tc.args, tc.field)
		}
		if r.count(t, "edu_cards") != 1 || r.count(t, "edu_reviews") != 0 {
			t.Fatal("a refused call wrote")
		}
	})
}

// TestMathQuiz_EveryGradeCheckedAndSeeded: every grade of both topics gives
// the count asked, each answer re-checked here by the exact evaluator, and
// the same seed gives the same quiz.
func TestMathQuiz_EveryGradeCheckedAndSeeded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRigOn(t, db)
		for _, tc := range []struct {
			topic  string
			lo, hi int
		}{{"arithmetic", 1, 6}, {"algebra", 5, 9}} {
			for g := tc.lo; g <= tc.hi; g++ {
				args := map[string]any{"action": "math_quiz", "topic": tc.topic, "grade": g, "count": 30, "seed": 7}
				m := r.must(t, args)
				ps := m["problems"].([]problem)
				if len(ps) != 30 || m["seed"] != uint64(7) {
					t.Fatalf("%s grade %d: %d problems, seed %v", tc.topic, g, len(ps), m["seed"])
				}
				for _, p := range ps {
					if p.check() != nil || len(p.Steps) == 0 || p.Answer == "" {
						t.Fatalf("%s grade %d: %+v", tc.topic, g, p)
					}
				}
				again := r.must(t, args)["problems"].([]problem)
				for i := range ps {
					if ps[i].Question != again[i].Question || ps[i].Answer != again[i].Answer {
						t.Fatalf("seed 7 gave %q then %q", ps[i].Question, again[i].Question)
					}
				}
			}
		}
	})
}

// TestExactChecker_CatchesWrongAnswers: the checker is exact (no float
// slack) and refuses a wrong answer.
func TestExactChecker_CatchesWrongAnswers(t *testing.T) {
	for _, tc := range []struct {
		q, ans string
		ok     bool
	}{{"0.1 + 0.2", "0.3", true}, {"1/3 + 1/6", "1/2", true}, {"(2/3) ÷ (4/9)", "3/2", true}, {"2/3 ÷ 4/9", "3/2", false}, {"7 + 3 × 4", "40", false}, {"(7 + 3) × 4", "40", true},
		{"8 − (−5)", "13", true}, {"1/3", "0.333333333333", false}} {
		if err := value(tc.q, tc.ans)(); (err == nil) != tc.ok {
			t.Errorf("%s = %s: %v", tc.q, tc.ans, err)
		}
	}
	if roots("x² − 5x + 6 = 0", rat(2, 1), rat(3, 1))() != nil || roots("3x + 5 = 20", rat(4, 1))() == nil || roots("−2x − 3 = 4", rat(-7, 2))() != nil {
		t.Fatal("roots check wrong")
	}
	if got := fmtRat(rat(1, 8)); got != "0.125" {
		t.Fatal(got)
	}
}

// TestMathQuizBadInput_NamesField.
func TestMathQuizBadInput_NamesField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRigOn(t, db)
		for _, tc := range []struct {
			args  map[string]any
			field string
		}{
			{map[string]any{"action": "math_quiz"}, "grade"},
			{map[string]any{"action": "math_quiz", "grade": 2, "topic": "algebra"}, "grade"},
			{map[string]any{"action": "math_quiz", "grade": 2, "topic": "chemistry"}, "topic"},
			{map[string]any{"action": "math_quiz", "grade": 2, "count": 1000}, "count"},
		} {
			tooltest.RefusedNaming(t, r.t, tc.args, tc.field)
		}
	})
}
