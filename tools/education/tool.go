// Package education is the `education_tool`: flashcards in the store with
// SM-2 spaced repetition (decks, add, review, due list, delete to the trash
// and restore, CSV export), generated math quizzes (arithmetic and algebra
// by grade, every answer checked by evaluating the printed problem with
// exact rationals, deterministic by seed), and cloze and multiple-choice
// questions from a given Chinese or English text (answers checked against
// the text, deterministic by seed), and study plans (topics over days in
// order within a daily time budget, in the configured zone, exportable as
// .ics through the calendar tool's writer; computed, not stored).
//
// Days ("today", a card's due date) are counted in tools.education_tool.timezone
// (default: the system's). It does not grade free-text answers, segment
// Chinese with a dictionary, or sync cards with Anki.
package education

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/zone"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the `tools.education_tool` section.
type Config struct {
	// Timezone is the IANA zone days are counted in ("": the system's).
	Timezone string `yaml:"timezone"`
	// MaxChars bounds a card side and a quiz source text.
	MaxChars int `yaml:"max_chars"`
	// MaxQuestions bounds one quiz.
	MaxQuestions int `yaml:"max_questions"`
	// MaxPlanDays bounds a study plan's length.
	MaxPlanDays int `yaml:"max_plan_days"`
}

// DefaultConfig: sides and texts up to 20,000 characters, 100 questions, plans up to a year.
func DefaultConfig() Config {
	return Config{MaxChars: 20_000, MaxQuestions: 100, MaxPlanDays: 366}
}

// Validate checks the section.
func (c *Config) Validate() error {
	_, zerr := zone.Load("timezone", c.Timezone)
	return errors.Join(zerr, config.AtLeast("max_chars", c.MaxChars, 1),
		config.AtLeast("max_questions", c.MaxQuestions, 1), config.AtLeast("max_plan_days", c.MaxPlanDays, 1))
}

type edu struct {
	cfg Config
	st  tool.Records
	sb  *sandbox.Sandbox
	loc *time.Location
	now func() time.Time
}

// New builds the education tool from the tools.education_tool section.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.education_tool section over the defaults, then
// provisions; its Build keeps the tool's state, which the tests drive.
var lifecycle = tool.Stateful[Config, *edu]{Name: "education_tool", Defaults: DefaultConfig, Provision: provision}

func provision(d *tool.Deps, cfg Config) (*edu, tool.Tool, error) {
	loc, err := d.OpenRecords("education", cfg.Timezone, migrations...)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	x := &edu{cfg: cfg, st: d.Store, sb: d.Sandbox, loc: loc, now: time.Now}
	deck := tool.Param{Name: "deck", Type: tool.String, Description: "Deck name (default: all decks; for add_cards: default)."}
	id := tool.Param{Name: "id", Type: tool.String, Required: true, Description: "The card id (from add_cards or due)."}
	date := tool.Param{Name: "date", Type: tool.String, Description: "YYYY-MM-DD (default today)."}
	output := tool.OutputParam("Output file (default under outputs/).")
	seed := tool.Param{Name: "seed", Type: tool.Integer, Description: "Random seed: the same seed and arguments give the same quiz (default: a new one, echoed back)."}
	count := tool.Param{Name: "count", Type: tool.Integer, Default: 10, Min: tool.Ptr(1), Description: "How many questions."}
	t := tool.Tool{
		Name:  "education_tool",
		Title: "Education",
		Description: "Learning aids: arithmetic and algebra quizzes by grade with answers and worked steps, " +
			"cloze and multiple-choice questions from a text, flashcards in decks with SM-2 spaced repetition and a due list, " +
			"study plans over days within a daily time budget, exportable as .ics.",
		Actions: []tool.Action{
			{Name: "add_cards", Description: "Add cards; a front already in the deck is skipped.", Level: tool.Write, Timeout: tool.Fast, Handler: x.addCards, Params: []tool.Param{
				deck,
				{Name: "cards", Type: tool.Array, Required: true, Description: "Cards to add.", Items: &tool.Param{Type: tool.Object, Properties: []tool.Param{
					{Name: "front", Type: tool.String, Required: true, Description: "Question side."},
					{Name: "back", Type: tool.String, Required: true, Description: "Answer side."}}}}}},
			{Name: "decks", Description: "Card and due counts per deck.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.decks},
			{Name: "due", Description: "Cards due by a date, most overdue first.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.due, Params: []tool.Param{
				deck, date, {Name: "limit", Type: tool.Integer, Default: 50, Min: tool.Ptr(1), Max: tool.Ptr(1000), Description: "At most this many cards."}}},
			{Name: "review", Description: "Grade a recall; SM-2 schedules the next review.", Level: tool.Write, Timeout: tool.Fast, Handler: x.review, Params: []tool.Param{
				id, {Name: "quality", Type: tool.Integer, Required: true, Min: tool.Ptr(0), Max: tool.Ptr(5), Description: "0–5: 0 blackout, 1–2 wrong, 3 hard, 4 good, 5 perfect."}}},
			{Name: "delete_card", Description: "To the trash, with its history.", Level: tool.Write, Timeout: tool.Fast, Handler: x.deleteCard, Params: []tool.Param{id}},
			{Name: "restore_card", Level: tool.Write, Timeout: tool.Fast, Handler: x.restoreCard, Params: []tool.Param{id}},
			{Name: "export_cards", Description: "Cards and their schedule as CSV.", Level: tool.Write, Timeout: tool.Normal, Handler: x.exportCards, Params: []tool.Param{deck, output, tool.Overwrite}},
			{Name: "math_quiz", Description: "Arithmetic or algebra problems with answers and steps.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.mathQuiz, Params: []tool.Param{
				{Name: "topic", Type: tool.String, Enum: []string{"arithmetic", "algebra"}, Default: "arithmetic", Description: "arithmetic (grades 1–6) or algebra (grades 5–9)."},
				{Name: "grade", Type: tool.Integer, Required: true, Min: tool.Ptr(1), Max: tool.Ptr(9), Description: "School grade 1–9."},
				count, seed}},
			{Name: "text_quiz", Description: "Cloze or multiple-choice questions from a text.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.textQuizAction, Params: []tool.Param{
				{Name: "text", Type: tool.String, Required: true, Description: "The source text (Chinese, English or both); blanks are its content words and recurring terms, distractors other terms of it."},
				{Name: "kind", Type: tool.String, Enum: []string{"cloze", "choice", "mixed"}, Default: "cloze", Description: "cloze (fill in the blank), choice (four options), or mixed (alternating)."},
				count, seed}},
			{Name: "study_plan", Description: "Topics over study days, no day over the daily budget.", Level: tool.Write, Timeout: tool.Fast, Handler: x.studyPlan, Params: []tool.Param{
				{Name: "topics", Type: tool.Array, Required: true, Description: "Topics in study order.", Items: &tool.Param{Type: tool.Object, Properties: []tool.Param{
					{Name: "name", Type: tool.String, Required: true, Description: "Topic."},
					{Name: "minutes", Type: tool.Integer, Required: true, Description: "Minutes it needs."}}}},
				{Name: "daily_minutes", Type: tool.Integer, Default: 60, Min: tool.Ptr(1), Max: tool.Ptr(1440), Description: "Study minutes per day at most."},
				{Name: "start_date", Type: tool.String, Description: "First day, YYYY-MM-DD (default today)."},
				{Name: "start_time", Type: tool.String, Default: "19:00", Description: "When each day's study starts, HH:MM in the configured time zone."},
				{Name: "days", Type: tool.Integer, Min: tool.Ptr(1), Description: "Finish within this many calendar days (default: as long as needed, up to tools.education_tool.max_plan_days)."},
				{Name: "weekdays", Type: tool.Array, Items: &tool.Param{Type: tool.String}, Description: "Study only on these days (mon … sun; default every day)."},
				{Name: "split", Type: tool.Boolean, Default: true, Description: "Let a topic continue on the next day; off: each topic on one day."},
				{Name: "export_ics", Type: tool.Boolean, Default: false, Description: "Also write the sessions as an .ics calendar file."},
				output, tool.Overwrite}},
		},
		Examples: []string{
			"create a math quiz for grade 3",
			"make vocabulary flashcards",
			"quiz me on these notes",
			"plan my exam revision over 30 days",
			"review my due flashcards",
			"出二十道三年级加减法题",
			"根据课文生成填空题",
			"制定一个月的考研复习计划",
			"复习今天到期的单词卡",
		},
	}
	return x, t, nil
}

// kind is what the records skeleton calls a flashcard.
var kind = records.Kind{Tool: "education_tool", Component: "education", Item: "card", Noun: "flashcard", Hint: "due lists the cards and their ids"}

func (x *edu) needStore() error { return kind.NeedStore(x.st) }

func (x *edu) today() string { return x.now().In(x.loc).Format(dayFmt) }

const dayFmt = records.DayLayout
