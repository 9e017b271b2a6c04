package education

// SM-2 (Woźniak 1990, SuperMemo 2) on exact numbers: the easiness factor is
// kept in hundredths, since every change the formula makes is a whole number
// of hundredths (q 5: +0.10, 4: 0, 3: −0.14, 2: −0.32, 1: −0.54, 0: −0.80),
// so no float rounding can move an interval.

// card state as SM-2 sees it.
type sm2State struct {
	Reps     int // successful reviews in a row (n)
	Interval int // days until the next review (I)
	EF100    int // easiness factor × 100 (EF)
}

const (
	startEF100 = 250 // EF starts at 2.5
	minEF100   = 130 // and never goes below 1.3
)

// efDelta100 is 100 × (0.1 − (5−q)(0.08 + (5−q)·0.02)) = 10 − d(8 + 2d), d = 5−q.
func efDelta100(q int) int {
	d := 5 - q
	return 10 - d*(8+2*d)
}

// review applies one answer of quality q (0–5):
//   - q ≥ 3: I = 1 after the first success, 6 after the second, then
//     round(I·EF) (EF before this review's change), and n goes up by one;
//   - q < 3: the card starts again, n = 0 and I = 1;
//
// and in both cases EF' = EF + (0.1 − (5−q)(0.08 + (5−q)·0.02)), at least 1.3.
func (s sm2State) review(q int) sm2State {
	if q >= 3 {
		switch s.Reps {
		case 0:
			s.Interval = 1
		case 1:
			s.Interval = 6
		default:
			s.Interval = (s.Interval*s.EF100 + 50) / 100 // round half up, exact
		}
		s.Reps++
	} else {
		s.Reps, s.Interval = 0, 1
	}
	s.EF100 += efDelta100(q)
	if s.EF100 < minEF100 {
		s.EF100 = minEF100
	}
	return s
}
