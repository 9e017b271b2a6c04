package cron

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// fromPhrase turns a natural schedule in Chinese or English into a spec
// (cron fields, @every or, for a one-off, RFC 3339 in loc). It knows a
// small closed grammar — every day/weekday/Monday at a time, every N
// minutes/hours, today/tomorrow at a time, in N minutes — and says so when
// a phrase is outside it rather than guessing.
func fromPhrase(p string, now time.Time, loc *time.Location) (string, error) {
	p = strings.ToLower(strings.TrimSpace(p))
	if p == "" {
		return "", fmt.Errorf("empty phrase")
	}
	if wording.HasHan(p) {
		return zhPhrase(strings.Join(strings.Fields(p), ""), now, loc)
	}
	return enPhrase(strings.Join(strings.Fields(p), " "), now, loc)
}

var weekdaysEN = map[string]string{"sunday": "0", "monday": "1", "tuesday": "2", "wednesday": "3", "thursday": "4", "friday": "5", "saturday": "6",
	"sun": "0", "mon": "1", "tue": "2", "tues": "2", "wed": "3", "thu": "4", "thur": "4", "thurs": "4", "fri": "5", "sat": "6",
	"weekday": "1-5", "workday": "1-5", "weekend": "0,6"}

var (
	enEveryN   = regexp.MustCompile(`^every (\d+) ?(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)$`)
	enEveryOne = regexp.MustCompile(`^every (minute|hour)$`)
	enDaily    = regexp.MustCompile(`^(?:every day|daily|everyday|every (morning|afternoon|evening|night))(?: at (.+))?$`)
	enWeekly   = regexp.MustCompile(`^every ([a-z]+?)s?(?: (morning|afternoon|evening|night))?(?: at (.+))?$`)
	enAtDaily  = regexp.MustCompile(`^at (.+?) (?:every day|daily)$`)
	enDay      = regexp.MustCompile(`^(today|tomorrow)(?: (morning|afternoon|evening|night))? at (.+)$`)
	enIn       = regexp.MustCompile(`^in (\d+) ?(minutes?|mins?|m|hours?|hrs?|h)$`)
	enTime     = regexp.MustCompile(`^(\d{1,2})(?:[:.](\d{2}))? ?(am|pm|a\.m\.|p\.m\.)?$`)
)

func enPhrase(p string, now time.Time, loc *time.Location) (string, error) {
	if m := enEveryN.FindStringSubmatch(p); m != nil {
		return everyN(m[1], unitEN(m[2]))
	}
	if m := enEveryOne.FindStringSubmatch(p); m != nil {
		return everyN("1", unitEN(m[1]))
	}
	if m := enIn.FindStringSubmatch(p); m != nil {
		n, _ := strconv.Atoi(m[1])
		d := time.Duration(n) * unitDur(unitEN(m[2]))
		return now.Add(d).In(loc).Truncate(time.Second).Format(time.RFC3339), nil
	}
	if m := enAtDaily.FindStringSubmatch(p); m != nil {
		p = "every day at " + m[1]
	}
	if m := enDaily.FindStringSubmatch(p); m != nil {
		h, min, err := enClock(m[2], m[1])
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d * * *", min, h), nil
	}
	if m := enDay.FindStringSubmatch(p); m != nil {
		h, min, err := enClock(m[3], m[2])
		if err != nil {
			return "", err
		}
		return dayAt(now, loc, map[string]int{"today": 0, "tomorrow": 1}[m[1]], h, min)
	}
	if m := enWeekly.FindStringSubmatch(p); m != nil {
		dow, ok := weekdaysEN[m[1]]
		if !ok {
			return "", fmt.Errorf("%q is not a day of the week", m[1])
		}
		h, min, err := enClock(m[3], m[2])
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d * * %s", min, h, dow), nil
	}
	return "", fmt.Errorf("cannot read %q as a schedule; say e.g. \"every day at 8:00\", \"every Monday at 9\", \"every 30 minutes\", \"tomorrow at 15:00\", or give a cron expression", p)
}

// enClock reads "9", "9:30", "9pm", "noon"; period (morning, evening...)
// moves an hour without am/pm into the afternoon where it says so. An
// absent time is 9:00 in the morning (8 pm in the evening).
func enClock(s, period string) (int, int, error) {
	switch s {
	case "":
		if period == "evening" || period == "night" {
			return 20, 0, nil
		}
		if period == "afternoon" {
			return 15, 0, nil
		}
		return 9, 0, nil
	case "noon":
		return 12, 0, nil
	case "midnight":
		return 0, 0, nil
	}
	m := enTime.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("cannot read the time %q; say e.g. 9, 9:30, 9pm or 21:00", s)
	}
	h, _ := strconv.Atoi(m[1])
	min := 0
	if m[2] != "" {
		min, _ = strconv.Atoi(m[2])
	}
	ampm := strings.ReplaceAll(m[3], ".", "")
	if ampm != "" && (h < 1 || h > 12) {
		return 0, 0, fmt.Errorf("%q: with am/pm the hour is 1 to 12", s)
	}
	switch {
	case ampm == "pm" && h < 12, ampm == "" && h < 12 && (period == "afternoon" || period == "evening" || (period == "night" && h >= 6)):
		h += 12
	case ampm == "am" && h == 12:
		h = 0
	}
	if h > 23 || min > 59 {
		return 0, 0, fmt.Errorf("%q is not a time of day", s)
	}
	return h, min, nil
}

func unitEN(u string) string {
	switch u[0] {
	case 's':
		return "s"
	case 'm':
		return "m"
	}
	return "h"
}

func unitDur(u string) time.Duration {
	return map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}[u]
}

func everyN(n, unit string) (string, error) {
	v, err := strconv.Atoi(n)
	if err != nil || v < 1 {
		return "", fmt.Errorf("every %s: the count must be a whole number from 1", n)
	}
	return "@every " + shortDuration(time.Duration(v)*unitDur(unit)), nil
}

// dayAt is a one-off at h:min, days after today, in loc. A wall time that
// a spring-forward change skips becomes the same distance past the gap
// (02:30 on a day that jumps from 02:00 to 03:00 is 03:30), never the hour
// before it, which time.Date may pick.
func dayAt(now time.Time, loc *time.Location, days, h, min int) (string, error) {
	l := now.In(loc)
	t := time.Date(l.Year(), l.Month(), l.Day()+days, h, min, 0, 0, loc)
	if d := (h-t.Hour())*60 + (min - t.Minute()); d > 0 {
		t = t.Add(time.Duration(d) * time.Minute)
	}
	if !t.After(now) {
		return "", fmt.Errorf("%s has already passed", t.Format("2006-01-02 15:04 MST"))
	}
	return t.Format(time.RFC3339), nil
}

const zhNum = `[0-9零〇一二两三四五六七八九十]+`

var (
	zhEveryN  = regexp.MustCompile(`^每(?:隔)?(` + zhNum + `)?个?(秒钟?|分钟?|小时|钟头)$`)
	zhPeriod  = `(早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|凌晨)?`
	zhClock   = `(` + zhNum + `)(?:点|点钟|时|:|：)(?:(半|一刻|三刻|` + zhNum + `)分?)?`
	zhDaily   = regexp.MustCompile(`^(?:每天|每日|天天)` + zhPeriod + zhClock + `$`)
	zhWeekly  = regexp.MustCompile(`^每(?:个)?(?:周|星期|礼拜)([一二三四五六日天1-7])` + zhPeriod + zhClock + `$`)
	zhWorkday = regexp.MustCompile(`^(?:每个?工作日|工作日每天|周一到周五每天|每周一到周五)` + zhPeriod + zhClock + `$`)
	zhDay     = regexp.MustCompile(`^(今天|明天|后天)` + zhPeriod + zhClock + `$`)
	zhIn      = regexp.MustCompile(`^(` + zhNum + `)个?(分钟|小时|钟头)(?:后|以后|之后)$`)
)

func zhPhrase(p string, now time.Time, loc *time.Location) (string, error) {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "提醒我"), "整")
	if m := zhEveryN.FindStringSubmatch(p); m != nil {
		n := "1"
		if m[1] != "" {
			v, err := zhInt(m[1])
			if err != nil {
				return "", err
			}
			n = strconv.Itoa(v)
		}
		return everyN(n, zhUnit(m[2]))
	}
	if m := zhIn.FindStringSubmatch(p); m != nil {
		v, err := zhInt(m[1])
		if err != nil {
			return "", err
		}
		return now.Add(time.Duration(v) * unitDur(zhUnit(m[2]))).In(loc).Truncate(time.Second).Format(time.RFC3339), nil
	}
	if m := zhDaily.FindStringSubmatch(p); m != nil {
		h, min, err := zhTime(m[1], m[2], m[3])
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d * * *", min, h), nil
	}
	if m := zhWorkday.FindStringSubmatch(p); m != nil {
		h, min, err := zhTime(m[1], m[2], m[3])
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d * * 1-5", min, h), nil
	}
	if m := zhWeekly.FindStringSubmatch(p); m != nil {
		dow := map[string]string{"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "日": "0", "天": "0", "7": "0"}[m[1]]
		if dow == "" {
			dow = m[1]
		}
		h, min, err := zhTime(m[2], m[3], m[4])
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d * * %s", min, h, dow), nil
	}
	if m := zhDay.FindStringSubmatch(p); m != nil {
		h, min, err := zhTime(m[2], m[3], m[4])
		if err != nil {
			return "", err
		}
		return dayAt(now, loc, map[string]int{"今天": 0, "明天": 1, "后天": 2}[m[1]], h, min)
	}
	return "", fmt.Errorf("无法识别时间 %q (cannot read it as a schedule); 例如 \"每天早上八点\"、\"每周一上午9点\"、\"每30分钟\"、\"明天下午三点\", or give a cron expression", p)
}

func zhUnit(u string) string {
	switch {
	case strings.HasPrefix(u, "秒"):
		return "s"
	case strings.HasPrefix(u, "分"):
		return "m"
	}
	return "h"
}

// zhTime reads 八点, 8点半, 下午3点15分; the period moves afternoon and
// evening hours past noon (下午3点 is 15:00, 晚上12点 is midnight).
func zhTime(period, hour, minute string) (int, int, error) {
	h, err := zhInt(hour)
	if err != nil {
		return 0, 0, err
	}
	min := 0
	switch minute {
	case "":
	case "半":
		min = 30
	case "一刻":
		min = 15
	case "三刻":
		min = 45
	default:
		if min, err = zhInt(minute); err != nil {
			return 0, 0, err
		}
	}
	switch period {
	case "下午", "傍晚", "晚上", "夜里":
		if h < 12 {
			h += 12
		} else if h == 12 && period != "下午" {
			h = 0
		}
	case "中午":
		if h < 11 {
			h += 12
		}
	}
	if h > 23 || min > 59 {
		return 0, 0, fmt.Errorf("%s%s点%s is not a time of day", period, hour, minute)
	}
	return h, min, nil
}

// zhInt reads 0-99 in Arabic or Chinese numerals (八, 十二, 二十五, 两).
func zhInt(s string) (int, error) {
	if v, err := strconv.Atoi(s); err == nil {
		return v, nil
	}
	digit := map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	r := []rune(s)
	bad := fmt.Errorf("cannot read the number %q", s)
	switch {
	case len(r) == 1 && r[0] == '十':
		return 10, nil
	case len(r) == 1:
		if v, ok := digit[r[0]]; ok {
			return v, nil
		}
	case len(r) == 2 && r[0] == '十':
		if v, ok := digit[r[1]]; ok {
			return 10 + v, nil
		}
	case len(r) == 2 && r[1] == '十':
		if v, ok := digit[r[0]]; ok {
			return v * 10, nil
		}
	case len(r) == 3 && r[1] == '十':
		a, ok1 := digit[r[0]]
		b, ok2 := digit[r[2]]
		if ok1 && ok2 {
			return a*10 + b, nil
		}
	case len(r) == 2: // 零五 / 〇五 in 八点零五
		a, ok1 := digit[r[0]]
		b, ok2 := digit[r[1]]
		if ok1 && ok2 && a == 0 {
			return b, nil
		}
	}
	return 0, bad
}
