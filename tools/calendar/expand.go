package calendar

import (
	"fmt"
	"github.com/clawbridge/clawbridge/internal/ical"
	"sort"
	"strconv"
	"time"

	"github.com/teambition/rrule-go"
)

// occurrence is one instance of an event in a range.
type occurrence struct {
	ev         *event
	start, end time.Time // instants
	original   time.Time // the series' start for this instance (its RECURRENCE-ID)
}

// span is an event's instants: an all-day date is read as that day in loc.
func span(e *event, loc *time.Location) (time.Time, time.Time) {
	if !e.AllDay {
		return e.Start, e.End
	}
	return ical.DateIn(e.Start, loc), ical.DateIn(e.End, loc)
}

// repeats reports a series: an RRULE or RDATEs (not a changed occurrence).
func repeats(e *event) bool {
	return (e.RRule != "" || len(e.RDates) > 0) && e.RecurrenceID.IsZero()
}

// overlaps reports an instance in [from, to); one without length counts
// at its start (RFC 5545 4.6.1's free-busy rule, as recurring-ical-events).
func overlaps(start, end, from, to time.Time) bool {
	if end.Equal(start) {
		return !start.Before(from) && start.Before(to)
	}
	return start.Before(to) && end.After(from)
}

// expand lists the instances of events in [from, to), series expanded in
// their wall-clock zone, EXDATEs left out and changed occurrences put in
// place of the ones they replace, sorted by start. At most max instances.
func expand(events []*event, from, to time.Time, loc *time.Location, max int) ([]occurrence, error) {
	overridden := map[string]bool{} // calendar|uid|original start
	for _, e := range events {
		if !e.RecurrenceID.IsZero() {
			overridden[e.Calendar+"|"+e.UID+"|"+strconv.FormatInt(e.RecurrenceID.Unix(), 10)] = true
		}
	}
	var out []occurrence
	for _, e := range events {
		start, end := span(e, loc)
		dur := end.Sub(start)
		if !repeats(e) {
			if overlaps(start, end, from, to) {
				orig := e.RecurrenceID
				if orig.IsZero() {
					orig = start
				}
				out = append(out, occurrence{ev: e, start: start, end: end, original: orig})
			}
			continue
		}
		wall := e.WallZone(loc)
		var r *rrule.RRule
		if e.RRule != "" {
			var err error
			if r, err = ical.ParseRule(e.RRule, start.In(wall)); err != nil {
				return nil, fmt.Errorf("event %s: RRULE %q: %v", e.ID, e.RRule, err)
			}
		}
		ex := map[int64]bool{}
		for _, x := range e.ExDates {
			ex[x.Unix()] = true
			if e.AllDay {
				ex[ical.DateIn(x, loc).Unix()] = true
			}
		}
		starts, err := ical.SeriesInstants(e, r, loc, from.Add(-dur), to)
		if err != nil {
			return nil, err
		}
		for _, t := range starts {
			if !overlaps(t, t.Add(dur), from, to) || ex[t.Unix()] || overridden[e.Calendar+"|"+e.UID+"|"+strconv.FormatInt(t.Unix(), 10)] {
				continue
			}
			out = append(out, occurrence{ev: e, start: t, end: t.Add(dur), original: t})
			if len(out) > max {
				return nil, fmt.Errorf("more than %d occurrences in the range", max)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].start.Equal(out[j].start) {
			return out[i].start.Before(out[j].start)
		}
		return out[i].ev.ID < out[j].ev.ID
	})
	return out, nil
}

// freeSlots are the gaps of at least dur inside working hours, per day of
// [from, to) in loc, between busy instances.
func freeSlots(busy []occurrence, from, to time.Time, loc *time.Location, workStart, workEnd time.Duration, days []int, dur time.Duration) [][2]time.Time {
	isDay := map[int]bool{}
	for _, d := range days {
		isDay[d] = true
	}
	var out [][2]time.Time
	l := from.In(loc)
	for day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc); day.Before(to); day = time.Date(day.Year(), day.Month(), day.Day()+1, 0, 0, 0, 0, loc) {
		if !isDay[int(day.Weekday())] {
			continue
		}
		// Working hours are wall times: time.Date keeps them on DST days.
		ws := time.Date(day.Year(), day.Month(), day.Day(), int(workStart.Hours()), int(workStart.Minutes())%60, 0, 0, loc)
		we := time.Date(day.Year(), day.Month(), day.Day(), int(workEnd.Hours()), int(workEnd.Minutes())%60, 0, 0, loc)
		if ws.Before(from) {
			ws = from
		}
		if we.After(to) {
			we = to
		}
		cur := ws
		for _, b := range busy {
			if !b.end.After(cur) || !b.start.Before(we) {
				continue
			}
			if b.start.Sub(cur) >= dur {
				out = append(out, [2]time.Time{cur, b.start})
			}
			if b.end.After(cur) {
				cur = b.end
			}
		}
		if we.Sub(cur) >= dur {
			out = append(out, [2]time.Time{cur, we})
		}
	}
	return out
}
