package xlsxcell

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Kind is the type of one cell's value.
type Kind int

const (
	Empty     Kind = iota
	Text           // a string (shared, inline or a formula's text result)
	Number         // a number shown as a number
	Bool           // TRUE or FALSE
	Error          // an error value such as #DIV/0!, kept as its text
	Date           // a calendar date (Time at midnight)
	DateTime       // a date with a time of day
	TimeOfDay      // a time of day, or an elapsed time; Text holds "15:04:05" / "27:30:00"
)

// Cell is one cell's value.
type Cell struct {
	Kind Kind
	Text string    // the text; for numbers the number as stored
	Num  float64   // Number, and the serial of dates and times
	Bool bool      // Bool
	Time time.Time // Date, DateTime (UTC, wall-clock time as in the sheet)
}

// String is the cell as plain text: numbers as stored, booleans as
// true/false, dates as 2006-01-02, date-times as 2006-01-02 15:04:05.
func (c Cell) String() string {
	switch c.Kind {
	case Bool:
		return strconv.FormatBool(c.Bool)
	case Date:
		return c.Time.Format("2006-01-02")
	case DateTime:
		return c.Time.Format("2006-01-02 15:04:05")
	}
	return c.Text
}

// maxSerial is 9999-12-31, the last date Excel shows.
const maxSerial = 2958465

// numberCell types a numeric cell by the kind of its number format.
func numberCell(v string, k fmtKind, date1904 bool) Cell {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return Cell{Kind: Text, Text: v}
	}
	if k == fmtNumber || f < 0 || f > maxSerial {
		return Cell{Kind: Number, Text: v, Num: f}
	}
	switch k {
	case fmtElapsed:
		return Cell{Kind: TimeOfDay, Text: clock(f, true), Num: f}
	case fmtTime:
		if f < 1 {
			return Cell{Kind: TimeOfDay, Text: clock(f, false), Num: f}
		}
		k = fmtDateTime // a time-of-day format on a date: keep the date
	}
	t, err := excelize.ExcelDateToTime(f, date1904)
	if err != nil {
		return Cell{Kind: Number, Text: v, Num: f}
	}
	t = t.Round(time.Second)
	if k == fmtDate && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return Cell{Kind: Date, Time: t, Num: f}
	}
	return Cell{Kind: DateTime, Time: t, Num: f}
}

// clock writes a day fraction as h:mm:ss; elapsed keeps whole days as hours.
func clock(f float64, elapsed bool) string {
	secs := int64(math.Round(f * 86400))
	if !elapsed {
		secs %= 86400
	}
	return pad2(secs/3600) + ":" + pad2(secs/60%60) + ":" + pad2(secs%60)
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// isoCell reads a t="d" cell, whose value is an ISO 8601 date or time.
func isoCell(v string) Cell {
	v = strings.TrimSpace(v)
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(l, v); err == nil {
			t = t.UTC().Round(time.Second)
			if len(v) == 10 {
				return Cell{Kind: Date, Time: t}
			}
			return Cell{Kind: DateTime, Time: t}
		}
	}
	for _, l := range []string{"15:04:05.999999999", "15:04:05", "15:04"} {
		if t, err := time.Parse(l, v); err == nil {
			return Cell{Kind: TimeOfDay, Text: t.Format("15:04:05")}
		}
	}
	return Cell{Kind: Text, Text: v}
}
