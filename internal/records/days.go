package records

import (
	"fmt"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// DayLayout is how the records tools store and show a day.
const DayLayout = "2006-01-02"

// Day reads the YYYY-MM-DD date given in field.
func Day(field, s string) (string, error) {
	t, err := time.Parse(DayLayout, strings.TrimSpace(s))
	if err != nil {
		return "", toolerr.Invalid(field, fmt.Sprintf("%q is not a date (YYYY-MM-DD)", s), "")
	}
	return t.Format(DayLayout), nil
}

// AddDays is day moved by n days (day is a valid DayLayout date).
func AddDays(day string, n int) string {
	t, _ := time.Parse(DayLayout, day)
	return t.AddDate(0, 0, n).Format(DayLayout)
}

// Range reads the from and to arguments (each a day or a month, to
// inclusive, "" when not given) as the days [from, to).
func Range(from, to string) (string, string, error) {
	start, err := rangeEnd("from", from, false)
	if err != nil {
		return "", "", err
	}
	end, err := rangeEnd("to", to, true)
	if err != nil {
		return "", "", err
	}
	if start != "" && end != "" && end <= start {
		return "", "", toolerr.Invalid("to", "to is before from", "")
	}
	return start, end, nil
}

// rangeEnd reads one end of a range; the end of an inclusive one (to) is
// the day after it.
func rangeEnd(field, s string, inclusive bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		if inclusive {
			t = t.AddDate(0, 1, 0)
		}
		return t.Format(DayLayout), nil
	}
	if t, err := time.Parse(DayLayout, s); err == nil {
		if inclusive {
			t = t.AddDate(0, 0, 1)
		}
		return t.Format(DayLayout), nil
	}
	return "", toolerr.Invalid(field, fmt.Sprintf("%q is not a date or month (2026-03-09, 2026-03)", s), "")
}
