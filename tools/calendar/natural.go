package calendar

import (
	"fmt"
	"github.com/clawbridge/clawbridge/internal/ical"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// One reading of a time for every action: query's range, create's and
// update's start and end, occurrences. A person or a model writes "tomorrow
// 3pm" or 明天下午3点 in either place, so both read the same forms:
//
//	a day:  today, tomorrow, yesterday, 今天, 明天, 后天, 昨天, a weekday
//	        (monday, next monday, 周一, 星期一, 下周一), a date (2026-03-08)
//	a time: 3pm, 3:30pm, 15:00, at 9, noon, 下午3点, 上午10点半, 晚上8点30分, 15点
//	either, or a day then a time; or RFC 3339 / a local ISO time.
//
// A time without a day is today; a day without a time is the whole day.

// when is what parseWhen read: an instant, or a whole day (at its midnight).
type when struct {
	t       time.Time
	dayOnly bool
}

var (
	// 3pm, 3:30 pm, at 9, 15:00, noon
	enClock = regexp.MustCompile(`^(?:at\s*)?(?:(noon|midnight)|(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?)$`)
	// 下午3点, 上午10点半, 晚上8点30分, 15点, 三点一刻 is not read
	zhClock = regexp.MustCompile(`^(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上)?\s*(\d{1,2}|[零一二两三四五六七八九十]+)\s*(?:点|點|时|時|:)\s*(半|(\d{1,2})\s*分?)?$`)
)

// parseWhen reads s at now in loc (see above).
func parseWhen(s string, now time.Time, loc *time.Location) (when, error) {
	raw := strings.TrimSpace(s)
	if t, err := parseInstant(raw, loc); err == nil {
		return when{t: t}, nil
	}
	w := strings.ToLower(strings.Join(strings.Fields(raw), " "))
	day, rest, ok := dayPrefix(w, now, loc)
	if !ok {
		l := now.In(loc)
		day, rest = time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc), w
	}
	rest = strings.TrimSpace(strings.TrimLeft(rest, ", "))
	if rest == "" {
		if !ok {
			return when{}, notATime(s)
		}
		return when{t: day, dayOnly: true}, nil
	}
	h, m, good := clockOf(rest)
	if !good {
		return when{}, notATime(s)
	}
	t, err := ical.Wall(day.Year(), day.Month(), day.Day(), h, m, 0, loc)
	if err != nil {
		return when{}, err
	}
	return when{t: t}, nil
}

func notATime(s string) error {
	return fmt.Errorf("%q is not a day or time: give today, tomorrow, monday, next monday, 明天, 下周一, a date (2026-03-08), "+
		"any of them with a time (tomorrow 3pm, 明天下午3点, 2026-03-08 15:00), or RFC 3339 (2026-03-08T09:00:00+08:00)", s)
}

// dayPrefix reads a day at the start of w and returns its midnight and the
// rest of w.
func dayPrefix(w string, now time.Time, loc *time.Location) (time.Time, string, bool) {
	l := now.In(loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	day := func(n int) time.Time { return time.Date(today.Year(), today.Month(), today.Day()+n, 0, 0, 0, 0, loc) }
	for word, n := range map[string]int{"today": 0, "tomorrow": 1, "yesterday": -1, "今天": 0, "明天": 1, "后天": 2, "昨天": -1, "今日": 0, "明日": 1} {
		if rest, ok := strings.CutPrefix(w, word); ok {
			return day(n), rest, true
		}
	}
	if len(w) >= 10 {
		if d, err := parseDate(w[:10]); err == nil {
			return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc), strings.TrimPrefix(w[10:], "t"), true
		}
	}
	monday := -((int(today.Weekday()) + 6) % 7)
	// next monday, 下周一: that day of next week; this monday, 本周一: of this week.
	for _, p := range []struct {
		prefix string
		week   int
	}{{"next ", 7}, {"下周", 7}, {"下星期", 7}, {"下个星期", 7}, {"this ", 0}, {"本周", 0}, {"这周", 0}} {
		if rest, ok := strings.CutPrefix(w, p.prefix); ok {
			if wd, rest, ok := weekdayPrefix(rest); ok {
				return day(monday + p.week + (int(wd)+6)%7), rest, true
			}
		}
	}
	// monday, 周一, 星期一: the next such day, today included.
	for _, p := range []string{"周", "星期", "礼拜", ""} {
		if rest, ok := strings.CutPrefix(w, p); ok {
			if wd, rest, ok := weekdayPrefix(rest); ok && (p != "" || !isCJK(w)) {
				return day((int(wd) - int(today.Weekday()) + 7) % 7), rest, true
			}
		}
	}
	return time.Time{}, w, false
}

// weekdayPrefix reads an English weekday (or its three-letter form) or a
// Chinese weekday digit (一 … 日) at the start of w.
func weekdayPrefix(w string) (time.Weekday, string, bool) {
	for name, wd := range weekdayWords {
		if rest, ok := strings.CutPrefix(w, name); ok {
			return wd, rest, true
		}
		if len(name) > 3 && !isCJK(name) {
			if rest, ok := strings.CutPrefix(w, name[:3]); ok && (rest == "" || rest[0] == ' ' || rest[0] == ',') {
				return wd, rest, true
			}
		}
	}
	return 0, w, false
}

func isCJK(s string) bool {
	for _, r := range s {
		if r >= 0x2E80 {
			return true
		}
	}
	return false
}

// clockOf reads a time of day.
func clockOf(s string) (int, int, bool) {
	if m := enClock.FindStringSubmatch(s); m != nil {
		switch m[1] {
		case "noon":
			return 12, 0, true
		case "midnight":
			return 0, 0, true
		}
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		switch ampm := strings.ReplaceAll(m[4], ".", ""); {
		case ampm == "" && m[3] == "" && !strings.HasPrefix(s, "at"):
			return 0, 0, false // a bare number is not a time
		case ampm != "" && (h < 1 || h > 12):
			return 0, 0, false
		case ampm == "pm" && h < 12:
			h += 12
		case ampm == "am" && h == 12:
			h = 0
		}
		return h, mi, h < 24 && mi < 60
	}
	if m := zhClock.FindStringSubmatch(s); m != nil {
		h, ok := zhNumber(m[2])
		if !ok {
			return 0, 0, false
		}
		mi := 0
		if m[3] == "半" {
			mi = 30
		} else if m[4] != "" {
			mi, _ = strconv.Atoi(m[4])
		}
		switch m[1] {
		case "下午", "傍晚", "晚上":
			if h < 12 {
				h += 12
			}
		case "中午":
			if h < 3 {
				h += 12
			}
		}
		return h, mi, h < 24 && mi < 60
	}
	return 0, 0, false
}

// zhNumber reads 0-24 in digits or Chinese numerals (三, 十, 十一, 二十三, 两).
func zhNumber(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	digit := map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	rs := []rune(s)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10, true
	case len(rs) == 1:
		n, ok := digit[rs[0]]
		return n, ok
	case len(rs) == 2 && rs[0] == '十':
		n, ok := digit[rs[1]]
		return 10 + n, ok
	case len(rs) == 2 && rs[1] == '十':
		n, ok := digit[rs[0]]
		return n * 10, ok
	case len(rs) == 3 && rs[1] == '十':
		a, ok1 := digit[rs[0]]
		b, ok2 := digit[rs[2]]
		return a*10 + b, ok1 && ok2
	}
	return 0, false
}

// instantAt reads a start, end or occurrence of a timed event.
func (c *caltool) instantAt(s string, loc *time.Location) (time.Time, error) {
	got, err := parseWhen(s, c.now(), loc)
	if err != nil {
		return time.Time{}, err
	}
	if got.dayOnly {
		return time.Time{}, fmt.Errorf("%q is a day without a time: add one (tomorrow 3pm, 明天下午3点, 2026-03-08 15:00), or set all_day", s)
	}
	return got.t, nil
}

// dateAt reads a day of an all-day event, as a date (midnight UTC).
func (c *caltool) dateAt(s string, loc *time.Location) (time.Time, error) {
	got, err := parseWhen(s, c.now(), loc)
	if err != nil {
		return time.Time{}, err
	}
	if !got.dayOnly {
		return time.Time{}, fmt.Errorf("%q is a time, not a day (YYYY-MM-DD, today, tomorrow, monday, 明天)", s)
	}
	return time.Date(got.t.Year(), got.t.Month(), got.t.Day(), 0, 0, 0, 0, time.UTC), nil
}
