package finance

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Amounts are int64 cents everywhere: parsed from an exact decimal string,
// summed as integers, printed back as decimals. No float ever holds money.

// maxCents bounds one amount (a hundred billion), so sums of many stay far
// from overflow.
const maxCents = 100_000_000_000_00

// parseAmount reads an exact decimal ("12.5", "1,234.56", "¥12.50",
// "-3") into cents. More than two decimal places is refused rather than
// rounded: that would change the user's number.
func parseAmount(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, p := range []string{"¥", "￥", "CNY", "RMB", "元", "$", "+"} {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(t, p), p))
	}
	t = strings.ReplaceAll(t, ",", "")
	if t == "" {
		return 0, fmt.Errorf("amount is empty")
	}
	for _, r := range t {
		if !(r >= '0' && r <= '9' || r == '.' || r == '-') {
			return 0, fmt.Errorf("%q is not a decimal amount (e.g. 12.50)", s)
		}
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a decimal amount (e.g. 12.50)", s)
	}
	c := d.Shift(2)
	if !c.IsInteger() {
		return 0, fmt.Errorf("%q has more than two decimal places; give whole cents", s)
	}
	if c.Abs().GreaterThan(decimal.NewFromInt(maxCents)) {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return c.IntPart(), nil
}

// money prints cents as an exact decimal with two places.
func money(c int64) string { return decimal.New(c, -2).StringFixed(2) }

// percent is the change from a to b as an exact decimal percentage with
// one place ("" when a is zero: no base to compare with).
func percent(a, b int64) string {
	if a == 0 {
		return ""
	}
	return decimal.NewFromInt(b-a).Mul(decimal.NewFromInt(100)).DivRound(decimal.NewFromInt(a), 1).StringFixed(1)
}

// exactNumber is a two-place decimal as a spreadsheet number. xlsx stores
// numbers as doubles; the shortest form of the parsed double is the same
// text, so the file holds "12.34" exactly and no arithmetic is done on it.
func exactNumber(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
