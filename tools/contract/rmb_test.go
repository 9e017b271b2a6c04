package contract

import (
	"testing"
)

func TestChineseCapital(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0", "零元整"},
		{"0.5", "伍角"},
		{"0.05", "伍分"},
		{"0.55", "伍角伍分"},
		{"1", "壹元整"},
		{"10", "壹拾元整"},
		{"15", "壹拾伍元整"},
		{"100", "壹佰元整"},
		{"101", "壹佰零壹元整"},
		{"110", "壹佰壹拾元整"},
		{"1001", "壹仟零壹元整"},
		{"1010", "壹仟零壹拾元整"},
		{"1409.50", "壹仟肆佰零玖元伍角"},
		{"6007.14", "陆仟零柒元壹角肆分"},
		{"1680.32", "壹仟陆佰捌拾元叁角贰分"},
		{"100.05", "壹佰元零伍分"},
		{"12000", "壹万贰仟元整"},
		{"10100", "壹万零壹佰元整"},
		{"100001", "壹拾万零壹元整"},
		{"325000", "叁拾贰万伍仟元整"},
		{"1010000", "壹佰零壹万元整"},
		{"1000010", "壹佰万零壹拾元整"},
		{"10000000", "壹仟万元整"},
		{"100000000", "壹亿元整"},
		{"100000001", "壹亿零壹元整"},
		{"100001000", "壹亿零壹仟元整"},
		{"120000000", "壹亿贰仟万元整"},
		{"200030000", "贰亿零叁万元整"},
		{"1000000000000", "壹万亿元整"},
		{"9999999999999999.99", "玖仟玖佰玖拾玖万亿玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分"},
		{"10000000000000000", ""}, // too large: ParseAmount refuses
		// The two forms the 支付结算办法 example allows for ¥107000.53; we write the second.
		{"107000.53", "壹拾万零柒仟元伍角叁分"},
		{"3500.00", "叁仟伍佰元整"},
		{"¥12,000.00", "壹万贰仟元整"},
		{"50000.10", "伍万元壹角"},
	}
	for _, c := range cases {
		d, err := ParseAmount(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("ParseAmount(%q) accepted", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseAmount(%q): %v", c.in, err)
			continue
		}
		if got := ChineseCapital(d); got != c.want {
			t.Errorf("ChineseCapital(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseAmountErrors(t *testing.T) {
	for _, in := range []string{"", "abc", "-5", "1.234", "12元5", "1e5"} {
		if _, err := ParseAmount(in); err == nil {
			t.Errorf("ParseAmount(%q) accepted", in)
		}
	}
}

func TestFormatAmount(t *testing.T) {
	for in, want := range map[string]string{"0": "0.00", "12000": "12,000.00", "1234567.8": "1,234,567.80", "999": "999.00"} {
		d, _ := ParseAmount(in)
		if got := FormatAmount(d); got != want {
			t.Errorf("FormatAmount(%s) = %s, want %s", in, got, want)
		}
	}
}

func FuzzChineseCapital(f *testing.F) {
	f.Add("12000.5")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseAmount(s)
		if err != nil {
			return
		}
		out := ChineseCapital(d)
		if out == "" || (len(out) > 3 && out[:3] == "零" && out != "零元整") {
			t.Fatalf("%s -> %q", s, out)
		}
	})
}
