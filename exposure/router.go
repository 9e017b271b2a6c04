package exposure

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Tier is the size class of a view.
type Tier string

const (
	TierRecommended Tier = "recommended" // core + the intents' tools + dependencies (about 10)
	TierExtended    Tier = "extended"    // the recommended view widened to about 20
	TierFull        Tier = "full"        // every tool
)

// Tags carried by tools in a view.
const (
	TagRecommended = "recommended"
	TagAlternative = "alternative"
	TagCore        = "core"
)

// Meta tools that are not part of the 38: find_tools is always listed,
// call_tool only in search mode.
const (
	FindTools = "find_tools"
	CallTool  = "call_tool"
)

// ViewTool is one tool of a view with its tag ("" for none).
type ViewTool struct {
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

// Decision is the routing of one request.
type Decision struct {
	Tier       Tier     `json:"tier"`
	Intents    []string `json:"intents"`
	Primary    string   `json:"primary_intent"`
	Confidence float64  `json:"confidence"`
	Lang       string   `json:"lang"`
	// Tools is the view over the catalog, in view order: recommended,
	// alternatives, dependencies, core, then the rest for wider tiers.
	Tools     []ViewTool `json:"tools"`
	Detection Detection  `json:"detection"`
}

// Names returns the tool names of the decision's view, in order.
func (d Decision) Names() []string { return names(d.Tools) }

// Recommended returns the names tagged recommended.
func (d Decision) Recommended() []string {
	var out []string
	for _, t := range d.Tools {
		if t.Tag == TagRecommended {
			out = append(out, t.Name)
		}
	}
	return out
}

func names(v []ViewTool) []string {
	out := make([]string, len(v))
	for i, t := range v {
		out[i] = t.Name
	}
	return out
}

// Config configures a Router. Zero values take the defaults.
type Config struct {
	RecommendedAt     float64  // confidence for the recommended tier (default 0.8)
	ExtendedAt        float64  // confidence for the extended tier (default 0.5)
	Core              []string // always in the view (default: the tables' core set)
	Registered        []string // tools the server has; nil means every catalog tool
	FailuresToUpgrade int      // consecutive failures that widen a session's tier (default 2)
	// NarrowAfterCalls is how many consecutive calls within one intent
	// family narrow a session that never routed to that family's tools
	// (default 1; core tools take one more; negative: never).
	NarrowAfterCalls int
	// PinCalls is how long a called tool stays pinned in the view, in calls
	// (default 10): work in progress keeps its tools across a drift.
	PinCalls       int
	RecommendedMax int     // cap of the recommended view (default 12)
	ExtendedSize   int     // size of the extended view (default 20)
	Tables         *Tables // nil: the embedded tables
	// Texts are the registered tools' own descriptions and examples. The
	// lexical index reads them in place of the catalog's text, so a tool's
	// text lives once, in the tool; catalog tools not built yet keep their
	// catalog text. Names outside the catalog are ignored (no intent):
	// tools outside the catalog are routed as external tools (SetExternal).
	Texts []ToolText
}

// ToolText is what the lexical index reads for one tool: the description
// and example requests its registration publishes.
type ToolText struct {
	Name        string
	Description string
	Examples    []string
}

// Router turns requests into decisions and views. Safe for concurrent use.
type Router struct {
	cfg        Config
	t          *Tables
	det        func() (*Detector, error) // compiled on first use: most of a cold start otherwise
	registered map[string]bool
	extra      []string // registered tools that are not in the catalog
	catalog    map[string]bool
	ext        atomic.Pointer[externalSet] // tools outside the catalog (external.go)
}

// NewRouter builds a router. Core names must be catalog tools.
func NewRouter(cfg Config) (*Router, error) {
	if cfg.RecommendedAt == 0 {
		cfg.RecommendedAt = 0.8
	}
	if cfg.ExtendedAt == 0 {
		cfg.ExtendedAt = 0.5
	}
	if cfg.ExtendedAt > cfg.RecommendedAt {
		return nil, fmt.Errorf("exposure: extended_at %.2f above recommended_at %.2f", cfg.ExtendedAt, cfg.RecommendedAt)
	}
	if cfg.FailuresToUpgrade <= 0 {
		cfg.FailuresToUpgrade = 2
	}
	if cfg.NarrowAfterCalls == 0 {
		cfg.NarrowAfterCalls = 1
	}
	if cfg.PinCalls <= 0 {
		cfg.PinCalls = 10
	}
	if cfg.RecommendedMax <= 0 {
		cfg.RecommendedMax = 12
	}
	if cfg.ExtendedSize <= 0 {
		cfg.ExtendedSize = 20
	}
	r := &Router{cfg: cfg, t: cfg.Tables, catalog: map[string]bool{}}
	if r.t == nil {
		// The embedded tables were validated once when loaded (loadEmbedded).
		if r.t = sharedDefaultTables(); defaultErr != nil {
			return nil, fmt.Errorf("exposure: embedded tables: %w", defaultErr)
		}
	} else if err := r.t.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.Texts) > 0 {
		// Texts change only descriptions and examples, which Validate does not read.
		r.t = r.t.withTexts(cfg.Texts)
	}
	r.det = sync.OnceValues(func() (*Detector, error) { return NewDetector(r.t) })
	for _, ti := range r.t.Catalog {
		r.catalog[ti.Name] = true
	}
	if len(r.cfg.Core) == 0 {
		r.cfg.Core = r.t.Core
	}
	for _, c := range r.cfg.Core {
		if !r.catalog[c] {
			return nil, fmt.Errorf("exposure: core tool %q is not in the catalog", c)
		}
	}
	if cfg.Registered != nil {
		r.registered = map[string]bool{}
		for _, n := range cfg.Registered {
			r.registered[n] = true
			if !r.catalog[n] && n != FindTools && n != CallTool {
				r.extra = append(r.extra, n)
			}
		}
	}
	return r, nil
}

// Tables returns the router's tables (read only).
func (r *Router) Tables() *Tables { return r.t }

// Detector returns the router's detector.
// The detector (keyword automaton, lexical index) is compiled on the first
// call that needs it, so a session that never routes never pays for it.
// Nil when the tables do not compile (see Ready).
func (r *Router) Detector() *Detector {
	d, _ := r.det()
	return d
}

// Ready compiles the detector now and returns what it found wrong with the
// tables that Validate does not see (a keyword that normalises to nothing).
func (r *Router) Ready() error {
	_, err := r.det()
	return err
}

// IsRegistered reports whether the server has the tool.
func (r *Router) IsRegistered(name string) bool {
	if r.isExternal(name) {
		return true
	}
	if r.registered == nil {
		return r.catalog[name]
	}
	return r.registered[name]
}

// TierFor maps a confidence to a tier.
func (r *Router) TierFor(confidence float64) Tier {
	switch {
	case confidence >= r.cfg.RecommendedAt:
		return TierRecommended
	case confidence >= r.cfg.ExtendedAt:
		return TierExtended
	}
	return TierFull
}

// Route detects and decides.
// Tables that do not compile were refused by Ready at start (the server
// calls it for a tables file; tests for the embedded ones); if it was not
// called, nothing is detected and views stay at the full tier.
func (r *Router) Route(text string) Decision {
	d, err := r.det()
	if err != nil {
		return r.Decide(Detection{Lang: Language(text)})
	}
	det := d.Detect(text)
	r.matchExternal(text, &det)
	return r.Decide(det)
}

// Decide turns a detection into a decision.
func (r *Router) Decide(det Detection) Decision {
	tier := r.TierFor(det.Confidence)
	if len(det.Intents) == 0 {
		tier = TierFull
	}
	conf := det.Confidence
	// External tools the request points at narrow a decision the catalog
	// alone leaves wide ("remember that Alice works at Acme" names no
	// native intent but the memory server's tools).
	if ec := r.externalConfidence(det.External); ec > 0 {
		if et := r.TierFor(ec); tierRank(et) < tierRank(tier) {
			tier, conf = et, max(conf, ec)
		}
		// Configured servers' tools that outscore the native tools make a
		// decision unsure, even when the request names their server: on
		// the public benchmarks (LiveMCPBench, mcpproxy-go's set) such
		// "sure" views held every needed tool 7 times in 34 and 13 in 20,
		// far from the 90% a recommended view must hold. Unsure, the
		// whole view (alternatives and each server's neighbours) is
		// offered and a tiered list grows by it.
		if top := det.External[0]; tier == TierRecommended && top.Score > r.t.Ranking.Weights.NativeShare*maxValue(det.nativeLex) {
			tier, conf = TierExtended, min(conf, ec)
		}
	}
	return Decision{Tier: tier, Intents: det.Intents, Primary: det.Primary, Confidence: conf,
		Lang: det.Lang, Tools: r.ViewAt(tier, det), Detection: det}
}

// decideAt returns d at another tier, its view rebuilt.
func (r *Router) decideAt(tier Tier, d Decision) Decision {
	d.Tier = tier
	d.Tools = r.ViewAt(tier, d.Detection)
	return d
}

func tierRank(t Tier) int {
	switch t {
	case TierRecommended:
		return 0
	case TierExtended:
		return 1
	}
	return 2
}

// viewBuilder collects an ordered, tagged view without duplicates.
type viewBuilder struct {
	rec, alt, dep, core, rest []string
	in                        map[string]bool
}

func (b *viewBuilder) add(list *[]string, n string) bool {
	if b.in[n] {
		return false
	}
	b.in[n] = true
	*list = append(*list, n)
	return true
}

func (b *viewBuilder) size() int { return len(b.in) }

// ViewAt builds the catalog view of a tier for a detection: recommended
// tools first, then alternatives, dependencies, core, and for wider tiers
// the rest (related intents' tools and the lexical ranker's picks for
// extended, every catalog tool for full).
func (r *Router) ViewAt(tier Tier, det Detection) []ViewTool {
	b := &viewBuilder{in: map[string]bool{}}
	core := r.cfg.Core
	alts := r.addRecommended(b, det)
	// Tools named by a medium or strong word of an intent that was not
	// selected ("PDF" in a request about a contract) come next: cheap recall.
	var named []string
	for i, t := range det.Tools {
		if i < len(det.toolEv) && det.toolEv[i] >= r.t.Weights.Medium {
			named = append(named, t)
		}
	}
	// Artefacts (an output format, a file's extension, a URL) name the
	// tools that make or read them; they come before the intent's rest.
	alts = slices.Concat(det.Signals, named, alts)
	limit := r.cfg.RecommendedMax - len(core)
	for _, c := range core {
		if b.in[c] {
			limit++
		}
	}
	for _, t := range alts {
		if tier == TierRecommended && b.size() >= limit {
			break
		}
		b.add(&b.alt, t)
	}
	for _, c := range core {
		b.add(&b.core, c)
	}
	extRec, extAlt, extRest := r.externalView(tier, det)
	r.addRest(b, tier, det)
	out := b.view(core, extRec, extAlt, extRest)
	if tier != TierFull && det.nativeLex != nil {
		out = r.byScore(out, det)
	}
	return out
}

// addRecommended adds the recommended tools and their dependencies: per
// intent, the tools its words point at, else the intent's recommended
// list, and every clause's best tool. It returns the primary intent's
// tools, the alternatives.
func (r *Router) addRecommended(b *viewBuilder, det Detection) (alts []string) {
	for k, in := range det.Intents {
		p := r.t.Priority[in]
		universe := slices.Concat(p.Recommended, p.Alternative, r.t.IntentTools[in])
		var hinted []string
		for _, t := range det.Tools {
			if slices.Contains(universe, t) && !slices.Contains(hinted, t) {
				hinted = append(hinted, t)
			}
		}
		if len(hinted) == 0 {
			hinted = p.Recommended
		}
		for _, t := range hinted {
			b.add(&b.rec, t)
		}
		// Alternatives: the rest of the primary intent's tools. Secondary
		// intents add only what their words point at, keeping the view
		// small; the extended tier brings the rest.
		if k == 0 {
			alts = append(alts, slices.Concat(p.Recommended, p.Alternative, r.t.IntentTools[in])...)
		}
	}
	// A composite request: every clause's best tool is recommended too.
	for _, c := range det.Clauses {
		b.add(&b.rec, c.Tool)
	}
	for _, t := range slices.Clone(b.rec) {
		for _, d := range r.t.Dependencies[t] {
			b.add(&b.dep, d)
		}
	}
	return alts
}

// addRest adds the wider tiers' rest: for extended (when no configured
// server widens it, see externalView) related intents' tools, the lexical
// ranker's picks and the intents' alternatives, up to the extended size;
// for full every catalog tool.
func (r *Router) addRest(b *viewBuilder, tier Tier, det Detection) {
	switch tier {
	case TierExtended:
		if len(det.External) > 0 {
			// the configured servers' candidates widen it (externalView)
			break
		}
		var wider []string
		for _, in := range det.Intents {
			for _, rel := range r.t.Related[in] {
				wider = append(wider, r.t.Priority[rel].Recommended...)
			}
		}
		wider = append(wider, det.lexRank...)
		for _, in := range det.Intents {
			wider = append(wider, r.t.Priority[in].Alternative...)
		}
		for _, t := range wider {
			if b.size() >= r.cfg.ExtendedSize {
				break
			}
			b.add(&b.rest, t)
		}
	case TierFull:
		for _, ti := range r.t.Catalog {
			b.add(&b.rest, ti.Name)
		}
	}
}

// view tags the builder's lists, with the external tools beside the
// catalog's recommended, alternatives and rest.
func (b *viewBuilder) view(core, extRec, extAlt, extRest []string) []ViewTool {
	out := make([]ViewTool, 0, b.size()+len(extRec)+len(extAlt)+len(extRest))
	for _, n := range slices.Concat(b.rec, extRec) {
		out = append(out, ViewTool{n, TagRecommended})
	}
	for _, n := range slices.Concat(b.alt, extAlt) {
		out = append(out, ViewTool{n, TagAlternative})
	}
	for _, n := range b.dep {
		out = append(out, ViewTool{n, TagAlternative})
	}
	for _, n := range b.core {
		out = append(out, ViewTool{n, TagCore})
	}
	for _, n := range b.rest {
		tag := ""
		if slices.Contains(core, n) {
			tag = TagCore
		}
		out = append(out, ViewTool{n, tag})
	}
	for _, n := range extRest {
		out = append(out, ViewTool{Name: n})
	}
	return out
}

// byScore orders a view with external tools by one score: the ranking
// model's for every tool, native or external, the intent matrix's choice
// adding its evidence to the native tools it recommends. Slots go by that
// score: past the ranking's view_max the lowest go, core tools aside.
func (r *Router) byScore(view []ViewTool, det Detection) []ViewTool {
	ext := map[string]float64{}
	best := 0.0
	for _, m := range det.External {
		ext[m.Name] = m.Score
		best = max(best, m.Score)
	}
	score := func(v ViewTool) float64 {
		if s, ok := ext[v.Name]; ok {
			return s
		}
		s := det.nativeLex[v.Name]
		if v.Tag == TagRecommended {
			s += r.t.Ranking.Weights.IntentEvidence * det.Confidence * max(best, r.t.Ranking.Weights.Confident)
		}
		return s
	}
	slices.SortStableFunc(view, func(a, b ViewTool) int { return cmp.Compare(score(b), score(a)) })
	keep := r.t.Ranking.Weights.ViewMax
	for _, v := range view {
		if slices.Contains(r.cfg.Core, v.Name) {
			keep--
		}
	}
	return slices.DeleteFunc(view, func(v ViewTool) bool {
		if slices.Contains(r.cfg.Core, v.Name) {
			return false
		}
		keep--
		return keep < 0
	})
}

// Offered keeps the registered tools of a catalog view, in order, and in the
// full tier appends registered tools that are not in the catalog.
func (r *Router) Offered(view []ViewTool, tier Tier) []ViewTool {
	out := make([]ViewTool, 0, len(view)+len(r.extra))
	for _, v := range view {
		if r.IsRegistered(v.Name) {
			out = append(out, v)
		}
	}
	if tier == TierFull {
		for _, n := range r.extra {
			out = append(out, ViewTool{Name: n})
		}
	}
	return out
}

// Tag returns a copy of description with the tag's label in front:
// "[recommended] ..." or, for lang "zh", "[推荐] ...". An empty or unknown
// tag returns description unchanged.
func Tag(description, tag, lang string) string {
	label := tagLabel(tag, lang)
	if label == "" {
		return description
	}
	return label + " " + description
}

func tagLabel(tag, lang string) string {
	zh := strings.HasPrefix(lang, "zh")
	switch tag {
	case TagRecommended:
		if zh {
			return "[推荐]"
		}
		return "[recommended]"
	case TagAlternative:
		if zh {
			return "[备选]"
		}
		return "[alternative]"
	case TagCore:
		if zh {
			return "[核心]"
		}
		return "[core]"
	}
	return ""
}

func maxValue(m map[string]float64) float64 {
	best := 0.0
	for _, v := range m {
		best = max(best, v)
	}
	return best
}
