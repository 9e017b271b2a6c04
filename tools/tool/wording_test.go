package tool

import (
	"context"
	"strings"
	"testing"
)

// TestWording_RangeErrorsPlainNumbers: a number out of range is written as
// the caller wrote it — "got 1000000", never "got 1e+06" — and so is the
// bound.
func TestWording_RangeErrorsPlainNumbers(t *testing.T) {
	tl := &Tool{Name: "t", Title: "T", Description: "d", Actions: []Action{{
		Description: "d", Level: Read, Timeout: Fast,
		Handler: func(context.Context, *Call) (*Result, error) { return &Result{}, nil },
		Params: []Param{
			{Name: "limit", Type: Integer, Description: "n", Max: Ptr(100000)},
			{Name: "ratio", Type: Number, Description: "r", Min: Ptr(0.000001)},
		},
	}}}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"limit": 1e6}, "must be at most 100000, got 1000000"},
		{map[string]any{"limit": "2500000"}, "must be at most 100000, got 2500000"},
		{map[string]any{"ratio": 1e-7}, "must be at least 0.000001, got 0.0000001"},
	} {
		_, err := tl.Prepare(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "e+") || strings.Contains(err.Error(), "e-") {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
