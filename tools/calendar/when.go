package calendar

import (
	"fmt"
	"github.com/clawbridge/clawbridge/internal/ical"
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
			return ical.Wall(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), loc)
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: give RFC 3339 (2026-03-08T09:00:00+08:00) or a local time (2026-03-08T09:00)", s)
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
