package contract

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

var (
	cnDigits   = []string{"零", "壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖"}
	cnSmall    = []string{"", "拾", "佰", "仟"}
	cnBig      = []string{"", "万", "亿", "万亿"}
	maxAmount  = decimal.New(1, 16) // below 一亿亿 (10^16)
	hundredDec = decimal.NewFromInt(100)
)

// ParseAmount reads a money amount: digits with an optional decimal point,
// thousands separators and a leading currency sign are accepted. At most two
// decimals (fen); negative amounts and amounts of 10^16 or more are refused.
func ParseAmount(s string) (decimal.Decimal, error) {
	clean := strings.TrimSpace(s)
	for _, p := range []string{"¥", "￥", "RMB", "CNY", "$", "USD", "元"} {
		clean = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(clean, p), p))
	}
	clean = strings.ReplaceAll(clean, ",", "")
	clean = strings.ReplaceAll(clean, "，", "")
	if clean == "" {
		return decimal.Zero, fmt.Errorf("amount %q is empty", s)
	}
	for _, r := range clean {
		if (r < '0' || r > '9') && r != '.' && r != '-' {
			return decimal.Zero, fmt.Errorf("amount %q is not a number", s)
		}
	}
	d, err := decimal.NewFromString(clean)
	if err != nil {
		return decimal.Zero, fmt.Errorf("amount %q is not a number", s)
	}
	if d.IsNegative() {
		return decimal.Zero, fmt.Errorf("amount %q is negative", s)
	}
	if !d.Mul(hundredDec).Equal(d.Mul(hundredDec).Truncate(0)) {
		return decimal.Zero, fmt.Errorf("amount %q has more than two decimals (the smallest unit is 分/cent)", s)
	}
	if d.GreaterThanOrEqual(maxAmount) {
		return decimal.Zero, fmt.Errorf("amount %q is too large", s)
	}
	return d, nil
}

// ChineseCapital writes an amount in Chinese capital numerals as used on
// contracts and cheques (大写金额), e.g. 12000 -> 壹万贰仟元整,
// 1409.5 -> 壹仟肆佰零玖元伍角, 100.05 -> 壹佰元零伍分.
//
// Rules: one 零 stands for any run of zeros between non-zero digits, also
// across 万/亿 groups (100001 -> 壹拾万零壹元); a group that is all zero
// adds no unit (100000001 -> 壹亿零壹元); the ten's digit is always written
// with 壹 (10 -> 壹拾元); 整 follows 元 when there are no 角 and 分, and is
// not written after 角 or 分; 零 stands between 元 and 分 when 角 is zero;
// an amount under one yuan starts at 角 or 分 (0.5 -> 伍角); zero is 零元整.
func ChineseCapital(d decimal.Decimal) string {
	cents := d.Mul(hundredDec).Round(0).BigInt()
	s := cents.String()
	for len(s) < 3 {
		s = "0" + s
	}
	intPart := strings.TrimLeft(s[:len(s)-2], "0")
	jiao, fen := int(s[len(s)-2]-'0'), int(s[len(s)-1]-'0')

	var b strings.Builder
	n := len(intPart)
	zeroPending := false
	groupHasDigit := false
	for i := 0; i < n; i++ {
		pos := n - 1 - i
		dg := int(intPart[i] - '0')
		if dg == 0 {
			if b.Len() > 0 {
				zeroPending = true
			}
		} else {
			if zeroPending {
				b.WriteString("零")
				zeroPending = false
			}
			b.WriteString(cnDigits[dg] + cnSmall[pos%4])
			groupHasDigit = true
		}
		if pos%4 == 0 {
			if groupHasDigit {
				b.WriteString(cnBig[pos/4])
			}
			groupHasDigit = false
		}
	}
	hasYuan := n > 0
	if hasYuan {
		b.WriteString("元")
	}
	switch {
	case jiao == 0 && fen == 0:
		if !hasYuan {
			return "零元整"
		}
		b.WriteString("整")
	default:
		if jiao > 0 {
			b.WriteString(cnDigits[jiao] + "角")
		} else if hasYuan {
			b.WriteString("零")
		}
		if fen > 0 {
			b.WriteString(cnDigits[fen] + "分")
		}
	}
	return b.String()
}

// FormatAmount writes 12000 as 12,000.00.
func FormatAmount(d decimal.Decimal) string {
	s := d.StringFixed(2)
	intPart, frac := s[:len(s)-3], s[len(s)-3:]
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String() + frac
}
