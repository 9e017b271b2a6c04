package calendar

import (
	"database/sql"
	"encoding/json"
	"github.com/clawbridge/clawbridge/internal/ical"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
)

// The calendar table. Times are Unix seconds in UTC. A recurring event is
// one row with its RRULE and EXDATEs; an occurrence changed on its own is
// another row with the same uid and recurrence_id set to the occurrence's
// original start (RFC 5545 RECURRENCE-ID). extra keeps the VEVENT
// properties this tool does not model, so an imported event is exported
// with them.
var migrations = []records.Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS calendar_events (
		id TEXT PRIMARY KEY, uid TEXT NOT NULL, calendar TEXT NOT NULL, title TEXT NOT NULL,
		description TEXT NOT NULL, location TEXT NOT NULL, start_at BIGINT NOT NULL, end_at BIGINT NOT NULL,
		all_day INTEGER NOT NULL, tz TEXT NOT NULL, rrule TEXT NOT NULL, exdates TEXT NOT NULL,
		recurrence_id BIGINT NOT NULL, status TEXT NOT NULL, transp TEXT NOT NULL, sequence INTEGER NOT NULL,
		extra TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
		UNIQUE (calendar, uid, recurrence_id))`,
	`CREATE INDEX IF NOT EXISTS calendar_events_span ON calendar_events (calendar, start_at)`,
}}, {Version: 2, Stmts: []string{
	// RDATEs: a series' extra starts (Unix seconds), as exdates.
	`ALTER TABLE calendar_events ADD COLUMN rdates TEXT NOT NULL DEFAULT '[]'`,
}}}

// event is one stored event: the model the ICS codec (internal/ical) reads
// and writes.
type event = ical.Event

const eventCols = `id, uid, calendar, title, description, location, start_at, end_at, all_day, tz, rrule, exdates, recurrence_id, status, transp, sequence, extra, created_at, updated_at, rdates`

func scanEvent(r records.Scanner) (*event, error) {
	e := &event{}
	var start, end, rid int64
	var allDay int
	var ex, extra, rd string
	if err := r.Scan(&e.ID, &e.UID, &e.Calendar, &e.Title, &e.Description, &e.Location, &start, &end, &allDay, &e.TZ, &e.RRule, &ex,
		&rid, &e.Status, &e.Transp, &e.Sequence, &extra, &e.Created, &e.Updated, &rd); err != nil {
		return nil, err
	}
	e.Start, e.End, e.AllDay = time.Unix(start, 0).UTC(), time.Unix(end, 0).UTC(), allDay != 0
	if rid != 0 {
		e.RecurrenceID = time.Unix(rid, 0).UTC()
	}
	var err error
	if e.ExDates, err = unixTimes(ex); err != nil {
		return nil, err
	}
	if e.RDates, err = unixTimes(rd); err != nil {
		return nil, err
	}
	return e, json.Unmarshal([]byte(extra), &e.Extra)
}

// unixTimes and unixJSON are how exdates and rdates are stored.
func unixTimes(s string) ([]time.Time, error) {
	var secs []int64
	if err := json.Unmarshal([]byte(s), &secs); err != nil {
		return nil, err
	}
	var out []time.Time
	for _, x := range secs {
		out = append(out, time.Unix(x, 0).UTC())
	}
	return out, nil
}

func unixJSON(ts []time.Time) string {
	secs := []int64{}
	for _, t := range ts {
		secs = append(secs, t.Unix())
	}
	b, _ := json.Marshal(secs)
	return string(b)
}

func columns(e *event) []any {
	extra := []byte("[]")
	if len(e.Extra) > 0 {
		extra, _ = json.Marshal(e.Extra)
	}
	var rid int64
	if !e.RecurrenceID.IsZero() {
		rid = e.RecurrenceID.Unix()
	}
	return []any{e.ID, e.UID, e.Calendar, e.Title, e.Description, e.Location, e.Start.Unix(), e.End.Unix(), records.Bit(e.AllDay), e.TZ, e.RRule,
		unixJSON(e.ExDates), rid, e.Status, e.Transp, e.Sequence, string(extra), e.Created, e.Updated, unixJSON(e.RDates)}
}

func insertEvent(tx *sql.Tx, e *event) error {
	_, err := tx.Exec(`INSERT INTO calendar_events (`+eventCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`, columns(e)...)
	return err
}

// upsertEvent is an import's write: the same uid and recurrence id in the
// same calendar replace the row (keeping its id), so importing a file
// again adds nothing.
func upsertEvent(tx *sql.Tx, e *event) (inserted bool, err error) {
	var id string
	var rid int64
	if !e.RecurrenceID.IsZero() {
		rid = e.RecurrenceID.Unix()
	}
	err = tx.QueryRow(`SELECT id FROM calendar_events WHERE calendar = $1 AND uid = $2 AND recurrence_id = $3`, e.Calendar, e.UID, rid).Scan(&id)
	if err == sql.ErrNoRows {
		return true, insertEvent(tx, e)
	}
	if err != nil {
		return false, err
	}
	e.ID = id
	return false, updateEvent(tx, e)
}

func updateEvent(tx *sql.Tx, e *event) error {
	c := columns(e)
	_, err := tx.Exec(`UPDATE calendar_events SET uid = $2, calendar = $3, title = $4, description = $5, location = $6, start_at = $7, end_at = $8,
		all_day = $9, tz = $10, rrule = $11, exdates = $12, recurrence_id = $13, status = $14, transp = $15, sequence = $16, extra = $17,
		created_at = $18, updated_at = $19, rdates = $20 WHERE id = $1`, c...)
	return err
}

func getEvent(q records.Querier, id string) (*event, error) {
	return scanEvent(q.QueryRow(`SELECT `+eventCols+` FROM calendar_events WHERE id = $1`, id))
}

// loadEvents reads the rows of the given calendars (all when none) that
// can touch [from, to): series are always read, their instances decided
// by expansion.
func loadEvents(db *sql.DB, calendars []string, from, to time.Time) ([]*event, error) {
	q := `SELECT ` + eventCols + ` FROM calendar_events WHERE (rrule <> '' OR rdates <> '[]' OR (start_at < $1 AND end_at >= $2) OR recurrence_id <> 0)`
	args := []any{to.Unix() + 86400, from.Unix() - 86400} // a day of slack for all-day dates read in the zone
	in, args := inCalendars(calendars, args)
	if in != "" {
		q += ` AND ` + in
	}
	rows, err := db.Query(q+` ORDER BY start_at, id`, args...)
	return records.Collect(rows, err, scanEvent)
}

func allEvents(db *sql.DB, calendars []string) ([]*event, error) {
	q := `SELECT ` + eventCols + ` FROM calendar_events`
	in, args := inCalendars(calendars, nil)
	if in != "" {
		q += ` WHERE ` + in
	}
	rows, err := db.Query(q+` ORDER BY calendar, uid, recurrence_id, id`, args...)
	return records.Collect(rows, err, scanEvent)
}

// inCalendars is the condition that the calendar is one of calendars ("" when
// none are given), its placeholders numbered on from args, and args with them.
func inCalendars(calendars []string, args []any) (string, []any) {
	if len(calendars) == 0 {
		return "", args
	}
	marks := make([]string, len(calendars))
	for i, c := range calendars {
		args = append(args, c)
		marks[i] = "$" + strconv.Itoa(len(args))
	}
	return `calendar IN (` + strings.Join(marks, ", ") + `)`, args
}
