package table

import (
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		in   string
		kind Kind
		val  any
	}{
		{"", KindEmpty, nil}, {"42", KindInteger, int64(42)}, {"-3.5", KindNumber, -3.5}, {"1,234.50", KindNumber, 1234.5},
		{"1,234", KindInteger, int64(1234)}, {"00123", KindText, "00123"}, {"1e3", KindNumber, 1000.0}, {"2024/3/5", KindDate, "2024-03-05"},
		{"2024年3月5日", KindDate, "2024-03-05"}, {"2024-03-05 14:30:00", KindDate, "2024-03-05 14:30:00"}, {"3/5/2024", KindText, "3/5/2024"},
		{"是", KindBoolean, true}, {"FALSE", KindBoolean, false}, {"N/A", KindText, "N/A"}, {"12,34", KindText, "12,34"}, {"Inf", KindText, "Inf"},
	}
	for _, c := range cases {
		k, v := Classify(c.in)
		if k != c.kind || v != c.val {
			t.Errorf("Classify(%q) = %s %v, want %s %v", c.in, k, v, c.kind, c.val)
		}
	}
}

func TestNames(t *testing.T) {
	got := UniqueNames([]string{"Sales Amount", "sales amount", "", "销售额(元)", "2024", "order", "a-b"})
	want := []string{"Sales_Amount", "sales_amount_2", "col_3", "销售额_元", "c_2024", "order_", "a_b"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("name %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestDecideKind(t *testing.T) {
	cases := []struct {
		c    map[Kind]int
		want Kind
	}{
		{map[Kind]int{KindInteger: 10}, KindInteger},
		{map[Kind]int{KindInteger: 5, KindNumber: 5}, KindNumber},
		{map[Kind]int{KindInteger: 3, KindText: 1}, KindInteger},
		{map[Kind]int{KindInteger: 2, KindText: 2}, KindText},
		{map[Kind]int{KindDate: 30, KindText: 2}, KindDate},
		{map[Kind]int{KindEmpty: 4}, KindEmpty},
	}
	for _, c := range cases {
		if got := DecideKind(c.c); got != c.want {
			t.Errorf("DecideKind(%v) = %s, want %s", c.c, got, c.want)
		}
	}
}
