package wording

import "testing"

func TestWording_CountAndNumber(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 pages"}, {1, "1 page"}, {2, "2 pages"}, {-1, "-1 page"}} {
		if got := Count(c.n, "page", "pages"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		v    any
		want string
	}{{1e6, "1000000"}, {float64(1e21), "1000000000000000000000"}, {0.5, "0.5"}, {float32(2.5), "2.5"}, {-3.0, "-3"}, {7, "7"}, {"x", "x"}} {
		if got := Number(c.v); got != c.want {
			t.Errorf("Number(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestFault: what a cut or careless edit leaves in a description is found;
// ordinary text, examples and ellipses are not.
func TestFault(t *testing.T) {
	for _, ok := range []string{
		"Creates a PowerPoint presentation (.pptx) from an outline.",
		`Pages, e.g. "1-3,5" or [4, 10]; {"a": 1}.`,
		"Category (food, 交通, salary ...).",
		"add: Record one.\nlist: Entries.",
		"工具（演示文稿）",
	} {
		if f := Fault(ok); f != "" {
			t.Errorf("%q: %s", ok, f)
		}
	}
	for _, bad := range []string{
		"Creates a PowerPoint presentation (.",
		"Record one income.; list",
		"two  spaces",
		"a (b] c",
		"unclosed (paren",
		"closes) nothing",
		`odd "quote`,
		"space before , comma",
		"empty () brackets",
		"trailing ",
		"a.. b",
	} {
		if Fault(bad) == "" {
			t.Errorf("%q: no fault found", bad)
		}
	}
}

// TestNumber_NoFloatNoise: a computed float reads as people write it.
func TestNumber_NoFloatNoise(t *testing.T) {
	for in, want := range map[float64]string{0.1 + 0.2: "0.3", 26.500000000000004: "26.5", 6.624999999999999: "6.625", 1e21: "1000000000000000000000", 123456789.125: "123456789.125", 1733112345678: "1733112345678"} {
		if got := Number(in); got != want {
			t.Errorf("Number(%v) = %s, want %s", in, got, want)
		}
	}
	if got := Round(3.5715309509135347, 10); got != 3.571530951 {
		t.Errorf("Round = %v", got)
	}
}

func TestHasCJK(t *testing.T) {
	for s, want := range map[string]bool{
		"": false, "plain ASCII": false, "café": false,
		"中文": true, "ひらがな": true, "カタカナ": true, "한국어": true,
		"a、b": true, "ＡＢ": true, "mixed 文字": true,
	} {
		if got := HasCJK(s); got != want {
			t.Errorf("HasCJK(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCommas(t *testing.T) {
	for in, want := range map[string]string{"0": "0", "999": "999", "1000": "1,000", "-1234567.50": "-1,234,567.50", "123456": "123,456", "12.3456": "12.3456"} {
		if got := Commas(in); got != want {
			t.Errorf("Commas(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHanShare(t *testing.T) {
	for s, want := range map[string]float64{"": 0, "123 !?": 0, "plain": 0, "中文": 1, "ab中文": 0.5, "Ünï 中": 0.5} {
		if got := HanShare(s); got != want {
			t.Errorf("HanShare(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{-5: "-5 B", 0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 30: "5.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Bytes(uint64(1) << 63); got != "8.0 EiB" {
		t.Errorf("Bytes(1<<63) = %q", got)
	}
}
