package education

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// problem is one generated question with its answer and worked steps.
type problem struct {
	Question string   `json:"question"`
	Answer   string   `json:"answer"`
	Steps    []string `json:"steps"`
	// check says how the answer was verified.
	check func() error
}

// A generator builds one problem for a grade; the answer it states is then
// checked by evaluating the printed question (see exact.go).
type generator func(r *rand.Rand) problem

func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// value checks that expression q (the question without " = ?") equals the answer.
func value(q, answer string) func() error {
	return func() error {
		got, err := evalExpr(q, nil)
		if err != nil {
			return err
		}
		want, ok := new(big.Rat).SetString(answer)
		if !ok || got.Cmp(want) != 0 {
			return fmt.Errorf("%s = %s, not %s", q, fmtRat(got), answer)
		}
		return nil
	}
}

// roots checks each x in xs makes both sides of equation eq equal.
func roots(eq string, xs ...*big.Rat) func() error {
	return func() error {
		l, r, ok := strings.Cut(eq, "=")
		if !ok {
			return fmt.Errorf("%q is not an equation", eq)
		}
		for _, x := range xs {
			a, err := evalExpr(l, x)
			if err != nil {
				return err
			}
			b, err := evalExpr(r, x)
			if err != nil {
				return err
			}
			if a.Cmp(b) != 0 {
				return fmt.Errorf("x = %s does not solve %s", fmtRat(x), eq)
			}
		}
		return nil
	}
}

func binop(a int, op string, b int, res *big.Rat) problem {
	q := fmt.Sprintf("%d %s %d", a, op, b)
	ans := fmtRat(res)
	return problem{Question: q + " = ?", Answer: ans, Steps: []string{q + " = " + ans}, check: value(q, ans)}
}

func addSub(r *rand.Rand, max int) problem {
	a, b := between(r, 1, max-1), 0
	if r.IntN(2) == 0 {
		b = between(r, 1, max-a)
		return binop(a, "+", b, rat(int64(a+b), 1))
	}
	b = between(r, 0, a)
	return binop(a, "−", b, rat(int64(a-b), 1))
}

var arithmetic = map[int][]generator{
	1: {func(r *rand.Rand) problem { return addSub(r, 20) }},
	2: {func(r *rand.Rand) problem { return addSub(r, 100) },
		func(r *rand.Rand) problem {
			a, b := between(r, 2, 9), between(r, 2, 9)
			return binop(a, "×", b, rat(int64(a*b), 1))
		}},
	3: {func(r *rand.Rand) problem { return addSub(r, 1000) },
		func(r *rand.Rand) problem {
			a, b := between(r, 11, 99), between(r, 2, 9)
			return binop(a, "×", b, rat(int64(a*b), 1))
		},
		func(r *rand.Rand) problem { // division with a remainder
			d := between(r, 2, 9)
			n := between(r, d+1, 99)
			q, m := n/d, n%d
			ans := fmt.Sprintf("%d … %d", q, m)
			return problem{Question: fmt.Sprintf("%d ÷ %d = ?", n, d), Answer: ans,
				Steps: []string{fmt.Sprintf("%d × %d = %d", d, q, d*q), fmt.Sprintf("%d − %d = %d (remainder, less than %d)", n, d*q, m, d)},
				check: func() error {
					if err := value(fmt.Sprintf("%d × %d + %d", q, d, m), fmt.Sprint(n))(); err != nil || m >= d {
						return fmt.Errorf("%d ÷ %d is not %s", n, d, ans)
					}
					return nil
				}}
		}},
	4: {func(r *rand.Rand) problem {
		a, b := between(r, 100, 999), between(r, 11, 99)
		return binop(a, "×", b, rat(int64(a*b), 1))
	},
		func(r *rand.Rand) problem {
			d, q := between(r, 11, 99), between(r, 2, 30)
			return binop(d*q, "÷", d, rat(int64(q), 1))
		},
		func(r *rand.Rand) problem { // order of operations
			a, b, c := between(r, 2, 50), between(r, 2, 20), between(r, 2, 9)
			if r.IntN(2) == 0 {
				q := fmt.Sprintf("%d + %d × %d", a, b, c)
				ans := fmt.Sprint(a + b*c)
				return problem{Question: q + " = ?", Answer: ans, Steps: []string{fmt.Sprintf("%d × %d = %d (multiply first)", b, c, b*c), fmt.Sprintf("%d + %d = %s", a, b*c, ans)}, check: value(q, ans)}
			}
			q := fmt.Sprintf("(%d + %d) × %d", a, b, c)
			ans := fmt.Sprint((a + b) * c)
			return problem{Question: q + " = ?", Answer: ans, Steps: []string{fmt.Sprintf("%d + %d = %d (brackets first)", a, b, a+b), fmt.Sprintf("%d × %d = %s", a+b, c, ans)}, check: value(q, ans)}
		}},
	5: {func(r *rand.Rand) problem { // decimals
		a, b := rat(int64(between(r, 11, 999)), 10), rat(int64(between(r, 11, 999)), 100)
		q := fmtRat(a) + " + " + fmtRat(b)
		ans := fmtRat(new(big.Rat).Add(a, b))
		return problem{Question: q + " = ?", Answer: ans, Steps: []string{"line up the decimal points", q + " = " + ans}, check: value(q, ans)}
	},
		func(r *rand.Rand) problem {
			a, b := rat(int64(between(r, 11, 99)), 10), between(r, 2, 9)
			q := fmt.Sprintf("%s × %d", fmtRat(a), b)
			ans := fmtRat(new(big.Rat).Mul(a, rat(int64(b), 1)))
			return problem{Question: q + " = ?", Answer: ans, Steps: []string{fmt.Sprintf("%s × %d = %s, one decimal place", a.Num(), b, new(big.Int).Mul(a.Num(), big.NewInt(int64(b)))), q + " = " + ans}, check: value(q, ans)}
		},
		func(r *rand.Rand) problem { return fractions(r, "+", true) }},
	6: {func(r *rand.Rand) problem { return fractions(r, []string{"+", "−", "×", "÷"}[r.IntN(4)], false) },
		func(r *rand.Rand) problem {
			a, b := between(r, -30, 30), between(r, -30, 30)
			q := fmt.Sprintf("%d − (%d)", a, b)
			ans := fmt.Sprint(a - b)
			return problem{Question: q + " = ?", Answer: ans, Steps: []string{fmt.Sprintf("subtracting %d is adding %d", b, -b), fmt.Sprintf("%d + (%d) = %s", a, -b, ans)}, check: value(q, ans)}
		}},
}

// fractions: a/b op c/d, reduced; same denominators when same is set.
func fractions(r *rand.Rand, op string, same bool) problem {
	b := between(r, 2, 12)
	d := b
	if !same {
		d = between(r, 2, 12)
	}
	x, y := rat(int64(between(r, 1, b-1)), int64(b)), rat(int64(between(r, 1, d-1)), int64(d))
	var res *big.Rat
	var steps []string
	switch op {
	case "+", "−":
		l := new(big.Int).Mul(x.Denom(), y.Denom())
		l.Quo(l, new(big.Int).GCD(nil, nil, x.Denom(), y.Denom()))
		xn := new(big.Int).Mul(x.Num(), new(big.Int).Quo(l, x.Denom()))
		yn := new(big.Int).Mul(y.Num(), new(big.Int).Quo(l, y.Denom()))
		steps = append(steps, fmt.Sprintf("common denominator %s: %s/%s %s %s/%s", l, xn, l, op, yn, l))
		if op == "+" {
			res = new(big.Rat).Add(x, y)
			steps = append(steps, fmt.Sprintf("= %s/%s", new(big.Int).Add(xn, yn), l))
		} else {
			res = new(big.Rat).Sub(x, y)
			steps = append(steps, fmt.Sprintf("= %s/%s", new(big.Int).Sub(xn, yn), l))
		}
	case "×":
		res = new(big.Rat).Mul(x, y)
		steps = append(steps, fmt.Sprintf("multiply tops and bottoms: (%s × %s)/(%s × %s)", x.Num(), y.Num(), x.Denom(), y.Denom()))
	case "÷":
		res = new(big.Rat).Quo(x, y)
		steps = append(steps, fmt.Sprintf("dividing by %s is multiplying by %s/%s", y, y.Denom(), y.Num()))
	}
	ans := res.RatString()
	steps = append(steps, "= "+ans+" (lowest terms)")
	q := fmt.Sprintf("%s %s %s", x.RatString(), op, y.RatString())
	if op == "×" || op == "÷" { // 4/5 ÷ 3/8 would read as ((4/5) ÷ 3)/8
		q = fmt.Sprintf("(%s) %s (%s)", x.RatString(), op, y.RatString())
	}
	return problem{Question: q + " = ?", Answer: ans, Steps: steps, check: value(q, ans)}
}

func nonzero(r *rand.Rand, lo, hi int) int {
	for {
		if v := between(r, lo, hi); v != 0 {
			return v
		}
	}
}

// linear writes a·x + b tidily: "3x + 5", "−x − 2", "x".
func linear(a, b int) string {
	var s string
	switch a {
	case 1:
		s = "x"
	case -1:
		s = "−x"
	default:
		s = fmt.Sprintf("%dx", a)
	}
	switch {
	case b > 0:
		s += fmt.Sprintf(" + %d", b)
	case b < 0:
		s += fmt.Sprintf(" − %d", -b)
	}
	return strings.Replace(s, "-", "−", 1)
}

var algebra = map[int][]generator{
	5: {func(r *rand.Rand) problem {
		x, a := between(r, 1, 50), between(r, 1, 50)
		eq := fmt.Sprintf("x + %d = %d", a, x+a)
		return problem{Question: "Solve " + eq, Answer: fmt.Sprintf("x = %d", x), Steps: []string{fmt.Sprintf("x = %d − %d", x+a, a), fmt.Sprintf("x = %d", x)}, check: roots(eq, rat(int64(x), 1))}
	}},
	6: {func(r *rand.Rand) problem {
		x, a := between(r, 1, 20), between(r, 2, 12)
		eq := fmt.Sprintf("%dx = %d", a, a*x)
		return problem{Question: "Solve " + eq, Answer: fmt.Sprintf("x = %d", x), Steps: []string{fmt.Sprintf("x = %d ÷ %d", a*x, a), fmt.Sprintf("x = %d", x)}, check: roots(eq, rat(int64(x), 1))}
	}},
	7: {func(r *rand.Rand) problem { // ax + b = c, the solution may be a fraction
		a, b, c := nonzero(r, -9, 9), between(r, -20, 20), between(r, -30, 30)
		x := rat(int64(c-b), int64(a))
		eq := fmt.Sprintf("%s = %d", linear(a, b), c)
		return problem{Question: "Solve " + strings.ReplaceAll(eq, "-", "−"), Answer: "x = " + fmtRat(x),
			Steps: []string{fmt.Sprintf("%dx = %d − (%d) = %d", a, c, b, c-b), fmt.Sprintf("x = %d ÷ %d = %s", c-b, a, fmtRat(x))}, check: roots(eq, x)}
	}},
	8: {func(r *rand.Rand) problem { // ax + b = cx + d
		a, c := between(r, -9, 9), between(r, -9, 9)
		for a == c || a == 0 || c == 0 {
			a, c = between(r, -9, 9), between(r, -9, 9)
		}
		b, d := between(r, -20, 20), between(r, -20, 20)
		x := rat(int64(d-b), int64(a-c))
		eq := fmt.Sprintf("%s = %s", linear(a, b), linear(c, d))
		return problem{Question: "Solve " + eq, Answer: "x = " + fmtRat(x),
			Steps: []string{fmt.Sprintf("(%d − (%d))x = %d − (%d)", a, c, d, b), fmt.Sprintf("%dx = %d", a-c, d-b), "x = " + fmtRat(x)}, check: roots(eq, x)}
	}},
	9: {func(r *rand.Rand) problem { // x² + px + q = 0 with integer roots
		m, n := between(r, -9, 9), between(r, -9, 9)
		p, q := -(m + n), m*n
		eq := "x²" + xterm(p) + constant(q)
		eq += " = 0"
		fac := func(v int) string {
			if v >= 0 {
				return fmt.Sprintf("(x − %d)", v)
			}
			return fmt.Sprintf("(x + %d)", -v)
		}
		ans := fmt.Sprintf("x = %d or x = %d", min(m, n), max(m, n))
		if m == n {
			ans = fmt.Sprintf("x = %d (double root)", m)
		}
		return problem{Question: "Solve " + eq, Answer: ans,
			Steps: []string{fmt.Sprintf("two numbers with product %d and sum %d: %d and %d", q, -p, m, n), fac(m) + fac(n) + " = 0", ans},
			check: roots(eq, rat(int64(m), 1), rat(int64(n), 1))}
	}},
}

// xterm writes p·x as a following term: " + 3x", " − x", "".
func xterm(p int) string {
	switch p {
	case 0:
		return ""
	case 1:
		return " + x"
	case -1:
		return " − x"
	}
	if p < 0 {
		return fmt.Sprintf(" − %dx", -p)
	}
	return fmt.Sprintf(" + %dx", p)
}

func constant(q int) string {
	switch {
	case q > 0:
		return fmt.Sprintf(" + %d", q)
	case q < 0:
		return fmt.Sprintf(" − %d", -q)
	}
	return ""
}

func seedOf(call *tool.Call) uint64 {
	if call.Args.Has("seed") {
		return uint64(call.Args.Int("seed", 0))
	}
	return rand.Uint64() >> 12 // fits a JSON number exactly
}

func (x *edu) countArg(a tool.Args) (int, error) {
	n := a.Int("count", 10)
	if n < 1 || n > x.cfg.MaxQuestions {
		return 0, tool.Invalid("count", fmt.Sprintf("count must be 1–%d, got %d", x.cfg.MaxQuestions, n), "raise tools.education_tool.max_questions for longer quizzes")
	}
	return n, nil
}

func (x *edu) mathQuiz(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a := call.Args
	topic := a.StringOr("topic", "arithmetic")
	grade := a.Int("grade", 0)
	table := arithmetic
	lo, hi := 1, 6
	if topic == "algebra" {
		table, lo, hi = algebra, 5, 9
	}
	gens, ok := table[grade]
	if !ok {
		return nil, tool.Invalid("grade", fmt.Sprintf("%s is for grades %d–%d, not %d", topic, lo, hi, grade), "")
	}
	n, err := x.countArg(a)
	if err != nil {
		return nil, err
	}
	seed := seedOf(call)
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]problem, 0, n)
	seen := map[string]bool{}
	for tries := 0; len(out) < n && tries < n*50; tries++ {
		p := gens[tries%len(gens)](r)
		if seen[p.Question] {
			continue
		}
		if err := p.check(); err != nil { // a generator bug: never hand out a wrong answer
			return nil, tool.Errorf(tool.CodeFailed, "", "generated answer failed its check: %v", err)
		}
		seen[p.Question] = true
		out = append(out, p)
	}
	return &tool.Result{Summary: fmt.Sprintf("%d %s problems for grade %d (seed %d); every answer checked exactly.", len(out), topic, grade, seed),
		Data: map[string]any{"topic": topic, "grade": grade, "seed": seed, "problems": out}}, nil
}
