package codeassist

import (
	"context"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// lineEdits returns a minimal set of line edits turning oldText into
// newText (fewest lines added plus removed, as `git diff --minimal`). The
// diff library's own udiff.Lines gives up after 100 edits and then returns
// a valid but far from minimal diff, which doubled the counts on real
// files. This is Myers' O(ND) algorithm in linear space (the bisection of
// diff-match-patch) over line numbers; the call's deadline stops it.
func lineEdits(ctx context.Context, oldText, newText string) ([]udiff.Edit, error) {
	oldLines, newLines := splitKeepEnds(oldText), splitKeepEnds(newText)
	// Lines become numbers: equal lines, equal numbers.
	ids := map[string]int{}
	intern := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	a, b := intern(oldLines), intern(newLines)

	// A line found on one side only is never part of the common
	// subsequence: leave it out of the search (the common subsequence
	// stays the same), which makes two unrelated files cheap.
	inA, inB := make([]bool, len(ids)), make([]bool, len(ids))
	for _, id := range a {
		inA[id] = true
	}
	for _, id := range b {
		inB[id] = true
	}
	fa, ia := shared(a, inB)
	fb, ib := shared(b, inA)

	keepA, keepB := make([]bool, len(a)), make([]bool, len(b))
	m := &matcher{ctx: ctx, keep: func(x, y int) { keepA[ia[x]], keepB[ib[y]] = true, true }}
	if err := m.match(fa, fb, 0, 0); err != nil {
		return nil, err
	}

	// Each run of unkept lines on either side is one edit.
	offsets := make([]int, len(oldLines)+1)
	for i, l := range oldLines {
		offsets[i+1] = offsets[i] + len(l)
	}
	var edits []udiff.Edit
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		i0, j0 := i, j
		for i < len(a) && !keepA[i] {
			i++
		}
		for j < len(b) && !keepB[j] {
			j++
		}
		if i > i0 || j > j0 {
			edits = append(edits, udiff.Edit{Start: offsets[i0], End: offsets[i], New: strings.Join(newLines[j0:j], "")})
		}
		for i < len(a) && j < len(b) && keepA[i] && keepB[j] {
			i++
			j++
		}
	}
	return edits, nil
}

// splitKeepEnds splits text into lines, each with its newline; a last line
// without one is kept as it is.
func splitKeepEnds(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// shared returns the elements of s that occur on the other side, and
// their indexes in s.
func shared(s []int, other []bool) ([]int, []int) {
	var out, idx []int
	for i, id := range s {
		if other[id] {
			out = append(out, id)
			idx = append(idx, i)
		}
	}
	return out, idx
}

// matcher finds a longest common subsequence and reports its pairs.
type matcher struct {
	ctx   context.Context
	keep  func(x, y int) // a[x] == b[y] is in the common subsequence
	steps int
}

// match reports the common subsequence of a and b, which start at x0 and
// y0 of the whole sequences.
func (m *matcher) match(a, b []int, x0, y0 int) error {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		m.keep(x0, y0)
		a, b, x0, y0 = a[1:], b[1:], x0+1, y0+1
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		m.keep(x0+len(a)-1, y0+len(b)-1)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	x, y, err := m.bisect(a, b)
	if err != nil || x < 0 {
		return err // x < 0: nothing in common
	}
	if err := m.match(a[:x], b[:y], x0, y0); err != nil {
		return err
	}
	return m.match(a[x:], b[y:], x0+x, y0+y)
}

// bisect finds the point where a shortest edit path's forward and
// backward halves meet (Myers' middle snake), or -1, -1 when a and b have
// nothing in common.
func (m *matcher) bisect(a, b []int) (int, int, error) {
	n, mm := len(a), len(b)
	maxD := (n + mm + 1) / 2
	off := maxD
	v1, v2 := make([]int, 2*maxD+2), make([]int, 2*maxD+2)
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - mm
	front := delta%2 != 0 // the forward path is the one that meets the other
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for d := 0; d < maxD; d++ {
		if m.steps++; m.steps%64 == 0 {
			if err := m.ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		for k1 := -d + k1start; k1 <= d-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -d || (k1 != d && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < mm && a[x1] == b[y1] {
				x1++
				y1++
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2 // ran off the right
			case y1 > mm:
				k1start += 2 // ran off the bottom
			case front:
				if j := off + delta - k1; j >= 0 && j < len(v2) && v2[j] != -1 && x1 >= n-v2[j] {
					return x1, y1, nil
				}
			}
		}
		for k2 := -d + k2start; k2 <= d-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -d || (k2 != d && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < mm && a[n-x2-1] == b[mm-y2-1] {
				x2++
				y2++
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > mm:
				k2start += 2
			case !front:
				if j := off + delta - k2; j >= 0 && j < len(v1) && v1[j] != -1 {
					x1 := v1[j]
					if x1 >= n-x2 {
						return x1, off + x1 - j, nil
					}
				}
			}
		}
	}
	return -1, -1, nil
}
