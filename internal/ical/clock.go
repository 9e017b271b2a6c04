package ical

// The Wall-clock arithmetic and recurrence expansion that reading a file
// needs, and the calendar tool with it.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// Wall is a Wall-clock time in loc, refusing one that does not exist and
// taking the earliest of those that do (a fall-back change of any size).
// maxSteps bounds the rule instances walked for one event in one call.
const maxSteps = 100000

func Wall(y int, mo time.Month, d, h, mi, s int, loc *time.Location) (time.Time, error) {
	w := time.Date(y, mo, d, h, mi, s, 0, time.UTC) // the clock's fields
	var best time.Time
	for _, off := range offsetsNear(w, loc) {
		t := w.Add(-time.Duration(off) * time.Second)
		if sameClock(t.In(loc), w) && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if best.IsZero() {
		return time.Time{}, fmt.Errorf("%04d-%02d-%02d %02d:%02d does not exist in %s (the clocks skip it for daylight saving)", y, mo, d, h, mi, loc)
	}
	return best.UTC(), nil
}

// beforeGap reads a Wall time the clocks skip with the offset before the
// gap, as RFC 5545 3.3.5 says.
func beforeGap(w time.Time, loc *time.Location) time.Time {
	_, off := w.Add(-48 * time.Hour).In(loc).Zone()
	return w.Add(-time.Duration(off) * time.Second).UTC()
}

// offsetsNear are loc's offsets within two days of the Wall clock w.
func offsetsNear(w time.Time, loc *time.Location) []int {
	var out []int
	for h := -48; h <= 48; h += 12 {
		_, off := w.Add(time.Duration(h) * time.Hour).In(loc).Zone()
		if !slices.Contains(out, off) {
			out = append(out, off)
		}
	}
	return out
}

// WallZone is where a series repeats: its own zone, else loc for all-day
// dates and UTC for UTC times.
func (e *Event) WallZone(loc *time.Location) *time.Location {
	if e.TZ != "" {
		if l, err := LoadZone(e.TZ); err == nil {
			return l
		}
	}
	if e.AllDay {
		return loc
	}
	return time.UTC
}

// SeriesInstants are the starts of series e in [from, to): DTSTART, the
// instances of its rule r (nil: none) and its RDATEs, each once, in order.
// All-day dates are read as days in loc.
func SeriesInstants(e *Event, r *rrule.RRule, loc *time.Location, from, to time.Time) ([]time.Time, error) {
	date := func(t time.Time) time.Time {
		if e.AllDay {
			return DateIn(t, loc)
		}
		return t
	}
	seen := map[int64]bool{}
	var out []time.Time
	add := func(t time.Time) {
		if !t.Before(from) && t.Before(to) && !seen[t.Unix()] {
			seen[t.Unix()] = true
			out = append(out, t)
		}
	}
	if r == nil {
		add(date(e.Start))
	} else {
		next := r.Iterator()
		for n := 0; ; n++ {
			t, ok := next()
			if !ok || !t.Before(to) {
				break
			}
			if n > maxSteps {
				return nil, fmt.Errorf("event %s repeats too often to list", e.ID)
			}
			add(t)
		}
	}
	for _, t := range e.RDates {
		add(date(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out, nil
}

// ParseRule reads an RRULE value, tolerating the spaces some writers put
// after commas ("BYDAY=MO, TU").
func ParseRule(s string, start time.Time) (*rrule.RRule, error) {
	s = strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(s), "RRULE:"), " ", "")
	opt, err := rrule.StrToROptionInLocation(s, start.Location())
	if err != nil {
		return nil, err
	}
	opt.Dtstart = start
	return rrule.NewRRule(*opt)
}

func sameClock(t, w time.Time) bool {
	return t.Year() == w.Year() && t.YearDay() == w.YearDay() && t.Hour() == w.Hour() && t.Minute() == w.Minute() && t.Second() == w.Second()
}

func DateIn(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
}
