// Package calendar is the `calendar` tool: a local calendar in the store.
// Events are created, updated and deleted (to the trash, restorable);
// recurring ones carry an RFC 5545 RRULE with EXDATE exceptions and
// occurrences changed on their own (RECURRENCE-ID). query lists the
// instances in a range; free_slots finds gaps of a duration within the
// configured working hours across several calendars. import_ics reads
// .ics files (golang-ical parses them; TZIDs may be IANA names, Windows
// names as Outlook writes them, IANA names behind a publisher prefix or
// in X-LIC-LOCATION, or zones only their VTIMEZONE defines, which keep
// that VTIMEZONE's rules); a VEVENT it cannot read is skipped and named in
// the result, and importing the same file again changes nothing.
// export_ics writes them back (CRLF lines, RFC 5545) with the properties
// this tool does not model, so export then import gives the same events.
//
// Instants are stored in UTC; a zoned event keeps its IANA zone so that it
// repeats on that wall clock across daylight-saving changes. Days, "today",
// "next monday" and working hours are in tools.calendar.timezone (default:
// the system's). It does not sync with remote calendars (CalDAV), send
// invitations, or handle alarms beyond keeping them in exported files.
package calendar

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/ical"
	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/internal/zone"
	"github.com/clawbridge/clawbridge/tools/tool"

	"github.com/teambition/rrule-go"
)

type caltool struct {
	cfg  Config
	st   tool.Records
	sb   *sandbox.Sandbox
	loc  *time.Location
	work [2]time.Duration
	now  func() time.Time
}

// New builds the calendar tool from the tools.calendar section.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.calendar section over the defaults, then
// provisions; its Build keeps the tool's state, which the tests drive.
var lifecycle = tool.Stateful[Config, *caltool]{Name: "calendar", Defaults: DefaultConfig, Provision: provision}

func provision(d *tool.Deps, cfg Config) (*caltool, tool.Tool, error) {
	loc, err := d.OpenRecords("calendar", cfg.Timezone, migrations...)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	ws, _ := clock(cfg.WorkStart)
	we, _ := clock(cfg.WorkEnd)
	c := &caltool{cfg: cfg, st: d.Store, sb: d.Sandbox, loc: loc, work: [2]time.Duration{ws, we}, now: func() time.Time { return time.Now().UTC() }}
	eventFields := []tool.Param{
		{Name: "title", Type: tool.String, Description: "What the event is."},
		{Name: "start", Type: tool.String, Description: "RFC 3339 (2026-03-09T10:00:00+08:00), a local time (2026-03-09T10:00, tomorrow 3pm, 明天下午3点, in the calendar's zone) or, with all_day, a day."},
		{Name: "end", Type: tool.String, Description: "Like start; exclusive. Or give duration_minutes."},
		{Name: "duration_minutes", Type: tool.Integer, Min: tool.Ptr(1), Description: "Instead of end."},
		{Name: "all_day", Type: tool.Boolean, Description: "start and end are dates (end: the last day, inclusive)."},
		{Name: "timezone", Type: tool.String, Description: "IANA zone the event keeps (default: the configured one)."},
		{Name: "location", Type: tool.String, Description: "Where it is."},
		{Name: "description", Type: tool.String, Private: true, Description: "Notes."},
		{Name: "rrule", Type: tool.String, Description: "RFC 5545 recurrence, e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10 (\"\" on update: no longer repeats)."},
		{Name: "exdates", Type: tool.Array, Items: &tool.Param{Type: tool.String}, Description: "Start times of occurrences to leave out."},
	}
	calParam := tool.Param{Name: "calendar", Type: tool.String, Description: "Calendar name (default " + cfg.Calendar + ")."}
	calsParam := tool.Param{Name: "calendars", Type: tool.Array, Items: &tool.Param{Type: tool.String}, Description: "Calendars to include (default: all)."}
	id := tool.Param{Name: "id", Type: tool.String, Required: true, Description: "The event id (from create or query)."}
	occ := tool.Param{Name: "occurrence", Type: tool.String, Description: "For a recurring event: the start of the one occurrence to change or delete (as query shows it)."}
	rangeParams := []tool.Param{
		{Name: "from", Type: tool.String, Required: true, Description: "today, tomorrow, next monday, this week, next week, 明天, 下周一, a date or a time."},
		{Name: "to", Type: tool.String, Description: "End of the range: a time, or a day word or date, which counts in full (default: the end of from's day or week)."},
		calsParam,
	}
	create := append([]tool.Param{}, eventFields...)
	create[0].Required, create[1].Required = true, true
	create = append(create, calParam)
	update := append([]tool.Param{id, occ}, eventFields...)
	t := tool.Tool{
		Name:  "calendar",
		Title: "Calendar",
		Description: "A local calendar: query a range (today, next week, dates), find free slots within working hours, create, update " +
			"and delete events (recurring ones with RRULE and exceptions), import and export .ics (Google, Outlook).",
		Actions: []tool.Action{
			{Name: "query", Description: "Events in a range, recurring ones expanded.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: c.query, Params: rangeParams},
			{Name: "free_slots", Description: "Free time of at least duration_minutes within working hours.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: c.free,
				Params: append([]tool.Param{{Name: "duration_minutes", Type: tool.Integer, Required: true, Min: tool.Ptr(1), Max: tool.Ptr(1440), Description: "Length of the slot needed."}}, rangeParams...)},
			{Name: "create", Description: "Create an event.", Level: tool.Write, Timeout: tool.Fast, Handler: c.create, Params: create},
			{Name: "update", Description: "Change an event, or one occurrence of a recurring one.", Level: tool.Write, Timeout: tool.Fast, Handler: c.update, Params: update},
			{Name: "delete", Description: "Delete an event to the trash, or leave one occurrence out.", Level: tool.Write, Timeout: tool.Fast, Handler: c.delete, Params: []tool.Param{id, occ}},
			{Name: "restore", Description: "Bring a deleted event back from the trash.", Level: tool.Write, Timeout: tool.Fast, Handler: c.restore, Params: []tool.Param{id}},
			{Name: "import_ics", Description: "Import an .ics file (the same file twice changes nothing; events it cannot read are listed).", Level: tool.Write, Timeout: tool.Normal, Handler: c.importICS,
				Params: []tool.Param{{Name: "path", Type: tool.String, Required: true, Description: "The .ics file."}, calParam}},
			{Name: "export_ics", Description: "Export events to an .ics file.", Level: tool.Write, Timeout: tool.Normal, Handler: c.exportICS, Params: []tool.Param{
				calsParam,
				tool.OutputParam("Default outputs/calendar.ics."),
				tool.Overwrite,
			}},
		},
		Examples: []string{
			"what's on my schedule tomorrow",
			"book a call with the client on Tuesday at 10",
			"find a free hour next week",
			"export my calendar to ics",
			"import this ics file from outlook",
			"明天有什么安排",
			"帮我在日程里加一个周四的会议",
			"看看我这周哪天有空",
			"把下午的会议改到四点",
		},
	}
	return c, t, nil
}

func newID() string { return records.NewID("e") }

// kind is what the records skeleton calls an event.
var kind = records.Kind{Tool: "calendar", Component: "calendar", Item: "event", Noun: "event", Hint: "query shows the events and their ids"}

func (c *caltool) needStore() error { return kind.NeedStore(c.st) }

// view is one instance as the model sees it, in the zone.
func (c *caltool) view(o occurrence) map[string]any {
	e := o.ev
	v := map[string]any{"id": e.ID, "title": e.Title, "calendar": e.Calendar}
	if e.AllDay {
		v["all_day"] = true
		v["start"] = o.start.Format("2006-01-02")
		v["end"] = o.end.AddDate(0, 0, -1).Format("2006-01-02")
	} else {
		v["start"] = o.start.In(c.loc).Format(time.RFC3339)
		v["end"] = o.end.In(c.loc).Format(time.RFC3339)
	}
	if e.Location != "" {
		v["location"] = e.Location
	}
	if e.Description != "" {
		v["description"] = e.Description
	}
	if tz := ical.ZoneLabel(e.TZ); tz != "" && tz != c.loc.String() {
		v["event_timezone"] = tz
	}
	if repeats(e) || !e.RecurrenceID.IsZero() {
		v["recurring"] = true
		if e.RRule != "" {
			v["rrule"] = e.RRule
		}
		if e.AllDay {
			v["occurrence"] = o.original.Format("2006-01-02")
		} else {
			v["occurrence"] = o.original.In(c.loc).Format(time.RFC3339)
		}
	}
	if e.Status != "" && e.Status != "CONFIRMED" {
		v["status"] = e.Status
	}
	return v
}

func (c *caltool) rangeOf(a tool.Args) (time.Time, time.Time, error) {
	now := c.now()
	from, to, err := parseRangeStart(a.String("from"), now, c.loc)
	if err != nil {
		return from, to, tool.Invalid("from", err.Error(), "")
	}
	if a.Has("to") {
		if to, err = parseRangeEnd(a.String("to"), now, c.loc); err != nil {
			return from, to, tool.Invalid("to", err.Error(), "")
		}
	}
	if !to.After(from) {
		return from, to, tool.Invalid("to", fmt.Sprintf("to (%s) is not after from (%s)", to.In(c.loc).Format(time.RFC3339), from.In(c.loc).Format(time.RFC3339)), "give an end after the start")
	}
	if to.Sub(from) > 366*24*time.Hour {
		return from, to, tool.Invalid("to", "the range is longer than a year", "query a year or less at a time")
	}
	return from, to, nil
}

// instances reads the range a gives (from, to) and the occurrences of the
// events of a's calendars in it, after the store check.
func (c *caltool) instances(a tool.Args) (from, to time.Time, occ []occurrence, err error) {
	if err := c.needStore(); err != nil {
		return from, to, nil, err
	}
	if from, to, err = c.rangeOf(a); err != nil {
		return from, to, nil, err
	}
	evs, err := loadEvents(c.st.Read(), a.Strings("calendars"), from, to)
	if err != nil {
		return from, to, nil, err
	}
	occ, err = expand(evs, from, to, c.loc, c.cfg.MaxOccurrences)
	if err != nil {
		return from, to, nil, tool.Errorf(tool.CodeTooLarge, "query a shorter range", "%v", err)
	}
	return from, to, occ, nil
}

func (c *caltool) query(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	from, to, occ, err := c.instances(call.Args)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(occ))
	for _, o := range occ {
		out = append(out, c.view(o))
	}
	return &tool.Result{Summary: fmt.Sprintf("%s from %s to %s (%s).", wording.Count(len(out), "event", "events"), from.In(c.loc).Format("2006-01-02 15:04"), to.In(c.loc).Format("2006-01-02 15:04"), c.loc),
		Data: map[string]any{"events": out, "from": from.In(c.loc).Format(time.RFC3339), "to": to.In(c.loc).Format(time.RFC3339), "timezone": c.loc.String()}}, nil
}

func (c *caltool) free(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	from, to, occ, err := c.instances(call.Args)
	if err != nil {
		return nil, err
	}
	busy := occ[:0:0]
	for _, o := range occ {
		if o.ev.Transp != "TRANSPARENT" && o.ev.Status != "CANCELLED" {
			busy = append(busy, o)
		}
	}
	dur := time.Duration(call.Args.Int("duration_minutes", 30)) * time.Minute
	slots := freeSlots(busy, from, to, c.loc, c.work[0], c.work[1], c.cfg.WorkDays, dur)
	out := make([]map[string]any, 0, len(slots))
	for _, s := range slots {
		out = append(out, map[string]any{"start": s[0].In(c.loc).Format(time.RFC3339), "end": s[1].In(c.loc).Format(time.RFC3339), "minutes": int(s[1].Sub(s[0]).Minutes())})
	}
	return &tool.Result{Summary: fmt.Sprintf("%d free slots of at least %d minutes within %s-%s (%s).", len(out), int(dur.Minutes()), c.cfg.WorkStart, c.cfg.WorkEnd, c.loc),
		Data: map[string]any{"slots": out, "busy": len(busy), "working_hours": c.cfg.WorkStart + "-" + c.cfg.WorkEnd, "timezone": c.loc.String()}}, nil
}

// fill applies the event fields given in a to e, checking each and naming
// the field that is wrong. creating requires title and start.
func (c *caltool) fill(e *event, a tool.Args, creating bool) error {
	if a.Has("title") {
		e.Title = strings.TrimSpace(a.String("title"))
		if e.Title == "" {
			return tool.Invalid("title", "title is empty", "say what the event is")
		}
	}
	if a.Has("location") {
		e.Location = a.String("location")
	}
	if a.Has("description") {
		e.Description = a.String("description")
	}
	if err := c.fillTimes(e, a, creating); err != nil {
		return err
	}
	return c.fillRecurrence(e, a)
}

// zoneOf is the zone e's times are read in and what e stores for it: an
// event keeps its own zone (perhaps one an imported file defined) unless
// timezone is given.
func (c *caltool) zoneOf(e *event, a tool.Args) (*time.Location, string, error) {
	loc, tz := c.loc, c.loc.String()
	if a.Has("timezone") {
		l, err := zone.Load("timezone", a.String("timezone"))
		if err != nil {
			return nil, "", tool.Invalid("timezone", err.Error(), "")
		}
		loc, tz = l, l.String()
	} else if e.TZ != "" {
		if l, err := ical.LoadZone(e.TZ); err == nil {
			loc, tz = l, e.TZ
		}
	}
	return loc, tz, nil
}

// fillTimes applies all_day, start, end and duration_minutes.
func (c *caltool) fillTimes(e *event, a tool.Args, creating bool) error {
	loc, tz, err := c.zoneOf(e, a)
	if err != nil {
		return err
	}
	if a.Has("all_day") {
		e.AllDay = a.Bool("all_day", false)
	}
	dur := e.End.Sub(e.Start)
	if a.Has("start") || (creating && a.Has("all_day")) || a.Has("timezone") {
		s := a.String("start")
		if !a.Has("start") {
			s = e.Start.In(loc).Format("2006-01-02T15:04:05")
			if e.AllDay {
				s = e.Start.Format("2006-01-02")
			}
		}
		if e.AllDay {
			d, err := c.dateAt(s, loc)
			if err != nil {
				return tool.Invalid("start", err.Error(), "an all-day event takes a date: 2026-03-09")
			}
			e.Start, e.TZ = d, ""
		} else {
			t, err := c.instantAt(s, loc)
			if err != nil {
				return tool.Invalid("start", err.Error(), "")
			}
			e.Start, e.TZ = t, tz
			if loc == time.UTC {
				e.TZ = ""
			}
		}
	}
	switch {
	case a.Has("end") && a.Has("duration_minutes"):
		return tool.Invalid("end", "give end or duration_minutes, not both", "")
	case a.Has("end") && e.AllDay:
		d, err := c.dateAt(a.String("end"), loc)
		if err != nil {
			return tool.Invalid("end", err.Error(), "the last day, inclusive: 2026-03-10")
		}
		e.End = d.AddDate(0, 0, 1)
	case a.Has("end"):
		t, err := c.instantAt(a.String("end"), loc)
		if err != nil {
			return tool.Invalid("end", err.Error(), "")
		}
		e.End = t
	case a.Has("duration_minutes"):
		e.End = e.Start.Add(time.Duration(a.Int("duration_minutes", 0)) * time.Minute)
	case creating && e.AllDay:
		e.End = e.Start.AddDate(0, 0, 1)
	case creating:
		e.End = e.Start.Add(time.Hour)
	default:
		e.End = e.Start.Add(dur)
	}
	if !e.End.After(e.Start) {
		f := "end"
		if a.Has("duration_minutes") {
			f = "duration_minutes"
		}
		return tool.Invalid(f, "the event ends before it starts", "give an end after start")
	}
	return nil
}

// fillRecurrence applies rrule and exdates.
func (c *caltool) fillRecurrence(e *event, a tool.Args) error {
	if a.Has("rrule") {
		e.RRule = strings.ToUpper(strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(a.String("rrule")), "RRULE:"), " ", ""))
	}
	if e.RRule != "" {
		if !e.RecurrenceID.IsZero() {
			return tool.Invalid("rrule", "one occurrence of a series cannot repeat on its own", "update the series (without occurrence) instead")
		}
		if _, err := ical.ParseRule(e.RRule, e.Start.In(e.WallZone(c.loc))); err != nil {
			return tool.Invalid("rrule", fmt.Sprintf("RRULE %q: %v", e.RRule, err), "e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10")
		}
	}
	if a.Has("exdates") {
		e.ExDates = nil
		for _, s := range a.Strings("exdates") {
			t, err := c.occurrenceTime(e, s)
			if err != nil {
				return tool.Invalid("exdates", err.Error(), "")
			}
			e.ExDates = append(e.ExDates, t)
		}
		if len(e.ExDates) > 0 && !repeats(e) {
			return tool.Invalid("exdates", "exdates need a recurring event (rrule)", "")
		}
	}
	return nil
}

// occurrenceTime reads the start of one occurrence of e (a date for an
// all-day series).
func (c *caltool) occurrenceTime(e *event, s string) (time.Time, error) {
	if e.AllDay {
		return c.dateAt(s, c.loc)
	}
	return c.instantAt(s, e.WallZone(c.loc))
}

// occurrenceArg reads a's occurrence: the start of one occurrence of e,
// which must repeat. verb is what the call does to e ("update"), for the
// hint when e does not repeat.
func (c *caltool) occurrenceArg(e *event, a tool.Args, verb string) (time.Time, error) {
	if !repeats(e) {
		return time.Time{}, tool.Invalid("occurrence", "the event does not repeat", verb+" it without occurrence")
	}
	t, err := c.occurrenceTime(e, a.String("occurrence"))
	if err != nil || !c.isOccurrence(e, t) {
		return t, tool.Invalid("occurrence", fmt.Sprintf("%q is not an occurrence of %s", a.String("occurrence"), e.ID), "give the occurrence's start as query shows it")
	}
	return t, nil
}

func (c *caltool) create(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	now := c.now()
	e := &event{ID: newID(), Calendar: strings.TrimSpace(call.Args.StringOr("calendar", c.cfg.Calendar)), Created: now.Unix(), Updated: now.Unix()}
	e.UID = e.ID + "@clawbridge"
	if e.Calendar == "" {
		return nil, tool.Invalid("calendar", "calendar is empty", "leave it out for "+c.cfg.Calendar)
	}
	if err := c.fill(e, call.Args, true); err != nil {
		return nil, err
	}
	if err := c.st.Tx(ctx, func(tx *sql.Tx) error { return insertEvent(tx, e) }); err != nil {
		return nil, err
	}
	s, en := span(e, c.loc)
	v := c.view(occurrence{ev: e, start: s, end: en, original: s})
	return &tool.Result{Summary: fmt.Sprintf("Created %q (%s) on %s, %s.", e.Title, e.ID, e.Calendar, v["start"]), Data: v}, nil
}

// change runs fn on event id in one transaction.
func (c *caltool) change(ctx context.Context, id string, fn func(tx *sql.Tx, e *event) error) (*event, error) {
	return records.Change(ctx, c.st, kind, id, getEvent, fn)
}

// isOccurrence checks that t is an instance of series e.
func (c *caltool) isOccurrence(e *event, t time.Time) bool {
	start, _ := span(e, c.loc)
	wt := t
	if e.AllDay {
		wt = ical.DateIn(t, c.loc)
	}
	var r *rrule.RRule
	if e.RRule != "" {
		var err error
		if r, err = ical.ParseRule(e.RRule, start.In(e.WallZone(c.loc))); err != nil {
			return false
		}
	}
	got, err := ical.SeriesInstants(e, r, c.loc, wt, wt.Add(time.Second))
	return err == nil && len(got) > 0
}

func (c *caltool) update(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	now := c.now()
	var result *event
	_, err := c.change(ctx, call.Args.String("id"), func(tx *sql.Tx, e *event) error {
		target := e
		if call.Args.Has("occurrence") {
			t, err := c.occurrenceArg(e, call.Args, "update")
			if err != nil {
				return err
			}
			// An override: the series' fields, this occurrence's time.
			o := *e
			o.ID, o.RRule, o.RDates, o.ExDates, o.RecurrenceID, o.Created = newID(), "", nil, nil, t, now.Unix()
			o.Start, o.End = t, t.Add(e.End.Sub(e.Start))
			target = &o
			var existing string
			if err := tx.QueryRow(`SELECT id FROM calendar_events WHERE calendar = $1 AND uid = $2 AND recurrence_id = $3`, e.Calendar, e.UID, t.Unix()).Scan(&existing); err == nil {
				if target, err = getEvent(tx, existing); err != nil {
					return err
				}
			}
		}
		if err := c.fill(target, call.Args, false); err != nil {
			return err
		}
		target.Sequence++
		target.Updated = now.Unix()
		result = target
		if target.ID != e.ID {
			if _, err := getEvent(tx, target.ID); errors.Is(err, sql.ErrNoRows) {
				return insertEvent(tx, target)
			}
		}
		return updateEvent(tx, target)
	})
	if err != nil {
		return nil, err
	}
	s, en := span(result, c.loc)
	orig := result.RecurrenceID
	if orig.IsZero() {
		orig = s
	}
	v := c.view(occurrence{ev: result, start: s, end: en, original: orig})
	return &tool.Result{Summary: fmt.Sprintf("Updated %q (%s): %s.", result.Title, result.ID, v["start"]), Data: v}, nil
}

func (c *caltool) delete(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	var summary string
	_, err := c.change(ctx, call.Args.String("id"), func(tx *sql.Tx, e *event) error {
		if call.Args.Has("occurrence") {
			t, err := c.occurrenceArg(e, call.Args, "delete")
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(e.ExDates, t.Equal) {
				e.ExDates = append(e.ExDates, t)
			}
			e.Sequence++
			e.Updated = c.now().Unix()
			summary = fmt.Sprintf("Left out the %s occurrence of %q (EXDATE); update with exdates to bring it back.", call.Args.String("occurrence"), e.Title)
			if _, err := tx.Exec(`DELETE FROM calendar_events WHERE calendar = $1 AND uid = $2 AND recurrence_id = $3`, e.Calendar, e.UID, t.Unix()); err != nil {
				return err
			}
			return updateEvent(tx, e)
		}
		// The series and its changed occurrences go to the trash together.
		rows, err := tx.Query(`SELECT `+eventCols+` FROM calendar_events WHERE calendar = $1 AND uid = $2 ORDER BY recurrence_id`, e.Calendar, e.UID)
		group, err := records.Collect(rows, err, scanEvent)
		if err != nil {
			return err
		}
		if !e.RecurrenceID.IsZero() { // one changed occurrence only
			group = []*event{e}
		}
		if err := kind.Trash(tx, e.ID, e.Title, group); err != nil {
			return err
		}
		for _, x := range group {
			if _, err := tx.Exec(`DELETE FROM calendar_events WHERE id = $1`, x.ID); err != nil {
				return err
			}
		}
		summary = fmt.Sprintf("Deleted %q (%s) to the trash; restore with id %s.", e.Title, e.ID, e.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: summary, Data: map[string]any{"id": call.Args.String("id")}}, nil
}

func (c *caltool) restore(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	var group []*event
	err := kind.Restore(ctx, c.st, id, &group, func(tx *sql.Tx) error {
		for _, e := range group {
			if err := insertEvent(tx, e); err != nil {
				return tool.Existsf("id", "an event with its UID was created or imported since; delete that one first", "cannot restore %s: %v", e.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Restored %q (%s).", group[0].Title, id), Data: map[string]any{"id": id, "rows": len(group)}}, nil
}

func (c *caltool) importICS(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	p := call.Args.String("path")
	_, raw, err := tool.ReadInput(c.sb, "path", p, int64(c.cfg.MaxImportMB)<<20, "split the file, or raise tools.calendar.max_import_mb")
	if err != nil {
		return nil, err
	}
	cal := strings.TrimSpace(call.Args.StringOr("calendar", c.cfg.Calendar))
	evs, skips, err := ical.Parse(bytes.NewReader(raw), cal, c.loc, c.now())
	if err != nil {
		return nil, tool.Invalid("path", fmt.Sprintf("%s: %v", p, err), "nothing was imported")
	}
	if len(evs) == 0 && len(skips) > 0 {
		var why []string
		for _, s := range skips {
			why = append(why, s.Event+": "+s.Reason)
		}
		return nil, tool.Invalid("path", fmt.Sprintf("%s: no event could be read: %s", p, strings.Join(why, "; ")), "nothing was imported")
	}
	added, updated := 0, 0
	err = c.st.Tx(ctx, func(tx *sql.Tx) error {
		for _, e := range evs {
			e.ID = newID()
			ins, err := upsertEvent(tx, e)
			if err != nil {
				return err
			}
			if ins {
				added++
			} else {
				updated++
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("Imported %s from %s into %s: %d new, %d already there (replaced).", wording.Count(len(evs), "event", "events"), p, cal, added, updated)
	data := map[string]any{"events": len(evs), "added": added, "updated": updated, "calendar": cal}
	if len(skips) > 0 {
		summary += fmt.Sprintf(" Skipped %d that could not be read (see skipped).", len(skips))
		data["skipped"] = skips
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}

func (c *caltool) exportICS(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	evs, err := allEvents(c.st.Read(), call.Args.Strings("calendars"))
	if err != nil {
		return nil, err
	}
	out, err := tool.PlanOutput(c.sb, call.Args, tool.Output{Stem: "calendar", Exts: []string{".ics"}})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := ical.Write(&b, evs, c.now()); err != nil {
		return nil, err
	}
	f, err := out.Write(".ics", b.Bytes())
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Exported %s to %s.", wording.Count(len(evs), "event", "events"), c.sb.Rel(f.Path)), Data: map[string]any{"events": len(evs), "path": c.sb.Rel(f.Path)}, Files: []tool.File{f}}, nil
}
