package dataviz

import (
	"math"
	"testing"
)

// TestFormatNum: the label formats, each abbreviation and the full forms below them.
func TestFormatNum(t *testing.T) {
	for _, c := range []struct {
		v      float64
		format string
		want   string
	}{
		{math.NaN(), "", ""},
		{0.256, "percent", "25.6%"},
		{1234567.4, "integer", "1,234,567"},
		{2.5e9, "thousands", "2.5B"},
		{-1.25e6, "thousands", "-1.2M"},
		{1000, "thousands", "1K"},
		{999, "thousands", "999"},
		{1.5e8, "wan", "1.5亿"},
		{12345, "wan", "1.23万"},
		{9999.5, "wan", "9,999.5"},
		{12345.6, "", "12,346"},
		{123.45, "", "123.5"},
		{1.234, "", "1.23"},
	} {
		if got := formatNum(c.v, c.format); got != c.want {
			t.Errorf("formatNum(%v, %q) = %q, want %q", c.v, c.format, got, c.want)
		}
	}
}
