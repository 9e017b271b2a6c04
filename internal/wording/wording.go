// Package wording formats counts and numbers in text people read: "1 page"
// and "3 pages", never "1 pages"; 1000000 and 0.5, never 1e+06, and 6.625,
// never 6.624999999999999. It does not
// translate or pluralise beyond the two forms it is given.
package wording

import (
	"fmt"
	"math"
	"strconv"
)

// Count is n with the singular or the plural noun: Count(1, "page",
// "pages") is "1 page", Count(0, "page", "pages") is "0 pages".
func Count[N integer](n N, one, many string) string {
	if n == 1 || n+1 == 0 {
		return fmt.Sprint(n) + " " + one
	}
	return fmt.Sprint(n) + " " + many
}

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Number writes a number in plain decimal notation (no exponent), a
// float64 with at most 15 significant digits (Round); other values as fmt's
// %v does.
func Number(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(Round(x, 15), 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	}
	return fmt.Sprint(v)
}

// Round rounds f to digits significant digits, so that what binary
// arithmetic leaves in the last digits does not reach people:
// 6.624999999999999 is 6.625 and 0.1+0.2 is 0.3 at 15 digits, the most a
// float64 holds exactly for any decimal. A value shorter than digits is
// unchanged; NaN and infinities too.
func Round(f float64, digits int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return f
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', digits, 64), 64)
	if err != nil {
		return f
	}
	return r
}
