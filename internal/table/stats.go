package table

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// ColumnStats is the describe output for one column, computed in one pass
// with bounded memory: exact up to reservoirSize values, sampled beyond.
type ColumnStats struct {
	Name           string     `json:"name"`
	Original       string     `json:"original,omitempty"`
	Type           Kind       `json:"type"`
	Count          int        `json:"count"`
	Missing        int        `json:"missing"`
	Distinct       int        `json:"distinct"`
	DistinctCapped bool       `json:"distinct_capped,omitempty"`
	Min            any        `json:"min,omitempty"`
	Max            any        `json:"max,omitempty"`
	Mean           *float64   `json:"mean,omitempty"`
	Median         *float64   `json:"median,omitempty"`
	Std            *float64   `json:"std,omitempty"`
	Sum            *float64   `json:"sum,omitempty"`
	MedianApprox   bool       `json:"median_approx,omitempty"`
	Top            []TopValue `json:"top,omitempty"`
	Bad            []BadCell  `json:"bad_cells,omitempty"`
}

// TopValue is a frequent value.
type TopValue struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

const (
	reservoirSize = 100_000
	distinctCap   = 50_000
)

// Describer accumulates per-column statistics from a reader's rows.
type Describer struct {
	r    *Reader
	cols []*colAcc
	rng  *rand.Rand
}

type colAcc struct {
	counts     map[Kind]int
	first      map[Kind][]BadCell
	n          int
	mean, m2   float64
	sum        float64
	min, max   float64
	minS, maxS string
	res        []float64
	seen       int
	distinct   map[string]int
	capped     bool
}

// NewDescriber prepares accumulators for r's columns.
func NewDescriber(r *Reader) *Describer {
	d := &Describer{r: r, rng: rand.New(rand.NewPCG(1, 2))}
	for range r.Names {
		d.cols = append(d.cols, &colAcc{counts: map[Kind]int{}, first: map[Kind][]BadCell{}, distinct: map[string]int{}, min: math.Inf(1), max: math.Inf(-1)})
	}
	return d
}

// Add takes one data row.
func (d *Describer) Add(cells []string, row int) {
	for i, s := range cells {
		if i >= len(d.cols) {
			break
		}
		c := d.cols[i]
		k, v := Classify(s)
		c.counts[k]++
		if k == KindEmpty {
			continue
		}
		if len(c.first[k]) < 5 {
			c.first[k] = append(c.first[k], BadCell{Cell: d.r.CellRef(row, i), Value: clip(s, 60)})
		}
		if !c.capped {
			if _, ok := c.distinct[s]; ok || len(c.distinct) < distinctCap {
				c.distinct[s]++
			} else {
				c.capped = true
			}
		} else if _, ok := c.distinct[s]; ok {
			c.distinct[s]++
		}
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			str := s
			if ds, ok := v.(string); ok && k == KindDate {
				str = ds
			}
			if c.minS == "" || str < c.minS {
				c.minS = str
			}
			if str > c.maxS {
				c.maxS = str
			}
			continue
		}
		c.n++
		delta := f - c.mean
		c.mean += delta / float64(c.n)
		c.m2 += delta * (f - c.mean)
		c.sum += f
		c.min = math.Min(c.min, f)
		c.max = math.Max(c.max, f)
		c.seen++
		if len(c.res) < reservoirSize {
			c.res = append(c.res, f)
		} else if j := d.rng.IntN(c.seen); j < reservoirSize {
			c.res[j] = f
		}
	}
}

// Result returns the statistics.
func (d *Describer) Result() []ColumnStats {
	out := make([]ColumnStats, len(d.cols))
	for i, c := range d.cols {
		kind := DecideKind(c.counts)
		s := ColumnStats{Name: d.r.Names[i], Type: kind, Missing: c.counts[KindEmpty], Distinct: len(c.distinct), DistinctCapped: c.capped}
		if d.r.Header[i] != d.r.Names[i] {
			s.Original = d.r.Header[i]
		}
		for k, n := range c.counts {
			if k != KindEmpty {
				s.Count += n
			}
		}
		switch kind {
		case KindInteger, KindNumber:
			if c.n > 0 {
				// Derived statistics keep 10 significant digits (more is
				// the noise of the running computation); the sum keeps 15.
				mean, sum := wording.Round(c.mean, 10), wording.Round(c.sum, 15)
				s.Mean, s.Sum = &mean, &sum
				if c.n > 1 {
					std := wording.Round(math.Sqrt(c.m2/float64(c.n-1)), 10)
					s.Std = &std
				}
				s.Min, s.Max = num(c.min), num(c.max)
				sort.Float64s(c.res)
				var med float64
				if n := len(c.res); n%2 == 1 {
					med = c.res[n/2]
				} else {
					med = (c.res[n/2-1] + c.res[n/2]) / 2
				}
				med = wording.Round(med, 15)
				s.Median = &med
				s.MedianApprox = c.seen > reservoirSize
			}
			inf := &inference{counts: []map[Kind]int{c.counts}, first: []map[Kind][]BadCell{c.first}}
			s.Bad = inf.bad(0)
		case KindDate:
			s.Min, s.Max = c.minS, c.maxS
			inf := &inference{counts: []map[Kind]int{c.counts}, first: []map[Kind][]BadCell{c.first}}
			s.Bad = inf.bad(0)
		default:
			if c.minS != "" {
				s.Min, s.Max = clip(c.minS, 40), clip(c.maxS, 40)
			}
		}
		if kind != KindInteger && kind != KindNumber || s.Distinct <= 20 {
			s.Top = top(c.distinct, 5)
		}
		out[i] = s
	}
	return out
}

func num(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return f
}

func top(m map[string]int, n int) []TopValue {
	out := make([]TopValue, 0, len(m))
	for v, c := range m {
		out = append(out, TopValue{Value: v, Count: c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return strings.Compare(out[i].Value, out[j].Value) < 0
	})
	if len(out) > n {
		out = out[:n]
	}
	for i := range out {
		out[i].Value = clip(out[i].Value, 60)
	}
	return out
}
