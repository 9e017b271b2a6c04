package notify

import (
	"fmt"
	"strings"
)

// A text longer than the platform takes is split into numbered parts
// ("(2/3) ...") at paragraph, line or word breaks, or cut with a mark. The
// split depends only on the text and the limit, so a retry splits the same
// way and can resume after the parts already delivered.

const (
	markRoom = "(99/99) " // the widest part number, reserved while splitting
	cutMark  = "\n…[cut: the full text was too long for this target]"
)

// layout is how a text goes out.
type layout struct {
	Parts []string
	Cut   bool // the text was cut, not split
	Total int  // characters of the original text
	Sent  int  // characters of it that go out
}

// plan lays text out under fits; maxParts bounds a split.
func plan(text string, fits func(string) (bool, error), cut bool, maxParts int) (*layout, error) {
	rs := []rune(text)
	lay := &layout{Total: len(rs)}
	ok, err := fits(text)
	if err != nil {
		return nil, err
	}
	if ok {
		lay.Parts, lay.Sent = []string{text}, len(rs)
		return lay, nil
	}
	if cut {
		n, err := longest(rs, func(s string) (bool, error) { return fits(s + cutMark) })
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("not even one character fits")
		}
		head := strings.TrimRight(string(rs[:n]), " \t\n")
		lay.Parts, lay.Cut, lay.Sent = []string{head + cutMark}, true, len([]rune(head))
		return lay, nil
	}
	var parts []string
	for len(rs) > 0 {
		n, err := longest(rs, func(s string) (bool, error) { return fits(markRoom + s) })
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("not even one character fits")
		}
		if n < len(rs) {
			n = breakAt(rs[:n])
		}
		if p := strings.TrimRight(string(rs[:n]), " \t\n"); p != "" {
			parts = append(parts, p)
		}
		rs = []rune(strings.TrimLeft(string(rs[n:]), " \t\n"))
		if len(parts) > maxParts {
			return nil, errTooManyParts
		}
	}
	for i := range parts {
		parts[i] = fmt.Sprintf("(%d/%d) %s", i+1, len(parts), parts[i])
	}
	lay.Parts, lay.Sent = parts, lay.Total
	return lay, nil
}

var errTooManyParts = fmt.Errorf("too many parts")

// longest is the largest n such that rs[:n] fits (fits is monotone in n).
func longest(rs []rune, fits func(string) (bool, error)) (int, error) {
	lo, hi := 0, len(rs)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		ok, err := fits(string(rs[:mid]))
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}

// breakAt is where to end a part that must stop within rs: after the last
// paragraph break, else line break, else space, else sentence end (。！？),
// in the second half of rs; else at its end.
func breakAt(rs []rune) int {
	s := string(rs)
	for _, sep := range []string{"\n\n", "\n", " ", "。", "！", "？", "；", "，"} {
		if i := strings.LastIndex(s, sep); i >= 0 {
			n := len([]rune(s[:i+len(sep)]))
			if n >= len(rs)/2 {
				return n
			}
		}
	}
	return len(rs)
}
