package education

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"
)

// The checker: every printed problem is parsed back and evaluated with
// exact rationals (math/big), independently of the generator that built
// its answer, and a problem whose answer does not check is never returned.

// evalExpr evaluates an expression in + − × ÷ / ( ) ², decimals, and x
// (bound to xv; nil if the expression must not have x). Juxtaposition
// multiplies (3x, 2(x + 1)).
func evalExpr(s string, xv *big.Rat) (*big.Rat, error) {
	p := &parser{src: []rune(strings.TrimSpace(s)), x: xv}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.src) {
		return nil, fmt.Errorf("unexpected %q in %q", string(p.src[p.i:]), s)
	}
	return v, nil
}

type parser struct {
	src []rune
	i   int
	x   *big.Rat
}

func (p *parser) space() {
	for p.i < len(p.src) && unicode.IsSpace(p.src[p.i]) {
		p.i++
	}
}

func (p *parser) peek() rune {
	p.space()
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *parser) expr() (*big.Rat, error) {
	v, err := p.term()
	for err == nil {
		switch p.peek() {
		case '+':
			p.i++
			var w *big.Rat
			if w, err = p.term(); err == nil {
				v = new(big.Rat).Add(v, w)
			}
		case '-', '−':
			p.i++
			var w *big.Rat
			if w, err = p.term(); err == nil {
				v = new(big.Rat).Sub(v, w)
			}
		default:
			return v, nil
		}
	}
	return nil, err
}

func (p *parser) term() (*big.Rat, error) {
	v, err := p.factor()
	for err == nil {
		c := p.peek()
		switch {
		case c == '*' || c == '×' || c == '·':
			p.i++
			var w *big.Rat
			if w, err = p.factor(); err == nil {
				v = new(big.Rat).Mul(v, w)
			}
		case c == '/' || c == '÷':
			p.i++
			var w *big.Rat
			if w, err = p.factor(); err == nil {
				if w.Sign() == 0 {
					return nil, fmt.Errorf("division by zero")
				}
				v = new(big.Rat).Quo(v, w)
			}
		case c == 'x' || c == '(' || unicode.IsDigit(c): // juxtaposition
			var w *big.Rat
			if w, err = p.factor(); err == nil {
				v = new(big.Rat).Mul(v, w)
			}
		default:
			return v, nil
		}
	}
	return nil, err
}

func (p *parser) factor() (*big.Rat, error) {
	if c := p.peek(); c == '-' || c == '−' {
		p.i++
		v, err := p.factor()
		if err != nil {
			return nil, err
		}
		return new(big.Rat).Neg(v), nil
	}
	v, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.peek() == '²' {
		p.i++
		v = new(big.Rat).Mul(v, v)
	}
	return v, nil
}

func (p *parser) primary() (*big.Rat, error) {
	c := p.peek()
	switch {
	case c == '(':
		p.i++
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("missing )")
		}
		p.i++
		return v, nil
	case c == 'x':
		if p.x == nil {
			return nil, fmt.Errorf("x without a value")
		}
		p.i++
		return new(big.Rat).Set(p.x), nil
	case unicode.IsDigit(c):
		j := p.i
		for p.i < len(p.src) && (unicode.IsDigit(p.src[p.i]) || p.src[p.i] == '.') {
			p.i++
		}
		v, ok := new(big.Rat).SetString(string(p.src[j:p.i]))
		if !ok {
			return nil, fmt.Errorf("bad number %q", string(p.src[j:p.i]))
		}
		return v, nil
	}
	return nil, fmt.Errorf("expected a number at %q", string(p.src[p.i:]))
}

// fmtRat writes r exactly: an integer, a terminating decimal, or p/q.
func fmtRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	for _, f := range []int64{2, 5} {
		bf := big.NewInt(f)
		for new(big.Int).Mod(d, bf).Sign() == 0 {
			d.Quo(d, bf)
		}
	}
	if d.Cmp(big.NewInt(1)) == 0 {
		s := r.FloatString(12)
		return strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return r.String()
}

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }
