package exposure

import (
	"fmt"
	"slices"
	"strings"
)

// pattern is one literal searched in normalised text.
type pattern struct {
	text       string
	prefix     bool // "word*": an ASCII word that may continue
	asciiStart bool // needs a word boundary before it
	asciiEnd   bool // needs a word boundary (or an inflection) after it
}

// occurrence is one match of a pattern in a text.
type occurrence struct {
	pat        int32
	start, end int32
}

// acMatcher is an Aho-Corasick automaton over bytes. Transitions live in one
// map keyed by node<<8|byte, so matching allocates nothing.
type acMatcher struct {
	pats []pattern
	next map[uint32]int32 // build time only
	fail []int32
	out  [][]int32 // patterns ending at a node, fail chain included
	// Compiled transitions: a dense table for the root, sorted edge lists
	// for the other nodes.
	root      [256]int32
	edgeStart []int32 // per node, into edgeByte/edgeNext; edgeStart[n+1] ends it
	edgeByte  []byte
	edgeNext  []int32
}

// step returns the child of node for b, or -1.
func (m *acMatcher) step(node int32, b byte) int32 {
	if node == 0 {
		return m.root[b]
	}
	lo, hi := m.edgeStart[node], m.edgeStart[node+1]
	for i := lo; i < hi; i++ {
		if eb := m.edgeByte[i]; eb == b {
			return m.edgeNext[i]
		} else if eb > b {
			break
		}
	}
	return -1
}

// children lists each node's children as byte<<24 | child, by byte.
func (m *acMatcher) children() [][]uint32 {
	children := make([][]uint32, len(m.fail))
	for key, child := range m.next {
		node, b := key>>8, key&0xff
		children[node] = append(children[node], b<<24|uint32(child))
	}
	for _, c := range children {
		slices.Sort(c)
	}
	return children
}

func (m *acMatcher) compile(children [][]uint32) {
	n := len(m.fail)
	for i := range m.root {
		m.root[i] = -1
	}
	m.edgeStart = make([]int32, n+1)
	for node := 0; node < n; node++ {
		m.edgeStart[node] = int32(len(m.edgeByte))
		for _, c := range children[node] {
			b, child := byte(c>>24), int32(c&0xffffff)
			if node == 0 {
				m.root[b] = child
			}
			m.edgeByte = append(m.edgeByte, b)
			m.edgeNext = append(m.edgeNext, child)
		}
	}
	m.edgeStart[n] = int32(len(m.edgeByte))
	m.next = nil
}

func splitPattern(kw string) pattern {
	p := pattern{text: kw}
	if strings.HasSuffix(kw, "*") && len(kw) > 1 {
		p.text = kw[:len(kw)-1]
		p.prefix = true
	}
	if p.text != "" {
		p.asciiStart = isWordByte(p.text[0])
		p.asciiEnd = isWordByte(p.text[len(p.text)-1])
	}
	return p
}

func newMatcher(pats []pattern) (*acMatcher, error) {
	m := &acMatcher{pats: pats, next: map[uint32]int32{}, fail: []int32{0}, out: [][]int32{nil}}
	for i, p := range pats {
		if p.text == "" {
			return nil, fmt.Errorf("empty keyword")
		}
		m.insert(p.text, int32(i))
		// "merge" also matches "merging": the stem without its silent e
		// is entered too, marked (^i), and must be followed by "ing".
		if stem, ok := eDropStem(p); ok {
			m.insert(stem, ^int32(i))
		}
	}
	// Breadth-first fail links, over each node's own children (scanning
	// all 256 bytes per node made this most of a cold start).
	children := m.children()
	queue := []int32{}
	for _, c := range children[0] {
		queue = append(queue, int32(c&0xffffff))
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, c := range children[u] {
			b, v := c>>24, int32(c&0xffffff)
			f := m.fail[u]
			for {
				if nx, ok := m.next[uint32(f)<<8|b]; ok && nx != v {
					m.fail[v] = nx
					break
				}
				if f == 0 {
					m.fail[v] = 0
					break
				}
				f = m.fail[f]
			}
			m.out[v] = append(m.out[v], m.out[m.fail[v]]...)
			queue = append(queue, v)
		}
	}
	m.compile(children)
	return m, nil
}

// scan appends every boundary-respecting occurrence in text to occ.
func (m *acMatcher) scan(text []byte, occ []occurrence) []occurrence {
	node := int32(0)
	for i := 0; i < len(text); i++ {
		b := text[i]
		for {
			if nx := m.step(node, b); nx >= 0 {
				node = nx
				break
			}
			if node == 0 {
				break
			}
			node = m.fail[node]
		}
		for _, pi := range m.out[node] {
			end := i + 1
			if pi < 0 { // e-dropped stem: "merg" + "ing"
				pi = ^pi
				p := &m.pats[pi]
				start := end - (len(p.text) - 1)
				if start > 0 && isWordByte(text[start-1]) || !hasIng(text[end:]) {
					continue
				}
				occ = append(occ, occurrence{pat: pi, start: int32(start), end: int32(end)})
				continue
			}
			p := &m.pats[pi]
			start := end - len(p.text)
			if p.asciiStart && start > 0 && isWordByte(text[start-1]) {
				continue
			}
			if p.asciiEnd && !p.prefix && end < len(text) && isWordByte(text[end]) {
				if !inflection(text[end:], p.text[len(p.text)-1]) {
					continue
				}
			}
			occ = append(occ, occurrence{pat: pi, start: int32(start), end: int32(end)})
		}
	}
	return occ
}

// inflection reports whether rest starts with an English ending that keeps
// the word the same (plural, past, progressive, also with the final
// consonant doubled: "plotted", "scrapping") and then a word boundary. last
// is the word's last byte.
func inflection(rest []byte, last byte) bool {
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	switch w := string(rest[:n]); w {
	case "s", "es", "ed", "d", "ing":
		return true
	default:
		return n > 1 && rest[0] == last && isConsonant(last) && (w[1:] == "ing" || w[1:] == "ed")
	}
}

// hasIng reports whether rest is "ing" or "ings" and then a word boundary.
func hasIng(rest []byte) bool {
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	w := string(rest[:n])
	return w == "ing" || w == "ings"
}

func isConsonant(b byte) bool {
	return 'a' <= b && b <= 'z' && !strings.ContainsRune("aeiouy", rune(b))
}

// insert enters text into the trie, its last node giving out.
func (m *acMatcher) insert(text string, out int32) {
	node := int32(0)
	for j := 0; j < len(text); j++ {
		key := uint32(node)<<8 | uint32(text[j])
		nx, ok := m.next[key]
		if !ok {
			nx = int32(len(m.fail))
			m.fail = append(m.fail, 0)
			m.out = append(m.out, nil)
			m.next[key] = nx
		}
		node = nx
	}
	m.out[node] = append(m.out[node], out)
}

// eDropStem returns the stem of an English word pattern ending in a silent
// e after a consonant ("merge" -> "merg", "schedule" -> "schedul"), whose
// -ing form drops the e.
func eDropStem(p pattern) (string, bool) {
	t := p.text
	if p.prefix || !p.asciiEnd || len(t) < 4 || t[len(t)-1] != 'e' || !isConsonant(t[len(t)-2]) {
		return "", false
	}
	word := t[strings.LastIndexByte(t, ' ')+1:]
	if len(word) < 4 {
		return "", false
	}
	for i := 0; i < len(t); i++ {
		if !isWordByte(t[i]) && t[i] != ' ' && t[i] != '-' {
			return "", false
		}
	}
	return t[:len(t)-1], true
}
