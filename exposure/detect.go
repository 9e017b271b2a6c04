package exposure

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Detection is what Detect finds in one request.
type Detection struct {
	// Intents are the detected intents, strongest first; empty for a vague
	// request.
	Intents []string `json:"intents"`
	// Primary is Intents[0], or "".
	Primary string `json:"primary_intent"`
	// Confidence in [0,1]: how sure the detector is that the view built from
	// Intents holds what the request needs. 0 for vague or empty text.
	Confidence float64 `json:"confidence"`
	// Scores is each intent's evidence strength in [0,1] (intents with no
	// evidence are absent).
	Scores map[string]float64 `json:"scores,omitempty"`
	// Matched lists the keywords matched per intent (the lexical ranker's
	// pick shows as "~lexical:tool").
	Matched map[string][]string `json:"matched,omitempty"`
	// Tools are the tools the words point at, strongest first.
	Tools []string `json:"tools,omitempty"`
	// Lang is "zh" when the request is mainly Chinese, else "en".
	Lang string `json:"lang"`
	// Clauses are the clauses of a composite request that point at a tool
	// of their own, in text order (nil for a one-task request).
	Clauses []Clause `json:"clauses,omitempty"`
	// Signals are the tools the request's artefacts point at: output
	// formats, file extensions, URLs.
	Signals []string `json:"signals,omitempty"`
	// External are the tools outside the catalog the request points at,
	// recommended ones first (external.go); set by Router.Route.
	External []ExternalMatch `json:"external,omitempty"`

	// lexRank is the lexical ranker's order of the tools it scored, used
	// to widen the extended tier; toolEv is the evidence of each of Tools.
	lexRank []string
	// nativeLex is the ranking model's score of each catalog tool for the
	// request, on the external tools' scale (rank.go); nil without them.
	nativeLex map[string]float64
	toolEv    []float64
}

// keyword is one compiled keyword.
type keyword struct {
	text   string
	parts  []int32 // pattern ids, all must be present
	intent int32
	tool   int32 // -1 when the group names no tool
	weight float64
	strong bool
}

// Detector holds the compiled tables. It is immutable and safe for
// concurrent use.
type Detector struct {
	t        *Tables
	norm     *normalizer
	m        *acMatcher
	kws      []keyword
	byPat    [][]int32 // pattern -> keywords using it
	exclPats [][]int32 // intent -> exclusion patterns
	intents  []string
	tools    []string
	toolIdx  map[string]int32
	toolInt  []int32   // tool -> its first intent
	toolInts [][]int32 // tool -> all its intents
	lex      *bm25
	sig      *signals
	// extReaders: extension pattern -> the tools that read such a file
	extReaders [][]int32
	kwPats     int32              // patterns below this id are keywords' or exclusions'
	typo       map[string][]int32 // a keyword's typo -> its pattern (typo.go)
	pool       sync.Pool

	// Tuning: evidence a secondary intent needs (absolute, and relative to
	// the top intent unless it has a strong phrase of its own), and the
	// lexical ranker's contribution: (score-lexMin)*lexScale, at most lexCap
	// (below one strong phrase, so lexical evidence alone never reaches the
	// recommended tier).
	secondaryRatio float64
	minSecondary   float64
	lexMin         float64
	lexScale       float64
	lexCap         float64
}

type scratch struct {
	norm    []byte
	occ     []occurrence
	alive   []bool
	ext     []int32 // per occurrence: end of the match's word
	seen    []uint32
	gen     uint32
	iscore  []float64
	tscore  []float64
	lex     []float64
	strong  []bool
	order   []int32
	dead    [][2]int32
	lexText []byte
	idx     []int32
	lexTool int32 // tool credited by the lexical ranker, or -1
	lexInt  int32 // intent credited with it
	// composite requests: the clauses' spans, and the whole text's normal
	// form and subject spans while its clauses are scored
	spans    [][2]int32
	whole    []byte
	wholeSub [][2]int32
	// sub: the subject spans in force (subject.go), empty when no strong
	// phrase outside them names the task; hits: the keywords present
	sub  [][2]int32
	hits []hit
	used [][2]int32 // pattern, tool: the parts of the strong phrases counted
}

// hit is one keyword present in a text: whether it has an occurrence
// outside the subject spans, and whether it counted as evidence.
type hit struct {
	kw      int32
	outside bool
	counted bool
}

// NewDetector compiles tables.
func NewDetector(t *Tables) (*Detector, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	d := &Detector{t: t, norm: &normalizer{t2s: t.T2S}, toolIdx: map[string]int32{},
		secondaryRatio: 0.5, minSecondary: 2, lexMin: 4, lexScale: 0.5, lexCap: 3}
	d.indexToolsAndIntents(t)
	ps := &patternSet{norm: d.norm, idx: map[pattern]int32{}}
	d.addKeywords(t, ps)
	d.exclPats = make([][]int32, len(d.intents))
	for ii, in := range d.intents { // intent order: pattern ids are stable
		for _, w := range t.Exclusions[in] {
			d.exclPats[ii] = append(d.exclPats[ii], ps.add(w))
		}
	}
	// Artefact words (signals) share the keywords' scan; a pattern only
	// they use (id >= kwPats) is neither evidence nor hides a keyword.
	d.kwPats = int32(len(ps.pats))
	d.typo = typoVariants(ps.pats, d.kwPats)
	d.addSignals(t, ps)
	var err error
	if d.m, err = newMatcher(ps.pats); err != nil {
		return nil, fmt.Errorf("exposure: keywords: %w", err)
	}
	d.byPat = make([][]int32, len(ps.pats))
	for ki, k := range d.kws {
		for _, p := range k.parts {
			if !slices.Contains(d.byPat[p], int32(ki)) {
				d.byPat[p] = append(d.byPat[p], int32(ki))
			}
		}
	}
	docs := make([]string, len(t.Catalog))
	for i, ti := range t.Catalog {
		docs[i] = ti.Name + " " + strings.ReplaceAll(ti.Name, "_", " ") + " " + ti.Description + " " + strings.Join(ti.Examples, " . ")
	}
	d.lex = newBM25(d.norm, docs, t.StopWords.English, t.StopWords.Chinese)
	d.pool.New = func() any {
		return &scratch{
			seen:   make([]uint32, len(d.kws)),
			iscore: make([]float64, len(d.intents)),
			strong: make([]bool, len(d.intents)),
			tscore: make([]float64, len(d.tools)),
			lex:    make([]float64, len(d.tools)),
			order:  make([]int32, 0, len(d.intents)),
		}
	}
	return d, nil
}

// patternSet numbers the distinct patterns of the keywords, exclusions
// and signals in the order they are first added.
type patternSet struct {
	norm *normalizer
	pats []pattern
	idx  map[pattern]int32
}

// add returns the id of s's pattern, adding it when new.
func (ps *patternSet) add(s string) int32 {
	p := splitPattern(ps.norm.normal(strings.TrimSpace(s)))
	if id, ok := ps.idx[p]; ok {
		return id
	}
	id := int32(len(ps.pats))
	ps.pats = append(ps.pats, p)
	ps.idx[p] = id
	return id
}

// indexToolsAndIntents numbers the catalog's tools and the intents, and
// notes each tool's intents (the first is its own).
func (d *Detector) indexToolsAndIntents(t *Tables) {
	for i, ti := range t.Catalog {
		d.tools = append(d.tools, ti.Name)
		d.toolIdx[ti.Name] = int32(i)
	}
	intentIdx := map[string]int32{}
	for i, in := range t.Intents {
		d.intents = append(d.intents, in.Name)
		intentIdx[in.Name] = int32(i)
	}
	d.toolInt = make([]int32, len(d.tools))
	d.toolInts = make([][]int32, len(d.tools))
	for i, ti := range t.Catalog {
		d.toolInt[i] = -1
		for _, in := range ti.Intents {
			d.toolInts[i] = append(d.toolInts[i], intentIdx[in])
		}
		if len(ti.Intents) > 0 {
			d.toolInt[i] = intentIdx[ti.Intents[0]]
		}
	}
}

// addKeywords compiles the intents' keyword groups; a keyword's parts
// ("画+增长") are patterns.
func (d *Detector) addKeywords(t *Tables, ps *patternSet) {
	for ii, in := range t.Intents {
		for _, g := range in.Groups {
			tool := int32(-1)
			if g.Tool != "" {
				tool = d.toolIdx[g.Tool]
			}
			add := func(list []string, w float64, strong bool) {
				for _, kw := range list {
					k := keyword{text: kw, intent: int32(ii), tool: tool, weight: w, strong: strong}
					for _, part := range strings.Split(kw, "+") {
						if strings.TrimSpace(part) == "" {
							continue
						}
						k.parts = append(k.parts, ps.add(part))
					}
					d.kws = append(d.kws, k)
				}
			}
			add(g.Strong, t.Weights.Strong, true)
			add(g.Medium, t.Weights.Medium, false)
			add(g.Weak, t.Weights.Weak, false)
		}
	}
}

// addSignals compiles the artefact words: output formats and file
// extensions, with the tools that read each extension.
func (d *Detector) addSignals(t *Tables, ps *patternSet) {
	d.sig = newSignals(t.Signals)
	for _, f := range t.Signals.Formats {
		for _, w := range f.Words {
			d.sig.addFormat(ps.add(w), f.Tool)
		}
	}
	for _, ext := range sortedKeys(t.Signals.Extensions) {
		id := ps.add(ext)
		for int(id) >= len(d.extReaders) {
			d.extReaders = append(d.extReaders, nil)
		}
		for _, tool := range t.Signals.Extensions[ext] {
			d.sig.addExt(id, tool)
			d.extReaders[id] = append(d.extReaders[id], d.toolIdx[tool])
		}
	}
}

// strength maps evidence to [0,1]: one strong phrase (4) gives 0.8, a medium
// word 0.67, a weak word 0.5.
func strength(e float64) float64 {
	if e <= 0 {
		return 0
	}
	return e / (e + 1)
}

// MaxDetectBytes bounds the text Detect reads: a request longer than this
// (a pasted document) is judged by its first MaxDetectBytes bytes, keeping
// detection cost bounded.
const MaxDetectBytes = 4096

// Detect finds the intents of one request, the clauses of a composite one
// and the tools its artefacts point at.
func (d *Detector) Detect(text string) Detection {
	if len(text) > MaxDetectBytes {
		cut := MaxDetectBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	s := d.pool.Get().(*scratch)
	defer d.pool.Put(s)
	det := d.detect(s, text)
	// Fast path: a text without a connective or a cut between clauses is
	// one clause, already detected whole.
	if s.spans = splitClauses(s.norm, s.spans[:0]); len(s.spans) >= 2 {
		s.wholeSub = append(s.wholeSub[:0], s.sub...)
		det.Clauses = d.clauses(s)
	}
	return det
}

// detect is the detection of one text, without its clauses; s.norm holds
// the text's normal form afterwards.
func (d *Detector) detect(s *scratch, text string) Detection {
	det := Detection{Lang: Language(text)}
	d.evidence(s, text)
	d.rankLexical(s, &det)
	det.Signals = d.sig.find(s.norm, s.occ, s.dead)

	// Order intents by evidence.
	s.order = s.order[:0]
	for i, e := range s.iscore {
		if e > 0 {
			s.order = append(s.order, int32(i))
		}
	}
	if len(s.order) == 0 {
		return det
	}
	slices.SortStableFunc(s.order, func(a, b int32) int { return cmp.Compare(s.iscore[b], s.iscore[a]) })
	top := s.iscore[s.order[0]]
	det.Scores = make(map[string]float64, len(s.order))
	for _, i := range s.order {
		det.Scores[d.intents[i]] = round3(strength(s.iscore[i]))
		e := s.iscore[i]
		// A secondary intent needs evidence near the top one, or a
		// specific phrase of its own ("天气" next to "组装成文档").
		if i == s.order[0] || (len(det.Intents) < 3 && e >= d.minSecondary && (e >= d.secondaryRatio*top || s.strong[i])) {
			det.Intents = append(det.Intents, d.intents[i])
		}
	}
	det.Primary = det.Intents[0]
	det.Confidence = round3(strength(top))

	// Matched keywords, per selected intent and others with evidence.
	for _, h := range s.hits {
		k := &d.kws[h.kw]
		if !h.counted || s.iscore[k.intent] == 0 {
			continue
		}
		if det.Matched == nil {
			det.Matched = map[string][]string{}
		}
		name := d.intents[k.intent]
		det.Matched[name] = append(det.Matched[name], k.text)
	}
	if s.lexTool >= 0 && s.iscore[s.lexInt] > 0 {
		if det.Matched == nil {
			det.Matched = map[string][]string{}
		}
		name := d.intents[s.lexInt]
		det.Matched[name] = append(det.Matched[name], "~lexical:"+d.tools[s.lexTool])
	}
	// Tools the evidence points at, strongest first.
	idx := s.idx[:0]
	for t, e := range s.tscore {
		if e > 0 {
			idx = append(idx, int32(t))
		}
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(s.tscore[b], s.tscore[a]) })
	det.Tools = make([]string, len(idx))
	det.toolEv = make([]float64, len(idx))
	for i, t := range idx {
		det.Tools[i] = d.tools[t]
		det.toolEv[i] = s.tscore[t]
	}
	s.idx = idx
	return det
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// kwState reports whether every part of k has a live occurrence that
// counts for k, and whether one of them lies outside the subject spans in
// s.sub. A file's extension ("纪要.docx") names an input: it counts for
// the tools that read such a file, not for one that makes the format.
func (d *Detector) kwState(s *scratch, k *keyword) (present, outside bool) {
	for _, p := range k.parts {
		found := false
		for oi, o := range s.occ {
			if !s.alive[oi] || o.pat != p || d.inputOnly(s.norm, o, k) {
				continue
			}
			found = true
			if !inSpans(o, s.sub) {
				outside = true
			}
		}
		if !found {
			return false, false
		}
	}
	return true, outside
}

// inputOnly reports whether occurrence o is a file's extension that k's
// tool does not read.
func (d *Detector) inputOnly(norm []byte, o occurrence, k *keyword) bool {
	if k.tool < 0 || int(o.pat) >= len(d.extReaders) || d.extReaders[o.pat] == nil || !atExtension(norm, o) {
		return false
	}
	return !slices.Contains(d.extReaders[o.pat], k.tool)
}

// atExtension reports whether o follows "name." (a file's extension).
func atExtension(norm []byte, o occurrence) bool {
	return o.start > 1 && norm[o.start-1] == '.' && (isWordByte(norm[o.start-2]) || norm[o.start-2] >= 0x80)
}

// evidence fills s.iscore (per intent) and s.tscore (per tool).
func (d *Detector) evidence(s *scratch, text string) {
	s.norm = d.norm.appendNormal(s.norm[:0], text)
	d.score(s)
}

// score fills s.iscore and s.tscore from the normal form in s.norm.
func (d *Detector) score(s *scratch) {
	s.occ = d.appendTypos(s.norm, d.m.scan(s.norm, s.occ[:0]))
	s.dead = deadSpans(s.norm, s.dead[:0])
	d.markAlive(s)
	clear(s.iscore)
	clear(s.tscore)
	clear(s.strong)
	d.collectHits(s)
	d.uncountExplained(s)
	d.addHits(s)
	d.applyExclusions(s)
	d.addLexical(s)
}

// markAlive says which occurrences are evidence. A match inside a longer
// match is not evidence of its own: "数据库" is a database, not "数据".
// Nor are words inside a URL or a file's base name ("report_final.docx" is
// a .docx, not a report). A prefix keyword's match covers its whole word:
// "file*" in "files" is the same word as the keyword "files", not inside
// it.
func (d *Detector) markAlive(s *scratch) {
	s.ext = s.ext[:0]
	for _, o := range s.occ {
		e := o.end
		if p := &d.m.pats[o.pat]; p.prefix && p.asciiEnd {
			for int(e) < len(s.norm) && isWordByte(s.norm[e]) {
				e++
			}
		}
		s.ext = append(s.ext, e)
	}
	s.alive = s.alive[:0]
	for i, o := range s.occ {
		alive := true
		for _, sp := range s.dead {
			if o.start >= sp[0] && o.end <= sp[1] {
				alive = false
				break
			}
		}
		for j, p := range s.occ {
			if !alive {
				break
			}
			if i != j && p.pat < d.kwPats && p.start <= o.start && s.ext[j] >= s.ext[i] && s.ext[j]-p.start > s.ext[i]-o.start {
				alive = false
				break
			}
		}
		s.alive = append(s.alive, alive)
	}
}

// collectHits lists the keywords present; the subject spans hold when a
// strong phrase outside them names the task (subject.go), and then only
// the hits outside them count.
func (d *Detector) collectHits(s *scratch) {
	s.sub = subjectSpans(s.norm, s.sub[:0])
	s.hits = s.hits[:0]
	task := false
	s.gen++
	for oi := range s.occ {
		if !s.alive[oi] {
			continue
		}
		for _, ki := range d.byPat[s.occ[oi].pat] {
			if s.seen[ki] == s.gen {
				continue
			}
			s.seen[ki] = s.gen
			k := &d.kws[ki]
			present, outside := d.kwState(s, k)
			if !present {
				continue
			}
			s.hits = append(s.hits, hit{kw: ki, outside: outside})
			task = task || (k.strong && outside)
		}
	}
	if !task {
		s.sub = s.sub[:0]
	}
	for hi := range s.hits {
		h := &s.hits[hi]
		h.counted = len(s.sub) == 0 || h.outside
	}
}

// uncountExplained drops a generic word that a specific phrase of another
// tool is made of: it is explained by it. "画" in "用折线图画出…增长" is
// the chart's "画+增长", not a drawing; "pdf" in "docx+pdf" is the
// conversion's output.
func (d *Detector) uncountExplained(s *scratch) {
	s.used = s.used[:0]
	for _, h := range s.hits {
		if k := &d.kws[h.kw]; h.counted && k.strong && len(k.parts) > 1 {
			for _, p := range k.parts {
				s.used = append(s.used, [2]int32{p, k.tool})
			}
		}
	}
	for hi := range s.hits {
		h := &s.hits[hi]
		k := &d.kws[h.kw]
		if h.counted && !k.strong && len(k.parts) == 1 && slices.ContainsFunc(s.used, func(u [2]int32) bool { return u[0] == k.parts[0] && u[1] != k.tool }) {
			h.counted = false
		}
	}
}

// addHits adds the counted hits' weights to their intents and tools.
func (d *Detector) addHits(s *scratch) {
	for hi := range s.hits {
		h := &s.hits[hi]
		if !h.counted {
			continue
		}
		k := &d.kws[h.kw]
		s.iscore[k.intent] += k.weight
		if k.strong {
			s.strong[k.intent] = true
		}
		if k.tool >= 0 {
			s.tscore[k.tool] += k.weight
		}
	}
}

// applyExclusions drops an intent seen only through generic words when a
// word that points elsewhere occurs.
func (d *Detector) applyExclusions(s *scratch) {
	for ii, pats := range d.exclPats {
		if s.iscore[ii] == 0 || s.strong[ii] {
			continue
		}
		for _, p := range pats {
			if d.patPresent(s, p) {
				s.iscore[ii] = 0
				for t, in := range d.toolInt {
					if in == int32(ii) {
						s.tscore[t] = 0
					}
				}
				break
			}
		}
	}
}

// addLexical runs the lexical ranker over the text outside the dead and
// subject spans: its best tool adds bounded evidence, enough for the
// extended tier on its own, never more than one strong phrase.
func (d *Detector) addLexical(s *scratch) {
	clear(s.lex)
	s.lexTool, s.lexInt = -1, -1
	s.lexText = append(s.lexText[:0], s.norm...)
	for _, spans := range [2][][2]int32{s.dead, s.sub} {
		for _, sp := range spans {
			for k := sp[0]; k < sp[1]; k++ {
				s.lexText[k] = ' '
			}
		}
	}
	if d.lex.score(s.lexText, s.lex) == 0 {
		return
	}
	best := -1
	for t, v := range s.lex {
		if best < 0 || v > s.lex[best] {
			best = t
		}
	}
	if best >= 0 && s.lex[best] > d.lexMin {
		add := min(d.lexCap, d.lexScale*(s.lex[best]-d.lexMin))
		// Credit the tool's intent that the keywords already favour.
		in := d.toolInt[best]
		for _, c := range d.toolInts[best] {
			if s.iscore[c] > s.iscore[in] {
				in = c
			}
		}
		if in >= 0 {
			s.iscore[in] += add
			s.lexTool, s.lexInt = int32(best), in
		}
		s.tscore[best] += add
	}
}

func (d *Detector) patPresent(s *scratch, p int32) bool {
	for oi := range s.occ {
		if s.occ[oi].pat == p {
			return true
		}
	}
	return false
}

// deadSpans appends the spans of text whose words are not topic words: a
// URL after its scheme, and a file name's base name (the part before a
// final ".ext" whose extension holds a letter).
func deadSpans(text []byte, dst [][2]int32) [][2]int32 {
	isTok := func(b byte) bool {
		return isWordByte(b) || b == '_' || b == '-' || b == '.' || b == '/' || b == ':' || b == '?' || b == '=' || b == '&' || b == '%' || b == '#' || b == '~' || b == '@'
	}
	dst = quotedSpans(text, dst)
	i := 0
	for i < len(text) {
		if !isTok(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isTok(text[j]) {
			j++
		}
		tok := text[i:j]
		switch {
		case isAddress(tok):
			// An e-mail address says where a result goes: its domain is
			// not a web word, its name not a topic.
			dst = append(dst, [2]int32{int32(i), int32(j)})
		case hasPrefix(tok, "https://"):
			dst = append(dst, [2]int32{int32(i + 8), int32(j)})
		case hasPrefix(tok, "http://"):
			dst = append(dst, [2]int32{int32(i + 7), int32(j)})
		case hasPrefix(tok, "www."):
			dst = append(dst, [2]int32{int32(i), int32(j)})
		default:
			// trailing sentence punctuation is not part of a name
			end := len(tok)
			for end > 0 && (tok[end-1] == '.' || tok[end-1] == ':' || tok[end-1] == '?') {
				end--
			}
			dot := -1
			for k := end - 1; k > 0; k-- {
				if tok[k] == '.' {
					dot = k
					break
				}
			}
			if dot > 0 && end-dot-1 >= 1 && end-dot-1 <= 5 && hasLetter(tok[dot+1:end]) && hasLetter(tok[:dot]) {
				dst = append(dst, [2]int32{int32(i), int32(i + dot)})
			}
		}
		i = j
	}
	return dst
}

// quotes are the pairs whose inside is content, not the task: a title, a
// watermark's text, a page's name ("加个“草稿”水印", 标题是「匯出功能失效」,
// titled "Retry calls").
var quotes = [][2]string{{"“", "”"}, {"「", "」"}, {"『", "』"}, {"\"", "\""}}

// quotedSpans appends the insides of the closed quotes of text.
func quotedSpans(text []byte, dst [][2]int32) [][2]int32 {
	for _, q := range quotes {
		for from := 0; from < len(text); {
			open := bytes.Index(text[from:], []byte(q[0]))
			if open < 0 {
				break
			}
			in := from + open + len(q[0])
			end := bytes.Index(text[in:], []byte(q[1]))
			if end < 0 {
				break
			}
			dst = append(dst, [2]int32{int32(in), int32(in + end)})
			from = in + end + len(q[1])
		}
	}
	return dst
}

// isAddress reports whether a token is an e-mail address: a name, "@" and
// a domain with a dot.
func isAddress(tok []byte) bool {
	at := bytes.IndexByte(tok, '@')
	if at <= 0 {
		return false
	}
	dom := bytes.TrimRight(tok[at+1:], ".:?")
	dot := bytes.LastIndexByte(dom, '.')
	return dot > 0 && dot < len(dom)-1 && hasLetter(dom[dot+1:])
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

func hasLetter(b []byte) bool {
	for _, c := range b {
		if 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// rankLexical stores the lexically best tools (at most 12) in det.lexRank.
func (d *Detector) rankLexical(s *scratch, det *Detection) {
	n := 0
	for _, v := range s.lex {
		if v > 0 {
			n++
		}
	}
	if n == 0 {
		return
	}
	idx := s.idx[:0]
	for t, v := range s.lex {
		if v > 0 {
			idx = append(idx, int32(t))
		}
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(s.lex[b], s.lex[a]) })
	idx = idx[:min(len(idx), 12)]
	rank := make([]string, len(idx))
	for i, t := range idx {
		rank[i] = d.tools[t]
	}
	s.idx = idx
	det.lexRank = rank
}
