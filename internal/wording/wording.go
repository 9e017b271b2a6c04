// Package wording formats counts and numbers in text people read: "1 page"
// and "3 pages", never "1 pages"; 1000000 and 0.5, never 1e+06. It does not
// translate or pluralise beyond the two forms it is given.
package wording

import (
	"fmt"
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

// Number writes a number in plain decimal notation (no exponent); other
// values as fmt's %v does.
func Number(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	}
	return fmt.Sprint(v)
}
