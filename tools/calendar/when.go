package calendar

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// localLayouts are wall times given without an offset, read in the zone.
var localLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}

// parseInstant reads an RFC 3339 time, or a wall time without offset in
// loc. A wall time that loc skips (spring forward) is refused; one it
// repeats (fall back) is the first of the two.
func parseInstant(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range localLayouts {
		if t, err := time.Parse(layout, s); err == nil { // the fields as written; wall puts them in loc
			return wall(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), loc)
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: give RFC 3339 (2026-03-08T09:00:00+08:00) or a local time (2026-03-08T09:00)", s)
}

// wall is a wall-clock time in loc, refusing one that does not exist and
// taking the earliest of those that do (a fall-back change of any size).
func wall(y int, mo time.Month, d, h, mi, s int, loc *time.Location) (time.Time, error) {
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

// beforeGap reads a wall time the clocks skip with the offset before the
// gap, as RFC 5545 3.3.5 says.
func beforeGap(w time.Time, loc *time.Location) time.Time {
	_, off := w.Add(-48 * time.Hour).In(loc).Zone()
	return w.Add(-time.Duration(off) * time.Second).UTC()
}

// offsetsNear are loc's offsets within two days of the wall clock w.
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

func sameClock(t, w time.Time) bool {
	return t.Year() == w.Year() && t.YearDay() == w.YearDay() && t.Hour() == w.Hour() && t.Minute() == w.Minute() && t.Second() == w.Second()
}

// parseDate reads YYYY-MM-DD.
func parseDate(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return t, nil
}

var weekdayWords = map[string]time.Weekday{
	"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6,
	"日": 0, "天": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
}

// parseRangeStart reads the start of a range and its natural end: a week
// (this week, next week, 下周), or what parseWhen reads: a day, whose end is
// the next midnight, or a time, whose end is a day later.
// Days and weeks are midnight to midnight in loc; weeks start on Monday.
func parseRangeStart(s string, now time.Time, loc *time.Location) (time.Time, time.Time, error) {
	w := strings.ToLower(strings.Join(strings.Fields(s), " "))
	l := now.In(loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	day := func(n int) time.Time { return time.Date(today.Year(), today.Month(), today.Day()+n, 0, 0, 0, 0, loc) }
	monday := -((int(today.Weekday()) + 6) % 7)
	switch w {
	case "this week", "本周", "这周", "这个星期":
		return day(monday), day(monday + 7), nil
	case "next week", "下周", "下个星期", "下星期":
		return day(monday + 7), day(monday + 14), nil
	}
	got, err := parseWhen(s, now, loc)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if got.dayOnly {
		return got.t, time.Date(got.t.Year(), got.t.Month(), got.t.Day()+1, 0, 0, 0, 0, loc), nil
	}
	return got.t, got.t.Add(24 * time.Hour), nil
}

// parseRangeEnd reads the end of a range: like a start, a day or week word
// means its end.
func parseRangeEnd(s string, now time.Time, loc *time.Location) (time.Time, error) {
	if got, err := parseWhen(s, now, loc); err == nil && !got.dayOnly {
		return got.t, nil
	}
	_, end, err := parseRangeStart(s, now, loc)
	return end, err
}
