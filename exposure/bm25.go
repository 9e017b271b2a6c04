package exposure

import (
	"math"
	"unicode/utf8"
)

// bm25 ranks catalog tools by a request's English words and Chinese
// character bigrams against each tool's description and example requests.
// It exists for text that no keyword catches.
type bm25 struct {
	vocab    map[string]int32
	postings [][]posting // per term
	idf      []float64
	docLen   []float64
	avgLen   float64
	stopEN   map[string]bool
	stopZH   map[rune]bool
	k1, b    float64
}

type posting struct {
	doc int32
	tf  float32
}

// forEachTerm calls fn for every index term of normalised text: English
// words (stop words dropped, plural/-ing/-ed endings stripped) and bigrams
// of adjacent Chinese characters (bigrams of two stop characters dropped).
// The byte slices passed to fn alias text.
func (r *bm25) forEachTerm(text []byte, fn func(term []byte)) {
	i := 0
	prevHan, prevStart := -1, 0 // start of the previous Han rune, or -1
	var prevRune rune
	for i < len(text) {
		c := text[i]
		if isWordByte(c) {
			j := i
			for j < len(text) && (isWordByte(text[j])) {
				j++
			}
			w := text[i:j]
			if len(w) > 1 && !r.stopEN[string(w)] {
				fn(stem(w))
			}
			i = j
			prevHan = -1
			continue
		}
		ru, size := utf8.DecodeRune(text[i:])
		if isHan(ru) {
			if prevHan >= 0 && !(r.stopZH[prevRune] && r.stopZH[ru]) {
				fn(text[prevStart : i+size])
			}
			prevHan, prevStart, prevRune = i, i, ru
		} else {
			prevHan = -1
		}
		i += size
	}
}

// stem strips a few English endings so "charts" meets "chart". It returns a
// sub-slice: no allocation.
func stem(w []byte) []byte {
	n := len(w)
	switch {
	case n > 5 && string(w[n-3:]) == "ing":
		return w[:n-3]
	case n > 4 && string(w[n-3:]) == "ies":
		return w[:n-3] // "queries" and "query" both become "quer"
	case n > 4 && string(w[n-2:]) == "ed":
		return w[:n-2]
	case n > 3 && w[n-1] == 's' && w[n-2] != 's':
		return w[:n-1]
	case n > 3 && w[n-1] == 'y':
		return w[:n-1]
	}
	return w
}

func newBM25(n *normalizer, docs []string, stopEN []string, stopZH string) *bm25 {
	r := &bm25{vocab: map[string]int32{}, stopEN: map[string]bool{}, stopZH: map[rune]bool{}, k1: 1.2, b: 0.75}
	for _, w := range stopEN {
		r.stopEN[n.normal(w)] = true
	}
	for _, ru := range n.normal(stopZH) {
		r.stopZH[ru] = true
	}
	r.docLen = make([]float64, len(docs))
	for d, doc := range docs {
		tf := map[int32]float32{}
		r.forEachTerm(n.appendNormal(nil, doc), func(term []byte) {
			id, ok := r.vocab[string(term)]
			if !ok {
				id = int32(len(r.postings))
				r.vocab[string(term)] = id
				r.postings = append(r.postings, nil)
			}
			tf[id]++
			r.docLen[d]++
		})
		for id, f := range tf {
			r.postings[id] = append(r.postings[id], posting{doc: int32(d), tf: f})
		}
		r.avgLen += r.docLen[d]
	}
	if len(docs) > 0 {
		r.avgLen /= float64(len(docs))
	}
	N := float64(len(docs))
	r.idf = make([]float64, len(r.postings))
	for id, p := range r.postings {
		df := float64(len(p))
		r.idf[id] = math.Log(1 + (N-df+0.5)/(df+0.5))
	}
	return r
}

// score adds the BM25 score of every document for the query text to scores
// (len = number of docs) and returns how many query terms were known.
func (r *bm25) score(text []byte, scores []float64) int {
	known := 0
	r.forEachTerm(text, func(term []byte) {
		id, ok := r.vocab[string(term)]
		if !ok {
			return
		}
		known++
		idf := r.idf[id]
		for _, p := range r.postings[id] {
			tf := float64(p.tf)
			norm := tf * (r.k1 + 1) / (tf + r.k1*(1-r.b+r.b*r.docLen[p.doc]/r.avgLen))
			scores[p.doc] += idf * norm
		}
	})
	return known
}
