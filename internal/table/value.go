// Package table reads tabular files (xlsx, csv, json) as streams of rows,
// infers column types, loads them into an embedded SQLite database for
// querying and writes results back out. data_processor, data_visualization
// and financial_report share it.
package table

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Kind is an inferred cell or column type.
type Kind string

const (
	KindEmpty   Kind = "empty"
	KindInteger Kind = "integer"
	KindNumber  Kind = "number"
	KindDate    Kind = "date"
	KindBoolean Kind = "boolean"
	KindText    Kind = "text"
)

var (
	intRE       = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)$`)
	floatRE     = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)?(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
	thousandsRE = regexp.MustCompile(`^[-+]?[1-9][0-9]{0,2}(,[0-9]{3})+(\.[0-9]+)?$`)
)

// dateLayouts are the date spellings normalised to ISO. Day-first and
// month-first numeric forms (1/2/2024) are ambiguous and stay text.
var dateLayouts = []string{
	"2006-01-02", "2006-1-2", "2006/01/02", "2006/1/2", "2006.1.2", "2006年1月2日",
	"2006-01-02 15:04:05", "2006-1-2 15:04:05", "2006/1/2 15:04:05", "2006-01-02 15:04", "2006/1/2 15:04",
	"2006-01-02T15:04:05", "2006-01-02T15:04:05Z07:00", "2006年1月2日 15:04:05", "2006年1月2日 15:04",
}

// ParseDate recognises a date or date-time written in one of the accepted
// layouts and returns it in ISO form ("2006-01-02" or "2006-01-02 15:04:05").
func ParseDate(s string) (string, bool) {
	if len(s) < 8 || len(s) > 30 || s[0] < '0' || s[0] > '9' {
		return "", false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return ISO(t), true
		}
	}
	return "", false
}

// ISO formats a time as a date, or a date-time when it has a time part.
func ISO(t time.Time) string {
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04:05")
}

// ParseNumber reads a decimal number, allowing thousands separators. Numbers
// with leading zeros ("00123") are identifiers, not numbers.
func ParseNumber(s string) (float64, bool) {
	if s == "" || len(s) > 40 {
		return 0, false
	}
	c := s[0]
	if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
		return 0, false
	}
	if strings.IndexByte(s, ',') >= 0 {
		if !thousandsRE.MatchString(s) {
			return 0, false
		}
		s = strings.ReplaceAll(s, ",", "")
	}
	if !floatRE.MatchString(s) || s == "-" || s == "+" || s == "." {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// ParseBool recognises common boolean spellings, English and Chinese.
func ParseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "y", "是", "真", "对":
		return true, true
	case "false", "no", "n", "否", "假", "错":
		return false, true
	}
	return false, false
}

// Classify returns the kind of one cell and its typed value: int64, float64,
// bool, an ISO date string, or the string itself.
func Classify(s string) (Kind, any) {
	if s == "" {
		return KindEmpty, nil
	}
	if intRE.MatchString(s) {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return KindInteger, i
		}
	}
	if f, ok := ParseNumber(s); ok {
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !strings.ContainsAny(s, ".eE") {
			return KindInteger, int64(f)
		}
		return KindNumber, f
	}
	if d, ok := ParseDate(s); ok {
		return KindDate, d
	}
	if b, ok := ParseBool(s); ok {
		return KindBoolean, b
	}
	return KindText, s
}

// SQLValue converts a cell to the value stored in SQLite: numbers as numbers,
// dates as ISO text, everything else as the text itself (booleans included,
// so that "yes" stays "yes").
func SQLValue(s string) any {
	k, v := Classify(s)
	return stored(k, v, s)
}

// stored is what SQLValue stores for the cell s that Classify read as kind
// k with value v.
func stored(k Kind, v any, s string) any {
	switch k {
	case KindEmpty:
		return nil
	case KindInteger, KindNumber, KindDate:
		return v
	}
	return s
}
