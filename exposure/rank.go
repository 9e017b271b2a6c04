package exposure

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// The ranking model of tools outside the catalog, on the catalog tools'
// scale: one lexical score per tool over its own fields (name words twice,
// title, description, parameters; a catalog tool's description and
// examples), the request read whole and task by task (each task retrieves
// its own candidates), servers ranked by their best tool, a chosen server
// bringing the tools that supply or take its chosen tools' inputs, and a
// tool that several servers publish under one name (a generic hub such as
// read_multiple_files) counted once. Hints a user configured for a server
// (its name, keywords, intents) and the names' reading add evidence; no
// rule puts native tools first: a configured server's tool takes a slot
// when it scores.

// Ranking is the model's data (data/ranking.json), a table like the
// others: validated, overridable by config.
type Ranking struct {
	Weights RankWeights `json:"weights" yaml:"weights"`
	// GlossaryZH gives English words for Chinese words; added to a Chinese
	// request and to a Chinese tool description alike, so each language
	// meets the other's text.
	GlossaryZH map[string]string `json:"glossary_zh" yaml:"glossary_zh"`
	// GlossaryEN spells out abbreviations and phrases in the words tool
	// descriptions use (pr: pull request).
	GlossaryEN map[string]string `json:"glossary_en" yaml:"glossary_en"`
	// GenericParams are parameter words every kind of tool takes: they say
	// nothing about which tool supplies them.
	GenericParams []string `json:"generic_params" yaml:"generic_params"`
	// TaskMarks split a request into its tasks.
	TaskMarks []string `json:"task_marks" yaml:"task_marks"`
}

// RankWeights are the model's weights. Shares are of the best score;
// scores are BM25 (one rare word shared is about 4).
type RankWeights struct {
	Candidate float64 `json:"candidate" yaml:"candidate"`   // a tool reaching this share of the best is a candidate
	Server    float64 `json:"server" yaml:"server"`         // a server whose best tool reaches this share joins the view
	Strong    float64 `json:"strong" yaml:"strong"`         // a candidate reaching this share of its server's best is recommended (when sure)
	MinScore  float64 `json:"min_score" yaml:"min_score"`   // below it nothing matches
	Confident float64 `json:"confident" yaml:"confident"`   // the floor of "the best score" that hints are shares of
	Servers   int     `json:"servers" yaml:"servers"`       // servers per view (one more when not sure)
	PerServer int     `json:"per_server" yaml:"per_server"` // tools per server, workflow neighbours included (two more when not sure)
	ViewMax   int     `json:"view_max" yaml:"view_max"`     // tools in a view with external tools, core included (the full tier aside)
	HintBoost float64 `json:"hint_boost" yaml:"hint_boost"` // the server's name or a hint keyword in the request
	// IntentHint: one of the server's hint intents detected, or the server
	// named with no word of its tools matched.
	IntentHint float64 `json:"intent_hint" yaml:"intent_hint"`
	Clause     float64 `json:"clause" yaml:"clause"` // a task's own score beside the whole request's
	// IntentEvidence is what the intent matrix's recommendation adds to a
	// native tool's score, times the detection's confidence.
	IntentEvidence float64 `json:"intent_evidence" yaml:"intent_evidence"`
	// NameStrong and NameMedium: what the names' reading
	// (external_names.go) adds to a tool it finds strong or medium.
	NameStrong float64 `json:"name_strong" yaml:"name_strong"`
	NameMedium float64 `json:"name_medium" yaml:"name_medium"`
	// NativeShare: external candidates the model is not sure of, scoring
	// above this share of the best native tool, make a decision unsure.
	NativeShare float64 `json:"native_share" yaml:"native_share"`
}

// override sets the weights o gives (its non-zero fields).
func (w *RankWeights) override(o RankWeights) {
	dst, src := reflect.ValueOf(w).Elem(), reflect.ValueOf(o)
	for i := range src.NumField() {
		if !src.Field(i).IsZero() {
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// validate checks the ranking's weights and words.
func (rk Ranking) validate() error {
	w := rk.Weights
	for name, v := range map[string]float64{"candidate": w.Candidate, "server": w.Server, "strong": w.Strong, "native_share": w.NativeShare} {
		if v <= 0 || v > 1 {
			return fmt.Errorf("ranking: weight %s %.2f is not a share in (0, 1]", name, v)
		}
	}
	for name, v := range map[string]float64{"min_score": w.MinScore, "confident": w.Confident, "hint_boost": w.HintBoost, "intent_hint": w.IntentHint,
		"clause": w.Clause, "intent_evidence": w.IntentEvidence, "name_strong": w.NameStrong, "name_medium": w.NameMedium} {
		if v < 0 {
			return fmt.Errorf("ranking: weight %s %.2f is negative", name, v)
		}
	}
	if w.Servers < 1 || w.PerServer < 1 || w.ViewMax < 1 {
		return fmt.Errorf("ranking: servers %d, per_server %d and view_max %d must be at least 1", w.Servers, w.PerServer, w.ViewMax)
	}
	for _, g := range []map[string]string{rk.GlossaryZH, rk.GlossaryEN} {
		for k, v := range g {
			if strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
				return fmt.Errorf("ranking: glossary entry %q: %q has an empty side", k, v)
			}
		}
	}
	if slices.Contains(rk.TaskMarks, "") {
		return fmt.Errorf("ranking: an empty task mark")
	}
	return nil
}

// rankModel is what the ranking reads beyond the lexical index.
type rankModel struct {
	lex       *bm25            // the external tools' fields, then the catalog tools' (native)
	native    []string         // catalog tool names, after the external tools in lex
	server    map[string][]int // group -> its tools
	copies    [][]int          // tool -> the other servers' tools with its name
	suppliers [][]int          // tool -> tools of its server that supply its inputs
	consumers [][]int          // tool -> tools of its server that take what it supplies
}

func newRankModel(t *Tables, x *externalSet) *rankModel {
	m := &rankModel{server: map[string][]int{}, copies: make([][]int, len(x.tools)), suppliers: make([][]int, len(x.tools)), consumers: make([][]int, len(x.tools))}
	var docs []string
	for _, et := range x.tools {
		short := splitName(strings.TrimPrefix(et.Name, et.Group+"__"))
		parts := []string{short, short, et.Title, et.Description}
		for _, p := range et.Params {
			parts = append(parts, splitName(p.Name), p.Description)
		}
		docs = append(docs, x.glossDoc(strings.Join(parts, " . ")))
	}
	for _, ti := range t.Catalog {
		m.native = append(m.native, ti.Name)
		docs = append(docs, x.glossDoc(strings.Join(slices.Concat([]string{splitName(ti.Name), splitName(ti.Name), ti.Description}, ti.Examples), " . ")))
	}
	m.lex = newBM25(x.norm, docs, t.StopWords.English, t.StopWords.Chinese)
	bare := map[string][]int{}
	for i, et := range x.tools {
		m.server[et.Group] = append(m.server[et.Group], i)
		short := strings.ToLower(strings.TrimPrefix(et.Name, et.Group+"__"))
		short = strings.NewReplacer("-", "", "_", "").Replace(short)
		bare[short] = append(bare[short], i)
	}
	for _, ids := range bare {
		for _, i := range ids {
			for _, j := range ids {
				if i != j && x.tools[i].Group != x.tools[j].Group {
					m.copies[i] = append(m.copies[i], j)
				}
			}
		}
	}
	generic := map[string]bool{}
	for _, w := range t.Ranking.GenericParams {
		generic[w] = true
	}
	for _, ids := range m.server {
		if len(ids) >= 2 {
			m.linkWorkflow(x.tools, ids, generic)
		}
	}
	return m
}

// linkWorkflow finds the suppliers and consumers among one server's tools
// (ids). A supplier of tool t is a tool of its server that speaks of one
// of t's parameter words without taking it as a parameter: geocode_address
// tells the latitude find_nearby_places takes; get-station-code-of-citys
// the station code get-tickets takes. generic holds the parameter words
// that say nothing (the tables' generic_params).
func (m *rankModel) linkWorkflow(tools []ExternalTool, ids []int, generic map[string]bool) {
	words := func(s string) []string {
		var out []string
		for _, w := range strings.FieldsFunc(strings.ToLower(splitName(s)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) >= 4 && !generic[w] {
				out = append(out, string(stem([]byte(w))))
			}
		}
		return out
	}
	takes := make([]map[string]bool, len(tools))
	text := make([]string, len(tools))
	for _, i := range ids {
		takes[i] = map[string]bool{}
		for _, p := range tools[i].Params {
			for _, w := range words(p.Name) {
				takes[i][w] = true
			}
		}
		et := tools[i]
		text[i] = " " + strings.Join(words(splitName(strings.TrimPrefix(et.Name, et.Group+"__"))+" "+et.Description), " ") + " "
	}
	for _, t := range ids {
		for _, u := range ids {
			if u == t || len(tools[u].Params) > len(tools[t].Params) {
				continue
			}
			for w := range takes[t] {
				if !takes[u][w] && strings.Contains(text[u], " "+w+" ") {
					m.suppliers[t] = append(m.suppliers[t], u)
					m.consumers[u] = append(m.consumers[u], t)
					break
				}
			}
		}
		slices.Sort(m.suppliers[t])
	}
}

// tasks splits normalised text into the spans of its tasks (two or more).
func (x *externalSet) tasks(norm []byte) [][]byte {
	spans := [][]byte{norm}
	for _, m := range x.taskMarks {
		var next [][]byte
		for _, s := range spans {
			next = append(next, bytes.Split(s, m)...)
		}
		spans = next
	}
	var out [][]byte
	for _, s := range spans {
		if len(bytes.TrimSpace(s)) >= 6 {
			out = append(out, s)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// rank scores every tool for a request and returns the matches in view
// order: recommended (Strong) first, by score.
func (x *externalSet) rank(text string, det *Detection, native bool) []ExternalMatch {
	if x == nil || len(x.tools) == 0 || strings.TrimSpace(text) == "" {
		return nil
	}
	if len(text) > MaxDetectBytes {
		text = text[:MaxDetectBytes]
	}
	p := x.rp
	norm := x.fixHintTypos(x.norm.appendNormal(nil, text))
	words := slices.Clone(norm)
	mask(words, gatewayWords)
	score := x.lexicalScores(norm, words, det)
	best := slices.Max(score)
	lexical := slices.Clone(score)
	read := x.addNameReading(text, *det, native, score, best)
	namedServer := x.addHints(norm, words, *det, score, lexical, read, best)
	// One copy of a tool many servers publish: the best one, unless its
	// server was named.
	for i := range score {
		for _, j := range x.model.copies[i] {
			if (score[j] > score[i] || score[j] == score[i] && j < i) && !namedServer[x.tools[i].Group] {
				score[i] *= 0.5
				break
			}
		}
	}
	best = slices.Max(score)
	if best < p.MinScore {
		return nil
	}
	servers := x.rankServers(score, best)
	// Sure is what held on data nobody here wrote (LiveMCPBench): a request
	// of one task whose best tool its server's name, a hint or the names'
	// reading points at. A request of several tasks, or one matched by
	// words alone, held all its tools about one time in five whatever its
	// scores, so its matches are alternatives and its tier is wider.
	one := x.tasks(words) == nil
	sureOf := func(s string) bool {
		return namedServer[s] || one && slices.ContainsFunc(x.model.server[s], func(i int) bool { return read[i] })
	}
	sure := len(servers) > 0 && sureOf(servers[0].name)
	// Not sure: one more server, and more of each.
	nServers, perServer := p.Servers, p.PerServer
	if !sure {
		nServers, perServer = nServers+1, perServer+2
	}
	servers = servers[:min(len(servers), nServers)]
	var out []ExternalMatch
	in := map[int]bool{}
	for _, s := range servers {
		// Not sure, the request found the best server but not which of
		// its tools: they all come, up to per_server, whatever their words
		// (mcpproxy-go's set: "attach facts to a node" is the memory
		// server's add_observations, which shares no word with it).
		floor := p.Candidate * best
		if !sure && s.name == servers[0].name {
			floor = 0
		}
		for _, i := range x.pickTools(s.name, score, floor, perServer) {
			if in[i] {
				continue
			}
			in[i] = true
			// the names' reading, when it read any, says which are
			// recommended; else the score beside the server's best
			strong := sureOf(s.name) && (read[i] || len(read) == 0 && score[i] >= p.Strong*s.top)
			out = append(out, ExternalMatch{Name: x.tools[i].Name, Strong: strong, Score: round3(score[i]), lex: score[i], group: s.name, tool: i})
		}
	}
	slices.SortStableFunc(out, func(a, b ExternalMatch) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// addNameReading adds to score the names' reading (external_names.go:
// verbs and objects, typos, the glossary's phrases): it is evidence like
// any other. It returns the tools the reading finds strong.
func (x *externalSet) addNameReading(text string, det Detection, native bool, score []float64, best float64) map[int]bool {
	p := x.rp
	read := map[int]bool{}
	for _, m := range x.match(text, det, native) {
		w := p.NameMedium
		if m.Strong {
			w, read[m.tool] = p.NameStrong, true
		}
		score[m.tool] += w * max(best, p.Confident)
	}
	return read
}

// lexicalScores scores the external tools' text against the request
// (words: its normal form with the gateway words blanked), each of its
// tasks adding its own score, and notes the catalog tools' scores in
// det.nativeLex.
func (x *externalSet) lexicalScores(norm, words []byte, det *Detection) []float64 {
	all := make([]float64, len(x.tools)+len(x.model.native))
	x.model.lex.score(artefacts(norm, x.withGlossary(words)), all)
	for _, span := range x.tasks(words) {
		part := make([]float64, len(all))
		x.model.lex.score(x.withGlossary(span), part)
		for i, s := range part {
			all[i] += x.rp.Clause * s
		}
	}
	score, nativeScore := all[:len(x.tools)], all[len(x.tools):]
	det.nativeLex = make(map[string]float64, len(nativeScore))
	for i, n := range x.model.native {
		det.nativeLex[n] = nativeScore[i]
	}
	return score
}

// addHints adds to score what the servers' hints say: the server's name
// or a keyword its config gives, or one of its intents detected. A server
// named with no word of its tools matched offers them as alternatives; an
// intent brings them in. It returns the servers the request names, with
// words of their tools matched.
func (x *externalSet) addHints(norm, words []byte, det Detection, score, lexical []float64, read map[int]bool, best float64) map[string]bool {
	p := x.rp
	namedServer := map[string]bool{}
	for name, g := range x.groups {
		named := hinted(norm, g.words) || hinted(norm, g.name) || nearName(norm, g.raw, words)
		intent := slices.ContainsFunc(g.intents, func(in string) bool { return slices.Contains(det.Intents, in) })
		if !named && !intent {
			continue
		}
		evidence := slices.ContainsFunc(x.model.server[name], func(i int) bool { return lexical[i] > 0 })
		for _, i := range x.model.server[name] {
			switch {
			case named && evidence:
				if lexical[i] > 0 || read[i] {
					score[i] += p.HintBoost * max(best, p.Confident)
				}
				namedServer[name] = true
			case named || intent:
				score[i] += p.IntentHint * max(best, p.Confident)
			}
		}
	}
	return namedServer
}

// rankedServer is a server with its best tool's score.
type rankedServer struct {
	name string
	top  float64
}

// rankServers orders the servers whose best tool scores within the
// ranking's share of the best: by that score, then by name.
func (x *externalSet) rankServers(score []float64, best float64) []rankedServer {
	var servers []rankedServer
	for name, ids := range x.model.server {
		top := 0.0
		for _, i := range ids {
			top = max(top, score[i])
		}
		if top >= x.rp.Server*best {
			servers = append(servers, rankedServer{name, top})
		}
	}
	slices.SortFunc(servers, func(a, b rankedServer) int {
		if c := cmp.Compare(b.top, a.top); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return servers
}

// pickTools picks a server's tools: its best ones scoring floor or more,
// up to perServer, then the tools that supply their inputs, then those
// that take what they make: a server's workflow around the request's step.
func (x *externalSet) pickTools(server string, score []float64, floor float64, perServer int) []int {
	ids := slices.Clone(x.model.server[server])
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	var picked []int
	for _, i := range ids {
		if len(picked) >= perServer || score[i] < floor {
			break
		}
		picked = append(picked, i)
	}
	for _, next := range [][][]int{x.model.suppliers, x.model.consumers} {
		for _, i := range slices.Clone(picked) {
			for _, u := range next[i] {
				if len(picked) < perServer && !slices.Contains(picked, u) {
					picked = append(picked, u)
				}
			}
		}
	}
	return picked
}

// glossDoc appends to a tool's text the English words of the glossary's
// Chinese words it holds, so an English request meets a server that
// describes its tools in Chinese (the request side is glossed in rank).
func (x *externalSet) glossDoc(doc string) string {
	norm := x.norm.appendNormal(nil, doc)
	if !hasNonASCII(norm) {
		return doc
	}
	return string(x.withGlossary(norm))
}

// artefacts appends what a request's paths and addresses are: a path is a
// file to read or write, an address a web page.
func artefacts(norm, words []byte) []byte {
	for _, sp := range deadSpans(norm, nil) {
		at := int(sp[0])
		if at >= 3 && string(norm[at-3:at]) == "://" || hasPrefix(norm[at:], "www.") {
			words = append(words, " url web page"...)
		} else {
			words = append(words, " file"...)
		}
	}
	return words
}
