package education

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// A card's schedule lives on its row (reps, interval, ef100, due day in the
// configured zone); every review is also kept in edu_reviews, so what SM-2
// did can be read back.
var migrations = []records.Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS edu_cards (
		id TEXT PRIMARY KEY, deck TEXT NOT NULL, front TEXT NOT NULL, back TEXT NOT NULL,
		reps INTEGER NOT NULL, interval_days INTEGER NOT NULL, ef100 INTEGER NOT NULL, due TEXT NOT NULL,
		created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, UNIQUE (deck, front))`,
	`CREATE INDEX IF NOT EXISTS edu_cards_due ON edu_cards (due)`,
	`CREATE TABLE IF NOT EXISTS edu_reviews (
		card_id TEXT NOT NULL, seq INTEGER NOT NULL, day TEXT NOT NULL, quality INTEGER NOT NULL,
		reps INTEGER NOT NULL, interval_days INTEGER NOT NULL, ef100 INTEGER NOT NULL, due TEXT NOT NULL,
		at BIGINT NOT NULL, PRIMARY KEY (card_id, seq))`,
}}}

type card struct {
	ID    string `json:"id"`
	Deck  string `json:"deck"`
	Front string `json:"front"`
	Back  string `json:"back"`
	sm2State
	Due     string `json:"due"`
	Created int64  `json:"created_at"`
	Updated int64  `json:"updated_at"`
}

type reviewRow struct {
	Seq      int    `json:"seq"`
	Day      string `json:"day"`
	Quality  int    `json:"quality"`
	Reps     int    `json:"reps"`
	Interval int    `json:"interval"`
	EF100    int    `json:"ef100"`
	Due      string `json:"due"`
	At       int64  `json:"at"`
}

type trashedCard struct {
	Card    card        `json:"card"`
	Reviews []reviewRow `json:"reviews,omitempty"`
}

const cardCols = `id, deck, front, back, reps, interval_days, ef100, due, created_at, updated_at`

func scanCard(r records.Scanner) (*card, error) {
	c := &card{}
	return c, r.Scan(&c.ID, &c.Deck, &c.Front, &c.Back, &c.Reps, &c.Interval, &c.EF100, &c.Due, &c.Created, &c.Updated)
}

func insertCard(tx *sql.Tx, c *card) error {
	_, err := tx.Exec(`INSERT INTO edu_cards (`+cardCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		c.ID, c.Deck, c.Front, c.Back, c.Reps, c.Interval, c.EF100, c.Due, c.Created, c.Updated)
	return err
}

func cardView(c *card) map[string]any {
	return map[string]any{"id": c.ID, "deck": c.Deck, "front": c.Front, "back": c.Back, "repetitions": c.Reps,
		"interval_days": c.Interval, "easiness": ef(c.EF100), "due": c.Due}
}

// ef shows hundredths as the decimal they are (2.5, 1.36).
func ef(h int) string {
	s := fmt.Sprintf("%d.%02d", h/100, h%100)
	return strings.TrimSuffix(strings.TrimSuffix(s, "0"), ".0")
}

func deckArg(a tool.Args, def string) (string, error) {
	if !a.Has("deck") {
		return def, nil
	}
	d := strings.TrimSpace(a.String("deck"))
	if d == "" {
		return "", tool.Invalid("deck", "deck is empty", "name the deck, or leave deck out")
	}
	return d, nil
}

func (x *edu) addCards(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	deck, err := deckArg(call.Args, "default")
	if err != nil {
		return nil, err
	}
	var in []struct {
		Front *string `json:"front"`
		Back  *string `json:"back"`
	}
	if err := call.Args.Decode("cards", &in); err != nil {
		return nil, tool.Invalid("cards", "cards must be a list of {front, back}", "")
	}
	if len(in) == 0 {
		return nil, tool.Invalid("cards", "cards is empty", "give at least one {front, back}")
	}
	now, today := x.now().UnixMilli(), x.today()
	var cards []*card
	seen := map[string]bool{}
	for i, c := range in {
		for _, f := range []struct {
			name string
			v    *string
		}{{"front", c.Front}, {"back", c.Back}} {
			field := fmt.Sprintf("cards[%d].%s", i, f.name)
			if f.v == nil || strings.TrimSpace(*f.v) == "" {
				return nil, tool.Invalid(field, field+" is missing or empty", "every card needs a front and a back")
			}
			if n := len([]rune(*f.v)); n > x.cfg.MaxChars {
				return nil, tool.Invalid(field, fmt.Sprintf("%s is %d characters, over %d", field, n, x.cfg.MaxChars), "shorten it, or raise tools.education_tool.max_chars")
			}
		}
		front := strings.TrimSpace(*c.Front)
		if seen[front] {
			continue
		}
		seen[front] = true
		cards = append(cards, &card{ID: records.NewID("c"), Deck: deck, Front: front, Back: strings.TrimSpace(*c.Back),
			sm2State: sm2State{EF100: startEF100}, Due: today, Created: now, Updated: now})
	}
	var added []map[string]any
	var skipped []string
	err = x.st.Tx(ctx, func(tx *sql.Tx) error {
		for _, c := range cards {
			var have string
			switch err := tx.QueryRow(`SELECT id FROM edu_cards WHERE deck = $1 AND front = $2`, c.Deck, c.Front).Scan(&have); {
			case err == nil:
				skipped = append(skipped, c.Front)
				continue
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			if err := insertCard(tx, c); err != nil {
				return err
			}
			added = append(added, cardView(c))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sum := fmt.Sprintf("Added %s to deck %q, due today.", wording.Count(len(added), "card", "cards"), deck)
	if len(skipped) > 0 {
		sum += fmt.Sprintf(" %d already in the deck were skipped.", len(skipped))
	}
	return &tool.Result{Summary: sum, Data: map[string]any{"deck": deck, "added": added, "skipped": skipped}}, nil
}

func (x *edu) decks(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	rows, err := x.st.Read().Query(`SELECT deck, COUNT(*), SUM(CASE WHEN due <= $1 THEN 1 ELSE 0 END) FROM edu_cards GROUP BY deck ORDER BY deck`, x.today())
	out, err := records.Collect(rows, err, func(r records.Scanner) (map[string]any, error) {
		var d string
		var n, due int
		err := r.Scan(&d, &n, &due)
		return map[string]any{"deck": d, "cards": n, "due_today": due}, err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []map[string]any{}
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.", wording.Count(len(out), "deck", "decks")), Data: map[string]any{"decks": out}}, nil
}

func (x *edu) due(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	day := x.today()
	if a.Has("date") {
		var err error
		if day, err = records.Day("date", a.String("date")); err != nil {
			return nil, err
		}
	}
	deck, err := deckArg(a, "")
	if err != nil {
		return nil, err
	}
	q, args := `SELECT `+cardCols+` FROM edu_cards WHERE due <= $1`, []any{day}
	if deck != "" {
		q, args = q+` AND deck = $2`, append(args, deck)
	}
	rows, err := x.st.Read().Query(q+` ORDER BY due, created_at, id`, args...)
	cards, err := records.Collect(rows, err, scanCard)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, c := range cards {
		if len(out) >= a.Int("limit", 50) {
			break
		}
		out = append(out, cardView(c))
	}
	return &tool.Result{Summary: fmt.Sprintf("%s due by %s (%d shown).", wording.Count(len(cards), "card", "cards"), day, len(out)),
		Data: map[string]any{"date": day, "due": len(cards), "cards": out}}, nil
}

func getCard(q records.Querier, id string) (*card, error) {
	return scanCard(q.QueryRow(`SELECT `+cardCols+` FROM edu_cards WHERE id = $1`, id))
}

func (x *edu) review(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	q := call.Args.Int("quality", -1)
	if !call.Args.Has("quality") || q < 0 || q > 5 {
		return nil, tool.Invalid("quality", "quality must be a whole number 0–5", "5 perfect, 4 good, 3 hard, 0–2 wrong")
	}
	var before sm2State
	c, err := records.Change(ctx, x.st, kind, call.Args.String("id"), getCard, func(tx *sql.Tx, c *card) error {
		before = c.sm2State
		today := x.today()
		c.sm2State = c.review(q)
		c.Due, c.Updated = records.AddDays(today, c.Interval), x.now().UnixMilli()
		var seq int
		if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM edu_reviews WHERE card_id = $1`, c.ID).Scan(&seq); err != nil {
			return err
		}
		r := reviewRow{Seq: seq + 1, Day: today, Quality: q, Reps: c.Reps, Interval: c.Interval, EF100: c.EF100, Due: c.Due, At: c.Updated}
		if err := insertReview(tx, c.ID, r); err != nil {
			return err
		}
		_, err := tx.Exec(`UPDATE edu_cards SET reps = $2, interval_days = $3, ef100 = $4, due = $5, updated_at = $6 WHERE id = $1`,
			c.ID, c.Reps, c.Interval, c.EF100, c.Due, c.Updated)
		return err
	})
	if err != nil {
		return nil, err
	}
	v := cardView(c)
	v["easiness_before"] = ef(before.EF100)
	return &tool.Result{Summary: fmt.Sprintf("Quality %d: next review of %q in %s (%s), easiness %s.", q, c.Front, wording.Count(c.Interval, "day", "days"), c.Due, ef(c.EF100)), Data: v}, nil
}

func insertReview(tx *sql.Tx, cardID string, r reviewRow) error {
	_, err := tx.Exec(`INSERT INTO edu_reviews (card_id, seq, day, quality, reps, interval_days, ef100, due, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		cardID, r.Seq, r.Day, r.Quality, r.Reps, r.Interval, r.EF100, r.Due, r.At)
	return err
}

func reviews(q interface {
	Query(string, ...any) (*sql.Rows, error)
}, id string) ([]reviewRow, error) {
	rows, err := q.Query(`SELECT seq, day, quality, reps, interval_days, ef100, due, at FROM edu_reviews WHERE card_id = $1 ORDER BY seq`, id)
	return records.Collect(rows, err, func(s records.Scanner) (reviewRow, error) {
		var r reviewRow
		err := s.Scan(&r.Seq, &r.Day, &r.Quality, &r.Reps, &r.Interval, &r.EF100, &r.Due, &r.At)
		return r, err
	})
}

func (x *edu) deleteCard(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	c, err := records.Change(ctx, x.st, kind, id, getCard, func(tx *sql.Tx, c *card) error {
		rs, err := reviews(tx, id)
		if err != nil {
			return err
		}
		return kind.Delete(tx, id, c.Front, trashedCard{Card: *c, Reviews: rs}, `DELETE FROM edu_reviews WHERE card_id = $1`, `DELETE FROM edu_cards WHERE id = $1`)
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Deleted card %q (%s) to the trash; restore_card brings it back.", c.Front, id), Data: map[string]any{"id": id}}, nil
}

func (x *edu) restoreCard(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	var t trashedCard
	err := kind.Restore(ctx, x.st, id, &t, func(tx *sql.Tx) error {
		var other string
		if err := tx.QueryRow(`SELECT id FROM edu_cards WHERE deck = $1 AND front = $2`, t.Card.Deck, t.Card.Front).Scan(&other); err == nil {
			return tool.Existsf("id", "delete that card first", "deck %q has another card %q with the same front (%s)", t.Card.Deck, t.Card.Front, other)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := insertCard(tx, &t.Card); err != nil {
			return err
		}
		for _, r := range t.Reviews {
			if err := insertReview(tx, id, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Restored card %q (%s) with %s.", t.Card.Front, id, wording.Count(len(t.Reviews), "review", "reviews")), Data: cardView(&t.Card)}, nil
}

func (x *edu) exportCards(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	deck, err := deckArg(call.Args, "")
	if err != nil {
		return nil, err
	}
	out, err := tool.PlanOutput(x.sb, call.Args, tool.Output{Stem: "flashcards", Exts: []string{".csv"}})
	if err != nil {
		return nil, err
	}
	q, args := `SELECT `+cardCols+` FROM edu_cards`, []any{}
	if deck != "" {
		q, args = q+` WHERE deck = $1`, append(args, deck)
	}
	rows, err := x.st.Read().Query(q+` ORDER BY deck, created_at, id`, args...)
	cards, err := records.Collect(rows, err, scanCard)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"deck", "front", "back", "repetitions", "interval_days", "easiness", "due"})
	for _, c := range cards {
		w.Write([]string{c.Deck, c.Front, c.Back, fmt.Sprint(c.Reps), fmt.Sprint(c.Interval), ef(c.EF100), c.Due})
	}
	w.Flush()
	f, err := out.Write(".csv", b.Bytes())
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Exported %s to %s.", wording.Count(len(cards), "card", "cards"), x.sb.Rel(f.Path)), Data: map[string]any{"cards": len(cards), "path": x.sb.Rel(f.Path)}, Files: []tool.File{f}}, nil
}
