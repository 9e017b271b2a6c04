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
