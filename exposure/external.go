package exposure

import (
	"bytes"
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// External tools are tools outside the catalog that the router still
// routes: a downstream MCP server's tools published as <server>__<tool>.
// They have no intent of their own in the tables, so they join a view by
// their own lexical score against the request (name, description, parameter
// names and descriptions), by how their name's verb and objects fit the
// request's (external_names.go), by their server's name and hint keywords
// found in the request, and by their server's hint intents when the
// detector finds those.
// The set is given whole (SetExternal) and swapped atomically; native
// routing is untouched by it: with no external tool every decision is what
// it was.

// ExternalTool is one tool outside the catalog, with what the router reads
// of it.
type ExternalTool struct {
	Name        string // the published name, e.g. github__create_issue
	Group       string // its server: hint keywords and intents are per group
	Title       string
	Description string
	Params      []ExternalParam
	Intents     []string // intent keys of the tables (routing hints)
	Keywords    []string // extra words in any language (routing hints)
}

// ExternalParam is one parameter of an external tool's input schema.
type ExternalParam struct {
	Name        string
	Description string
}

// ExternalMatch is one external tool a request points at.
type ExternalMatch struct {
	Name   string  `json:"name"`
	Strong bool    `json:"strong"` // enough evidence to be recommended
	Score  float64 `json:"score"`
	lex    float64 // the tool's own score (text and name), without hints
	group  string
	tool   int  // index in the set
	whole  bool // its name fits the request wholly (external_names.go)
}

// Caps of external tools per view: recommended ones, alternatives beside
// them in the recommended tier, and all of them in the extended tier.
const (
	externalRecommendedMax = 6
	externalAlternativeMax = 3
	externalExtendedMax    = 12
)

// externalSet is the compiled set: a lexical index over the tools' own
// text and each group's hint words.
type externalSet struct {
	tools    []ExternalTool
	byName   map[string]int
	norm     *normalizer
	lex      *bm25
	postings map[string][]int // index term -> the tools whose text holds it, once each
	groups   map[string]*extGroup
	shapes   []nameShape // each tool's name read as verb and object (external_names.go)
	// nameVocab holds every tool name's words and the verbs known, for
	// correcting a request's typos; objVocab every name's object stems.
	nameVocab, objVocab map[string]bool
	generic             map[string]bool            // object words of three servers' names or more
	objServers          map[string]map[string]bool // object word -> the servers whose verb_object names hold it
	typoVocab           []string                   // the names' words of five letters or more, sorted
	hintVocab           []string                   // the hint keywords' words of five letters or more, sorted
	glossZH             []glossEntry
	glossEN             [][2][]byte
	// intentObjs holds, per intent of the tables, the tools' object words
	// that its keywords and its tools' descriptions and examples speak of:
	// what the native tools answer (see nativeAnswers).
	intentObjs map[string]map[string]bool
	formats    [][]byte // the tables' output format words (pdf, word, ppt, 幻灯片), normalised
	model      *rankModel
	rp         RankWeights // the tables' ranking weights
	taskMarks  [][]byte    // the tables' marks between a request's tasks
	glossENMap map[string]string
}

type extGroup struct {
	words   [][]byte // normalised hint keywords
	masked  [][]byte // those that are not verbs: the verbs still say what to do
	name    [][]byte // the group's name, a weaker hint (see match)
	raw     string   // the group's name as one word, for typo tolerance
	intents []string
}

// gatewayWords say that a request is about some MCP server's tool, not
// which one ("use the everything mcp server to ..."): they do not count in
// the tools' scores, where a description that mentions MCP servers would
// otherwise win.
var gatewayWords = [][]byte{[]byte("mcp"), []byte("server"), []byte("服务器"), []byte("服务")}

// splitName turns create_issue, getFileContents or file-info.v2 into words.
func splitName(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

func newExternalSet(t *Tables, tools []ExternalTool) *externalSet {
	x := &externalSet{tools: tools, byName: map[string]int{}, norm: &normalizer{t2s: t.T2S}, groups: map[string]*extGroup{},
		shapes: make([]nameShape, len(tools)), nameVocab: map[string]bool{}, objVocab: map[string]bool{"file": true, "url": true}}
	for w := range verbClasses {
		x.nameVocab[w] = true
	}
	nameWords := map[string]bool{} // words of the tools' names only
	prefixes := groupPrefixes(tools)
	x.glossZH, x.glossEN = compileGlossary(x.norm, t.Ranking)
	x.glossENMap, x.rp = t.Ranking.GlossaryEN, t.Ranking.Weights
	for _, m := range t.Ranking.TaskMarks {
		x.taskMarks = append(x.taskMarks, []byte(m))
	}
	docs := make([]string, len(tools))
	for i, et := range tools {
		docs[i] = x.addTool(i, prefixes[et.Group], nameWords)
		if x.groups[et.Group] == nil {
			x.groups[et.Group] = x.newGroup(et)
		}
	}
	x.typoAndHintVocab(nameWords)
	x.objectServers()
	x.lex = newBM25(x.norm, docs, t.StopWords.English, t.StopWords.Chinese)
	for _, g := range x.groups {
		if a := x.initials(g.raw); a != "" {
			g.name = append(g.name, []byte(a))
		}
	}
	x.intentObjs = x.nativeObjects(t)
	for _, f := range t.Signals.Formats {
		for _, w := range f.Words {
			if nw := strings.TrimSpace(x.norm.normal(w)); nw != "" {
				x.formats = append(x.formats, []byte(nw))
			}
		}
	}
	x.model = newRankModel(t, x)
	x.indexPostings(docs)
	return x
}

// groupPrefixes holds, per server, the prefix its tools' short names
// share (see commonPrefix).
func groupPrefixes(tools []ExternalTool) map[string]string {
	shorts := map[string][]string{}
	for _, et := range tools {
		shorts[et.Group] = append(shorts[et.Group], strings.TrimPrefix(et.Name, et.Group+"__"))
	}
	prefixes := map[string]string{}
	for g, s := range shorts {
		prefixes[g] = commonPrefix(s)
	}
	return prefixes
}

// addTool reads tool i's name into the set (its shape and the name
// vocabularies; nameWords gets its name's words) and returns its text for
// the lexical index.
func (x *externalSet) addTool(i int, prefix string, nameWords map[string]bool) string {
	et := x.tools[i]
	x.byName[et.Name] = i
	short := strings.TrimPrefix(et.Name, et.Group+"__")
	x.shapes[i] = shapeOf(short, prefix)
	for _, w := range strings.Fields(strings.ToLower(splitName(short))) {
		x.nameVocab[w], nameWords[w] = true, true
	}
	for _, o := range x.shapes[i].objs {
		x.objVocab[o] = true
	}
	// The tool's own name counts twice: it is its most precise text.
	parts := []string{splitName(short), splitName(short), et.Title, et.Description}
	for _, p := range et.Params {
		parts = append(parts, splitName(p.Name), p.Description)
	}
	return strings.Join(parts, " . ")
}

// newGroup compiles the hints of et's server, read from its first tool.
func (x *externalSet) newGroup(et ExternalTool) *extGroup {
	g := &extGroup{}
	for _, w := range et.Keywords {
		if nw := strings.TrimSpace(x.norm.normal(w)); len(nw) >= 2 {
			g.words = append(g.words, []byte(nw))
			if _, verb := verbClasses[strings.Fields(nw)[0]]; !verb {
				g.masked = append(g.masked, []byte(nw))
			}
		}
	}
	if nw := strings.TrimSpace(x.norm.normal(splitName(et.Group))); len(nw) >= 2 {
		g.name = append(g.name, []byte(nw))
	}
	g.raw = strings.ToLower(et.Group)
	g.intents = et.Intents
	return g
}

// typoAndHintVocab sorts the words a request's typos are corrected to:
// the names' words of five letters or more that are not verbs only (the
// verbs known count when a name holds them), and the hint keywords' ASCII
// words of five letters or more.
func (x *externalSet) typoAndHintVocab(nameWords map[string]bool) {
	for w := range x.nameVocab {
		if _, verb := verbClasses[w]; len(w) >= 5 && (!verb || nameWords[w]) {
			x.typoVocab = append(x.typoVocab, w)
		}
	}
	slices.Sort(x.typoVocab)
	for _, g := range x.groups {
		for _, w := range g.words {
			for _, f := range strings.Fields(string(w)) {
				if len(f) >= 5 && !hasNonASCII([]byte(f)) && !slices.Contains(x.hintVocab, f) {
					x.hintVocab = append(x.hintVocab, f)
				}
			}
		}
	}
	slices.Sort(x.hintVocab)
}

// objectServers maps the names' object words to their servers: objServers
// those of verb_object names, generic those of three servers or more.
func (x *externalSet) objectServers() {
	servers := map[string]map[string]bool{}
	for i, et := range x.tools {
		for _, o := range x.shapes[i].objs {
			if servers[o] == nil {
				servers[o] = map[string]bool{}
			}
			servers[o][et.Group] = true
		}
	}
	// Implying a server takes a noun of a verb_object name: a name
	// without a verb (browser_drop) holds its action, not a thing.
	x.objServers = map[string]map[string]bool{}
	for i, et := range x.tools {
		if len(x.shapes[i].verbs) == 0 {
			continue
		}
		for _, o := range x.shapes[i].objs {
			if x.objServers[o] == nil {
				x.objServers[o] = map[string]bool{}
			}
			x.objServers[o][et.Group] = true
		}
	}
	x.generic = map[string]bool{}
	for o, g := range servers {
		if len(g) >= 3 {
			x.generic[o] = true
		}
	}
}

// indexPostings lists, per index term, the tools whose text holds it.
func (x *externalSet) indexPostings(docs []string) {
	x.postings = map[string][]int{}
	for i, d := range docs {
		seen := map[string]bool{}
		x.lex.forEachTerm(x.norm.appendNormal(nil, d), func(term []byte) {
			if !seen[string(term)] {
				seen[string(term)] = true
				x.postings[string(term)] = append(x.postings[string(term)], i)
			}
		})
	}
}

// conversionMarks stand right before an output format when a request
// turns something into it ("导出成 Word", "做成一个 PPT", "into slides",
// "as a PDF").
var conversionMarks = []string{"成", "为", " into", " to", " as", " into a", " as a", " to a", " into an", " as an"}

// intoFormat reports whether normalised text turns something into one of
// the tables' output formats: the thing is then read for its content.
func (x *externalSet) intoFormat(norm []byte) bool {
	into := false
	eachHint(norm, x.formats, func(at, _ int) bool {
		before := " " + strings.TrimRight(string(norm[:at]), " ")
		for _, m := range measureWords {
			before = strings.TrimSuffix(before, m)
		}
		into = slices.ContainsFunc(conversionMarks, func(m string) bool { return strings.HasSuffix(before, m) })
		return !into
	})
	return into
}

// destinationMarks stand right before the server a request sends to
// ("post it to slack", "贴到 slack", "发给 slack", "在 slack 里说一声").
var destinationMarks = []string{" to", " into", "到", "给", "至", "在"}

// afterDestinationMark reports whether a destination mark ends right
// before offset at of normalised text.
func afterDestinationMark(norm []byte, at int) bool {
	before := " " + strings.TrimRight(string(norm[:at]), " ")
	return slices.ContainsFunc(destinationMarks, func(m string) bool { return strings.HasSuffix(before, m) })
}

// toChannel reports whether normalised text sends to a #channel ("to
// #eng", "发到 #dev").
func toChannel(norm []byte) bool {
	for i := 1; i+1 < len(norm); i++ {
		if norm[i] == '#' && isWordByte(norm[i+1]) && (norm[i+1] < '0' || norm[i+1] > '9') && afterDestinationMark(norm, i) {
			return true
		}
	}
	return false
}

// sources returns, for a request that sends or posts something to one
// named server and names another, or speaks of another's objects ("Notion 上的 release notes 页面内容贴到
// slack"), the other servers: what is sent is read from them, so their
// tools are fitted with a reading of the request (get, or list), which
// is returned too. The sending is the destination's.
func (x *externalSet) sources(norm []byte, rs requestShape, named func(string) bool) (map[string]bool, requestShape) {
	if !rs.verbs["send"] && !rs.verbs["create"] {
		return nil, rs
	}
	var dest, others []string
	for name, g := range x.groups {
		if !named(name) {
			continue
		}
		// only a server named by its name or hints is a destination, or
		// the one whose names hold channels when "to #name" is written
		to := x.objServers[objStem("channel")][name] && toChannel(norm)
		eachHint(norm, slices.Concat(g.name, g.words), func(at, _ int) bool {
			to = to || afterDestinationMark(norm, at)
			return !to
		})
		if to {
			dest = append(dest, name)
		} else {
			others = append(others, name)
		}
	}
	if len(dest) != 1 || len(others) == 0 {
		return nil, rs
	}
	read := rs
	read.verbs = map[string]bool{"get": true, "list": rs.verbs["list"]}
	src := map[string]bool{}
	for _, o := range others {
		src[o] = true
	}
	return src, read
}

// implied returns the servers the request's objects point at without
// naming them: an object word that the names of one or two servers hold
// (a pull request, a channel, a commit), and no named server's. Such a
// server's tools whose names fit wholly are recommended though their
// objects are every server's ("push these files to acme/tool as one
// commit": push_files), and beside a server the request names ("PR 230's
// checks ... then post in slack").
func (x *externalSet) implied(objs map[string]bool, named func(string) bool) map[string]bool {
	out := map[string]bool{}
	for o := range objs {
		gs := x.objServers[o]
		if len(gs) == 0 || len(gs) > 2 {
			continue
		}
		if slices.ContainsFunc(slices.Collect(maps.Keys(gs)), named) {
			continue
		}
		for g := range gs {
			out[g] = true
		}
	}
	return out
}

// nativeObjects reads, per intent, which of the tools' object words its
// keywords and its tools' own text hold (Chinese through the glossary).
func (x *externalSet) nativeObjects(t *Tables) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(intent, text string) {
		m := out[intent]
		if m == nil {
			m = map[string]bool{}
			out[intent] = m
		}
		words := x.withGlossary(x.norm.appendNormal(nil, strings.ReplaceAll(text, "+", " ")))
		for _, w := range strings.FieldsFunc(string(words), func(r rune) bool { return r >= 0x80 || !isWordByte(byte(r)) }) {
			if o := objStem(w); x.objVocab[o] {
				m[o] = true
			}
		}
	}
	for _, in := range t.Intents {
		for _, g := range in.Groups {
			add(in.Name, strings.Join(slices.Concat(g.Strong, g.Medium, g.Weak), " . "))
		}
	}
	for _, ti := range t.Catalog {
		for _, in := range ti.Intents {
			add(in, ti.Description+" . "+strings.Join(ti.Examples, " . "))
		}
	}
	return out
}

// ordinaryActions are the verb classes of any tool's work; the others
// (fork, push, merge) name one kind of server's actions.
var ordinaryActions = map[string]bool{"get": true, "list": true, "create": true, "update": true, "delete": true,
	"search": true, "send": true, "navigate": true, "capture": true, "move": true, "close": true}

// nativeAnswers reports whether the detected intents' tools speak of
// every object word of the request: then a downstream tool whose name
// fits it is no better than the native tools ("take a screenshot of the
// page" is the browser's), while one whose objects the native tools never
// mention ("issue #45 ... put it on my calendar") is the request's other
// part.
func (x *externalSet) nativeAnswers(rs requestShape, det Detection) bool {
	for v := range rs.verbs {
		if !ordinaryActions[v] {
			return false // fork, push, merge: actions of code hosts, not the catalog's
		}
	}
	for o := range rs.objs {
		if !slices.ContainsFunc(det.Intents, func(in string) bool { return x.intentObjs[in][o] }) {
			return false
		}
	}
	return true
}

// fixHintTypos corrects, in normalised text, the words of five letters
// or more that no tool's text holds and that are one edit away from
// exactly one word of the hint keywords ("knowlege graph"): a typo must
// not hide which server the request is about.
func (x *externalSet) fixHintTypos(norm []byte) []byte {
	if len(x.hintVocab) == 0 {
		return norm
	}
	var out []byte
	last := 0
	for i := 0; i < len(norm); {
		if !isWordByte(norm[i]) || norm[i] >= 0x80 {
			i++
			continue
		}
		j := i
		for j < len(norm) && isWordByte(norm[j]) && norm[j] < 0x80 {
			j++
		}
		w := string(norm[i:j])
		if len(w) >= 5 && !x.known(w) && !x.nameVocab[w] && !slices.Contains(x.hintVocab, w) {
			found := ""
			for _, v := range x.hintVocab {
				if editDistance1(w, v) {
					if found != "" {
						found = ""
						break
					}
					found = v
				}
			}
			if found != "" {
				out = append(append(out, norm[last:i]...), found...)
				last = j
			}
		}
		i = j
	}
	if out == nil {
		return norm
	}
	return append(out, norm[last:]...)
}

// initials is what users shorten a server's one-word compound name to,
// the first letters of its two parts as the tools' text knows them
// (filesystem: fs), or "" for a name that is not such a compound.
func (x *externalSet) initials(name string) string {
	if len(name) < 6 || strings.IndexFunc(name, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return ""
	}
	for i := 3; i <= len(name)-3; i++ {
		if x.known(name[:i]) && x.known(name[i:]) {
			return name[:1] + name[i:i+1]
		}
	}
	return ""
}

// hinted reports whether normalised text holds one of words, as a whole
// word for Latin ones.
func hinted(text []byte, words [][]byte) bool {
	return eachHint(text, words, func(int, int) bool { return false })
}

// mask blanks the hint words in text: they say which server, not which of
// its tools, so they do not count in the tools' lexical scores.
func mask(text []byte, words [][]byte) {
	eachHint(text, words, func(at, end int) bool {
		for i := at; i < end; i++ {
			text[i] = ' '
		}
		return true
	})
}

// eachHint calls fn for each whole-word occurrence of words in text until
// fn returns false; it reports whether there was one.
func eachHint(text []byte, words [][]byte, fn func(at, end int) bool) bool {
	found := false
	for _, w := range words {
		for off := 0; off < len(text); {
			i := bytes.Index(text[off:], w)
			if i < 0 {
				break
			}
			at := off + i
			end := at + len(w)
			before := at == 0 || !isWordByte(text[at-1]) || !isWordByte(w[0])
			after := end == len(text) || !isWordByte(text[end]) || !isWordByte(w[len(w)-1]) || inflection(text[end:], w[len(w)-1])
			if before && after {
				found = true
				if !fn(at, end) {
					return true
				}
			}
			off = at + 1
		}
	}
	return found
}

// match scores the request against every external tool. A tool is strong
// (recommended) when its server's hint keywords are in the request, or
// when its own text covers most of the request's words, or when its
// server's name or one of its hint intents is in the request and its own
// text matches it too, or when its name's verb and objects are all the
// request's (external_names.go). Weaker evidence makes it an alternative:
// a server's name alone ("delete everything" need not be about a server
// named everything; "我们 slack 工作区里都有哪些频道" is about slack, in
// words its English descriptions lack). A request that names a server is
// about that server: other servers' tools are alternatives at most.
// native says that the catalog's detection is confident on its own.
func (x *externalSet) match(text string, det Detection, native bool) []ExternalMatch {
	if x == nil || len(x.tools) == 0 || strings.TrimSpace(text) == "" {
		return nil
	}
	if len(text) > MaxDetectBytes {
		text = text[:MaxDetectBytes]
	}
	norm := x.fixHintTypos(x.norm.appendNormal(nil, text))
	ev := requestEvidence{native: native}
	var words []byte
	ev.hits, words, ev.anyNamed = x.serverHits(norm, det)
	words = x.withGlossary(words)
	if ev.anyNamed && x.intoFormat(norm) {
		// a server's thing turned into a document: it is read, for its
		// content, as text
		words = append(words, " read content markdown text"...)
	}
	words, files := withArtefacts(norm, words, ev.anyNamed)
	ev.lex = make([]float64, len(x.tools))
	if x.lex.score(words, ev.lex) == 0 && !x.anyHint(norm, det) && !ev.anyNamed {
		return nil
	}
	ev.shape = x.shapeOfRequest(words, len(norm))
	ev.shape.plural = ev.shape.plural || files >= 2
	ev.shape.singular = ev.shape.singular || files == 1
	query := x.queryTerms(words)
	ev.terms = len(query)
	// an owner/name repository is a code host's: no catalog tool acts on it
	_, _, slug := pathShapes(norm)
	ev.answered = native && !slug && x.nativeAnswers(ev.shape, det)
	hits := ev.hits
	ev.implied = x.implied(ev.shape.objs, func(g string) bool { return hits[g].hint || hits[g].named })
	implied := ev.implied
	ev.sources, ev.reading = x.sources(norm, ev.shape, func(g string) bool { return hits[g].hint || hits[g].named || implied[g] })
	ev.covers, ev.coversObj = x.coverage(query)
	var out []ExternalMatch
	for i := range x.tools {
		if m, ok := x.scoreTool(i, &ev); ok {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b ExternalMatch) int {
		if a.Strong != b.Strong {
			if a.Strong {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.Score, a.Score)
	})
	x.demoteWeakOfServer(out)
	return out[:min(len(out), externalExtendedMax*2)]
}

// groupHit is what a request says of one server: its hint keywords, its
// name, one of its hint intents.
type groupHit struct{ hint, named, intent bool }

// serverHits reads what the request says of each server. words is the
// request with the servers' non-verb hint keywords, their names and the
// gateway words blanked, for the tools' own scores; anyNamed says that
// some server's hint keywords or name are in it.
func (x *externalSet) serverHits(norm []byte, det Detection) (hits map[string]groupHit, words []byte, anyNamed bool) {
	hits = make(map[string]groupHit, len(x.groups))
	words = slices.Clone(norm)
	for name, g := range x.groups {
		var gh groupHit
		gh.hint = hinted(norm, g.words)
		gh.named = hinted(norm, g.name) || nearName(norm, g.raw, words)
		anyNamed = anyNamed || gh.hint || gh.named
		mask(words, g.masked)
		mask(words, g.name)
		for _, in := range g.intents {
			if slices.Contains(det.Intents, in) {
				gh.intent = true
			}
		}
		hits[name] = gh
	}
	mask(words, gatewayWords)
	return hits, words, anyNamed
}

// queryTerms are the request's terms that coverage counts, each with
// whether it is a verb. Coverage counts the request's Latin words and the
// Chinese bigrams the index knows: descriptions are mostly English, and a
// Chinese sentence's other bigrams would make every coverage small.
// A request that shares only verbs with a tool's text ("查询数据库":
// query, search) is not about it: strength by coverage needs a shared
// word that is not a verb.
func (x *externalSet) queryTerms(words []byte) map[string]bool {
	query := map[string]bool{} // term -> it is a verb
	x.lex.forEachTerm(words, func(term []byte) {
		if _, known := x.lex.vocab[string(term)]; known || term[0] < 0x80 {
			query[string(term)] = verbTerms[string(term)]
		}
	})
	return query
}

// coverage counts, per tool, the query's terms its text holds, and those
// of them that are not verbs.
func (x *externalSet) coverage(query map[string]bool) (covers, coversObj []int) {
	covers, coversObj = make([]int, len(x.tools)), make([]int, len(x.tools))
	for term, verb := range query {
		for _, i := range x.postings[term] {
			covers[i]++
			if !verb {
				coversObj[i]++
			}
		}
	}
	return covers, coversObj
}

// requestEvidence is what match reads of a request once, for every tool.
type requestEvidence struct {
	hits              map[string]groupHit
	anyNamed          bool
	native, answered  bool // the catalog is confident; and it answers the request's objects
	shape, reading    requestShape
	sources, implied  map[string]bool // servers read as a source; servers the objects imply
	lex               []float64       // per tool: its lexical score
	covers, coversObj []int           // per tool: the query's terms its text holds, and those not verbs
	terms             int             // the query's terms
}

// scoreTool scores tool i against the request's evidence; ok is false
// when the evidence is too weak to list it at all.
func (x *externalSet) scoreTool(i int, ev *requestEvidence) (_ ExternalMatch, ok bool) {
	et := x.tools[i]
	covered, coveredObj := ev.covers[i], ev.coversObj[i]
	coverage := 0.0
	if ev.terms > 0 {
		coverage = float64(covered) / float64(ev.terms)
	}
	gh := ev.hits[et.Group]
	hint, named, intentHit := gh.hint, gh.named, gh.intent
	sh := ev.shape
	if ev.sources[et.Group] {
		sh = ev.reading
	}
	fit, whole := sh.fit(x.shapes[i])
	// A name without objects (navigate, resize) fits only where its
	// server is named: "open" alone does not pick a browser tool.
	if len(x.shapes[i].objs) == 0 && !hint && !named {
		fit, whole = 0, false
	}
	// Naming no server, a name's fit is evidence only when its objects
	// are not every server's (file, directory) and the native tools do
	// not answer the request confidently ("take a screenshot of the
	// page" is the browser's, not a wiki's retrieve-a-page).
	if whole && !hint && !named && ((ev.native && ev.answered) || (x.allGeneric(x.shapes[i]) && !ev.implied[et.Group])) {
		whole = false
	}
	own := ev.lex[i] + fitWeight*fit
	hit := hint || (named && (covered >= 1 || fit >= 1))
	score := own
	switch {
	case hit:
		score += 3
	case named:
		score += 1 // named without matching text: an alternative
	}
	if intentHit {
		score += 1.5
	}
	if score <= 0 {
		return ExternalMatch{}, false
	}
	strong := hit || whole || (covered >= 2 && coveredObj >= 1 && coverage >= 0.5) || (intentHit && covered >= 1)
	medium := strong || intentHit || named || fit >= 2 || (covered >= 1 && coverage >= 0.34)
	if ev.anyNamed && !hint && !named && !(whole && ev.implied[et.Group]) {
		strong = false
	}
	// Naming no server, a request whose every object the confident
	// native tools speak of is theirs: its words found in a tool's
	// text make that tool an alternative, not a recommendation.
	if ev.answered && !hint && !named {
		strong = false
	}
	if !medium {
		return ExternalMatch{}, false
	}
	return ExternalMatch{Name: et.Name, Strong: strong, Score: round3(score), lex: own, group: et.Group, tool: i, whole: whole}, true
}

// demoteWeakOfServer takes out, sorted strong first, and makes a strong
// match whose own text and name score well below the best one's of its
// server only an alternative: the GitHub server's issue tools lead a
// request about issues, and its other tools, named by the same hint, stay
// out of the recommended view. Each server is measured against itself, so
// a request about two servers keeps the best of each. Hints alone (no
// text matched) rank nothing. A tool whose name fits wholly with a verb
// the best one's name lacks is the request's other action ("open the page
// and take a screenshot": navigate and take_screenshot) and keeps its
// place. out stays sorted strong first.
func (x *externalSet) demoteWeakOfServer(out []ExternalMatch) {
	best := map[string]int{} // group -> index in out
	for i, m := range out {
		if b, ok := best[m.group]; m.Strong && (!ok || m.lex > out[b].lex) {
			best[m.group] = i
		}
	}
	cut := make([]bool, len(out))
	for i, m := range out {
		b, ok := best[m.group]
		if !ok || !m.Strong || out[b].lex <= 0 || m.lex >= 0.7*out[b].lex {
			continue
		}
		cut[i] = !m.whole || x.sameAction(m.tool, out[b].tool)
	}
	for i := range out {
		if cut[i] {
			out[i].Strong = false
		}
	}
	slices.SortStableFunc(out, func(a, b ExternalMatch) int {
		if a.Strong != b.Strong {
			if a.Strong {
				return -1
			}
			return 1
		}
		return 0
	})
}

// sameAction reports whether two tools' names share a verb class, or
// either has none.
func (x *externalSet) sameAction(a, b int) bool {
	va, vb := x.shapes[a].verbs, x.shapes[b].verbs
	return len(va) == 0 || len(vb) == 0 || slices.ContainsFunc(va, func(v string) bool { return slices.Contains(vb, v) })
}

// fitWeight is what a whole fit of a tool's name to the request weighs
// against its lexical score.
const fitWeight = 2

func (x *externalSet) anyHint(norm []byte, det Detection) bool {
	for _, g := range x.groups {
		if hinted(norm, g.words) || hinted(norm, g.name) {
			return true
		}
		for _, in := range g.intents {
			if slices.Contains(det.Intents, in) {
				return true
			}
		}
	}
	return false
}

// externalConfidence is how sure the external matches make a decision: a
// strong match is as good as the recommended tier's threshold, a weak one
// as the extended tier's.
func (r *Router) externalConfidence(m []ExternalMatch) float64 {
	switch {
	case len(m) == 0:
		return 0
	case m[0].Strong:
		return r.cfg.RecommendedAt
	}
	return r.cfg.ExtendedAt
}

// SetExternal replaces the router's external tools (a manifest changed, a
// tool was approved or held). Names must not be catalog tools or meta
// tools; those are dropped. Sessions see the new set on their next
// Refresh or Route.
func (r *Router) SetExternal(tools []ExternalTool) {
	kept := make([]ExternalTool, 0, len(tools))
	seen := map[string]bool{}
	for _, t := range tools {
		if r.catalog[t.Name] || t.Name == FindTools || t.Name == CallTool || seen[t.Name] || (r.registered != nil && r.registered[t.Name]) {
			continue
		}
		seen[t.Name] = true
		kept = append(kept, t)
	}
	if len(kept) == 0 {
		// Nothing to route to: building the set (its glossary and the
		// native tables' objects) would only slow every start.
		r.ext.Store(nil)
		return
	}
	r.ext.Store(newExternalSet(r.t, kept))
}

// External lists the router's external tools' names, in the order given.
func (r *Router) External() []string {
	x := r.ext.Load()
	if x == nil {
		return nil
	}
	out := make([]string, len(x.tools))
	for i, t := range x.tools {
		out[i] = t.Name
	}
	return out
}

func (r *Router) isExternal(name string) bool {
	x := r.ext.Load()
	if x == nil {
		return false
	}
	_, ok := x.byName[name]
	return ok
}

// matchExternal stores the external matches of a request in its detection.
func (r *Router) matchExternal(text string, det *Detection) {
	native := len(det.Intents) > 0 && det.Confidence >= r.cfg.RecommendedAt
	det.External = r.ext.Load().rank(text, det, native)
}

// externalView appends the external tools of a tier to a view built from
// the catalog: strong matches as recommended (capped), weak ones as
// alternatives in the extended tier, every external tool in the full tier.
func (r *Router) externalView(tier Tier, det Detection) (rec, alt, rest []string) {
	x := r.ext.Load()
	if x == nil {
		return nil, nil, nil
	}
	in := map[string]bool{}
	for _, m := range det.External {
		if _, ok := x.byName[m.Name]; !ok {
			continue // since dropped from the set
		}
		switch {
		case m.Strong && len(rec) < externalRecommendedMax:
			rec = append(rec, m.Name)
		case tier == TierRecommended && len(alt) < externalAlternativeMax:
			alt = append(alt, m.Name)
		case tier != TierRecommended && len(rec)+len(alt) < externalExtendedMax:
			alt = append(alt, m.Name)
		default:
			continue
		}
		in[m.Name] = true
	}
	if tier == TierFull {
		for _, t := range x.tools {
			if !in[t.Name] {
				rest = append(rest, t.Name)
			}
		}
	}
	return rec, alt, rest
}
