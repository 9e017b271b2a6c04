package exposure

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Exposure modes.
const (
	ModeTiered = "tiered" // views follow routing when the change pays; the first view is search's
	ModeFull   = "full"   // every tool: a constant list
	ModeSearch = "search" // core + find_tools + call_tool: a constant view
	ModeAuto   = "auto"   // chosen per client by ModeForClient
)

// Transition is one change of a session's view.
type Transition struct {
	Time   time.Time `json:"time"`
	From   Tier      `json:"from"`
	To     Tier      `json:"to"`
	Reason string    `json:"reason"`
}

// SessionState is a snapshot of a session, for logs and the
// clawbridge://session/exposure resource.
type SessionState struct {
	Mode       string   `json:"mode"`
	Tier       Tier     `json:"tier"`
	Intents    []string `json:"intents"`
	Primary    string   `json:"primary_intent"`
	Confidence float64  `json:"confidence"`
	Lang       string   `json:"lang"`
	Pinned     []string `json:"pinned"`
	Failures   int      `json:"consecutive_failures"`
	// Calls counts the calls the session made; Streak the consecutive ones
	// within StreakFamily (core tools neither count nor break it);
	// NarrowedTo is the family the calls narrowed the view to, if any.
	Calls        int          `json:"calls"`
	StreakFamily string       `json:"streak_family,omitempty"`
	Streak       int          `json:"streak,omitempty"`
	NarrowedTo   string       `json:"narrowed_to,omitempty"`
	ByRequest    bool         `json:"view_by_request"` // find_tools or the task prompt set the view
	View         []ViewTool   `json:"view"`
	History      []Transition `json:"history"`
}

// maxHistory bounds a session's kept transitions.
const maxHistory = 100

// Session is the exposure state of one client session. Safe for concurrent
// use. Methods that report changed=true mean the view changed and the
// session should get notifications/tools/list_changed.
type Session struct {
	mu       sync.Mutex
	r        *Router
	mode     string
	tier     Tier
	det      Detection
	request  string         // the last routed request: external matches are redone from it
	pinned   []string       // tools called within the last PinCalls calls, first called first
	lastUsed map[string]int // tool -> the call number that last used it
	calls    int
	failures int
	// Evidence from calls: the family of the current run of consecutive
	// calls, its length and tools, and the family the view was narrowed to.
	streakFam   string
	streak      int
	streakTools []string
	streakOut   bool // the run began with a call outside the view
	// The current run of consecutive core calls and its tools: a session
	// that only ever calls core tools is evidence too, weaker (core tools
	// serve every task), so it takes one call more to narrow.
	coreRun   int
	coreTools []string
	coreTier  Tier // the tier a run of core calls narrowed the view to
	narrowed  string
	routed    bool // find_tools or the task prompt set the view: calls no longer narrow it
	history   []Transition
	view      []ViewTool // the list the client holds
	lang      string     // the language the list's tags are written in, fixed until the list changes
	version   uint64     // bumped whenever the list changes
	// What the list costs to keep or change (cost.go): the tools the
	// session called (a tiered list keeps them), the model requests seen
	// and an estimate of the history's tokens; shrink is a smaller list
	// that did not pay yet, tried again as the session goes on.
	used   []string
	steps  int
	hist   int
	shrink []ViewTool
	// Now is the clock (tests replace it).
	Now func() time.Time
}

// NewSession starts a session in mode (tiered, full or search; auto and
// unknown modes act as tiered: resolve auto with ModeForClient first).
//
// A tiered session's first list is search's (core + find_tools +
// call_tool), in the canonical order: before any request the session knows
// nothing to route by, and the full list would be written once at full
// price and dropped at the first routing (the issue 28 bench: 20k tokens
// written, then a rewrite one step later). Core serves the steps every
// task takes, find_tools routes, and call_tool reaches every other tool, so
// a client that never re-reads the list loses nothing.
func (r *Router) NewSession(mode string) *Session {
	switch mode {
	case ModeTiered, ModeFull, ModeSearch:
	default:
		mode = ModeTiered
	}
	s := &Session{r: r, mode: mode, tier: TierFull, lastUsed: map[string]int{}, Now: time.Now}
	s.view, s.lang = s.firstList(), s.langLocked()
	return s
}

// firstList is a new session's list (lock held or not yet shared): a
// tiered session's is search's, byte for byte, so both share one rendered
// list and a host's cached prefix.
func (s *Session) firstList() []ViewTool {
	if s.mode == ModeTiered {
		return s.searchView()
	}
	return s.build()
}

// searchView is search mode's constant list: core, find_tools, call_tool.
func (s *Session) searchView() []ViewTool {
	var v []ViewTool
	for _, c := range s.r.cfg.Core {
		if s.r.IsRegistered(c) {
			v = append(v, ViewTool{Name: c, Tag: TagCore})
		}
	}
	return append(v, ViewTool{Name: FindTools}, ViewTool{Name: CallTool})
}

// Mode returns the session's mode.
func (s *Session) Mode() string { return s.mode }

// build computes the view the routing state asks for (lock held): in
// tiered mode the ideal the list moves towards when a change pays.
func (s *Session) build() []ViewTool {
	var v []ViewTool
	switch s.mode {
	case ModeSearch:
		return s.searchView()
	case ModeFull:
		// The same list whatever was routed: routing's tags and order go
		// into find_tools' answer, not into a list the host caches (a
		// changed list rewrites the whole cached prompt after it).
		v = s.r.Offered(s.r.ViewAt(TierFull, Detection{}), TierFull)
	default:
		v = s.r.Offered(s.r.ViewAt(s.tier, s.det), s.tier)
		for _, p := range s.pinned {
			// An external tool since held or dropped leaves the view even
			// when it was called: IsRegistered is false for it.
			if s.r.IsRegistered(p) && !slices.ContainsFunc(v, func(x ViewTool) bool { return x.Name == p }) {
				v = append(v, ViewTool{Name: p})
			}
		}
	}
	return append(v, ViewTool{Name: FindTools})
}

// refresh brings the list to the session's state and reports whether it
// changed (lock held). need are tools the list must hold now (a routed
// view, a called tool, a widening after failures): a tiered list grows
// for them at once, since a missing tool costs more than a rewrite. Any
// other change of a tiered list is a shrink, made only when it pays
// (tieredList). A change bumps the version, which caches of the rendered
// list key on; the tags' language is fixed with the list, so the same list
// renders to the same bytes until it changes.
func (s *Session) refresh(need ...string) bool {
	nv := s.build()
	if s.mode == ModeTiered {
		nv = s.tieredList(nv, need)
	}
	if nv == nil || slices.Equal(nv, s.view) {
		return false
	}
	s.view, s.shrink = nv, nil
	s.lang = s.langLocked()
	s.version++
	return true
}

// tieredList returns the list a tiered session moves to from its current
// one towards ideal, or nil to keep it (lock held):
//   - a tool in need and not in the list, or a tool in the list that is no
//     longer offered: the list is rewritten now, to the current list's
//     tools that ideal still holds, plus need, the tools the session
//     called and the meta tools. Only what is needed comes in: no tool is
//     added "just in case";
//   - otherwise the list may shrink to that set without need, when the
//     saving over the requests still to come exceeds the rewrite
//     (ShrinkPays; the requests to come are estimated as many as those
//     seen). A shrink that does not pay yet is kept and tried again.
func (s *Session) tieredList(ideal []ViewTool, need []string) []ViewTool {
	in := func(v []ViewTool, name string) bool {
		return slices.ContainsFunc(v, func(t ViewTool) bool { return t.Name == name })
	}
	forced := false
	for _, n := range need {
		if !in(s.view, n) && (s.r.IsRegistered(n) || n == FindTools) {
			forced = true
		}
	}
	for _, t := range s.view {
		if t.Name != FindTools && t.Name != CallTool && !s.r.IsRegistered(t.Name) {
			forced = true
		}
	}
	// A tool the session called is needed too: one that left the list
	// while it was not offered (a downstream tool held, then approved)
	// comes back as soon as it is offered again.
	for _, n := range s.used {
		if !in(s.view, n) && s.r.IsRegistered(n) {
			forced = true
		}
	}
	var keep []string
	add := func(n string) {
		if (s.r.IsRegistered(n) || n == FindTools || n == CallTool) && !slices.Contains(keep, n) {
			keep = append(keep, n)
		}
	}
	for _, t := range s.view {
		if in(ideal, t.Name) {
			add(t.Name)
		}
	}
	if forced {
		// The host writes the whole prompt again anyway: the view the
		// routing or the calls' evidence asks for comes in with the needed
		// tool (a listed tool costs a cached read per request, a later miss
		// another rewrite); the full tier does not (no evidence yet).
		if s.tier != TierFull {
			for _, t := range ideal {
				add(t.Name)
			}
		}
		for _, n := range need {
			add(n)
		}
	}
	for _, n := range s.used {
		add(n)
	}
	add(FindTools)
	add(CallTool)
	var next []ViewTool
	for _, n := range keep {
		tag := ""
		if i := slices.IndexFunc(ideal, func(t ViewTool) bool { return t.Name == n }); i >= 0 {
			tag = ideal[i].Tag
		}
		next = append(next, ViewTool{Name: n, Tag: tag})
	}
	next = s.r.canonical(next)
	if forced {
		return next
	}
	if len(next) >= len(s.view) {
		s.shrink = nil
		return nil
	}
	s.shrink = next
	if !s.shrinkPays() {
		return nil
	}
	return next
}

// Cost-model settings of the shrink decision: Anthropic's prices (the
// dearest rewrite: 12.5× a cached read) and a 3k-token system prompt.
const (
	shrinkSystem = 3000
	// History estimates when the server does not report a result's size.
	requestCallTokens   = 80  // the user's text and the model's call
	defaultResultTokens = 500 // a result of unknown size
	findToolsTokens     = 400 // find_tools' answer
)

// recommended names a view's tools tagged recommended: what a routing
// says the task needs. The rest of a routed view (alternatives,
// dependencies) stays in find_tools' answer and within call_tool's reach
// until the session calls it.
func recommended(v []ViewTool) []string {
	var out []string
	for _, t := range v {
		if t.Tag == TagRecommended {
			out = append(out, t.Name)
		}
	}
	return out
}

// shrinkPays reports whether moving to s.shrink pays now (lock held).
func (s *Session) shrinkPays() bool {
	if s.shrink == nil {
		return false
	}
	return ShrinkPays(s.r.EstimateViewTokens(names(s.view)), s.r.EstimateViewTokens(names(s.shrink)),
		shrinkSystem, s.hist, max(s.steps, 1), AnthropicPricing)
}

// canonical orders a list by the catalog (then other tools by name, then
// find_tools and call_tool), so the same tools are always listed in the
// same order whatever routed them.
func (r *Router) canonical(v []ViewTool) []ViewTool {
	rank := func(name string) (int, string) {
		switch name {
		case FindTools:
			return 1 << 20, ""
		case CallTool:
			return 1<<20 + 1, ""
		}
		for i, ti := range r.t.Catalog {
			if ti.Name == name {
				return i, ""
			}
		}
		return 1 << 19, name
	}
	slices.SortStableFunc(v, func(a, b ViewTool) int {
		ra, na := rank(a.Name)
		rb, nb := rank(b.Name)
		if ra != rb {
			return ra - rb
		}
		return strings.Compare(na, nb)
	})
	return v
}

func (s *Session) record(from, to Tier, reason string) {
	s.history = append(s.history, Transition{Time: s.Now(), From: from, To: to, Reason: reason})
	if len(s.history) > maxHistory {
		s.history = slices.Delete(s.history, 0, len(s.history)-maxHistory)
	}
}

// Route routes a request (find_tools, the task prompt) and sets the tier
// from the decision. In search mode the view stays constant.
func (s *Session) Route(request string) (Decision, bool) {
	d := s.r.Route(request)
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.tier
	// A request about another task replaces the intents (drift): they do
	// not pile up. Recently used tools stay pinned (PinCalls) so work in
	// progress keeps them.
	drift := s.routed && len(s.det.Intents) > 0 && len(d.Intents) > 0 && !slices.Equal(s.det.Intents, d.Intents)
	prev := s.det.Intents
	// The session's evidence agrees: a request at the extended tier's
	// confidence whose primary intent is the one the session is already on
	// (routed or narrowed by calls, and not widened since) gets the
	// recommended tier, as call arguments that agree with their tool do.
	agree := ""
	if d.Tier == TierExtended && d.Primary != "" && d.Primary == s.det.Primary && s.tier == TierRecommended {
		d = s.r.decideAt(TierRecommended, d)
		agree = fmt.Sprintf(" (the session is on %s: recommended tier)", d.Primary)
	}
	s.det = d.Detection
	s.request = request
	s.failures = 0
	s.routed = true
	s.narrowed, s.coreTier = "", ""
	if s.mode == ModeTiered {
		s.tier = d.Tier
	}
	s.steps++
	s.hist += requestCallTokens + findToolsTokens
	// What the routing says is needed now: a sure decision's recommended
	// tools; an unsure one's (the extended tier) whole view, which is what
	// find_tools answered — its downstream matches are alternatives and
	// would otherwise never be listed.
	view := s.build()
	need := recommended(view)
	if d.Tier == TierExtended {
		need = names(view)
	}
	changed := s.refresh(need...)
	intents := "none"
	if len(d.Intents) > 0 {
		intents = strings.Join(d.Intents, ",")
	}
	reason := fmt.Sprintf("routed %q: intents %s, confidence %.2f", clip(request, 80), intents, d.Confidence)
	reason += agree
	if drift {
		reason += fmt.Sprintf(" (drift: replaces %s; pinned %s)", strings.Join(prev, ","), strings.Join(s.pinned, ","))
	}
	s.record(from, s.tier, reason)
	return d, changed
}

// Refresh rebuilds the view after the router's external tools changed: the
// last routed request is matched again against the new set, and a tool no
// longer offered (held, removed) leaves the view. changed says whether the
// view changed (the session should get list_changed).
func (s *Session) Refresh() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.request != "" {
		s.r.matchExternal(s.request, &s.det)
		// What the last routing recommends is needed again.
		return s.refresh(recommended(s.build())...)
	}
	return s.refresh()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// CallStarted accounts for a call about to run; calls are evidence too.
//   - A registered tool outside the current view still runs (guide, not
//     restrict) and widens the view: every called tool is pinned for the
//     next PinCalls calls, and a pin not renewed by then is dropped.
//   - A call's arguments (a path's extension, a URL, a query, a text) are
//     detected as a request is: a confident detection, or one at the
//     extended tier's confidence that names the called tool's own intent,
//     narrows a session that never routed at once, to the view that
//     request would get. A core tool's arguments count only by the
//     artefacts they name (an extension, a URL): its words describe a step.
//   - Otherwise the run rules (narrowByRun): NarrowAfterCalls consecutive
//     calls within one intent family narrow to that family's tools, and a
//     later run that begins outside the view moves the view to its family
//     (drift by calls: the old family's tools stay pinned); a session that
//     only calls core tools narrows one tier per call, extended first.
//   - find_tools and the task prompt take precedence: once the session
//     routed, calls only pin.
//
// All of one call's changes are one transition with its reasons and one
// changed=true (one list_changed).
func (s *Session) CallStarted(tool string, args map[string]any) bool {
	if s.mode != ModeTiered || !s.r.IsRegistered(tool) || tool == FindTools || tool == CallTool {
		return false
	}
	argDet := s.detectArguments(args)
	core := slices.Contains(s.r.cfg.Core, tool)
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.tier
	var reasons []string
	outside := !slices.ContainsFunc(s.view, func(v ViewTool) bool { return v.Name == tool })
	if outside {
		reasons = append(reasons, fmt.Sprintf("pinned %s: called outside the view", tool))
	}
	dirty, expired := s.pinCall(tool, outside)
	if len(expired) > 0 {
		reasons = append(reasons, fmt.Sprintf("unpinned %s: not called in the last %d calls", strings.Join(expired, ","), s.r.cfg.PinCalls))
	}
	n := s.r.cfg.NarrowAfterCalls
	fam, intent := s.familyOf(tool)
	s.countRun(tool, fam, core, outside)
	// Arguments say more than a tool's name: when they narrow, the run
	// rules wait. A session narrowed by calls follows its calls to an
	// intent outside its view (drift by calls): the new family replaces the
	// old, whose tools stay pinned; widening after failures stays.
	reason := ""
	if !s.routed {
		if reason = s.narrowByArguments(tool, core, argDet); reason == "" && n > 0 {
			reason = s.narrowByRun(fam, intent, core, n)
		}
	}
	if reason != "" {
		dirty = true
		reasons = append(reasons, reason)
	}
	if !dirty {
		return s.shrinkNow()
	}
	var need []string
	if outside {
		need = []string{tool}
	}
	changed := s.refresh(need...)
	if len(reasons) > 0 && (changed || from != s.tier || len(expired) > 0) {
		s.record(from, s.tier, strings.Join(reasons, "; "))
	}
	return changed
}

// detectArguments detects a call's arguments as a request. It runs before
// the lock is taken: detection is the slow part, and it reads nothing of
// the session. Only a session that could still narrow pays for the
// detection (narrowByArguments checks again under the lock).
func (s *Session) detectArguments(args map[string]any) Detection {
	s.mu.Lock()
	mayNarrow := s.argumentsMayNarrow()
	s.mu.Unlock()
	var argDet Detection
	if mayNarrow && len(args) > 0 {
		if d, err := s.r.det(); err == nil {
			if text := argumentText(args); text != "" {
				argDet = d.Detect(text)
			}
		}
	}
	return argDet
}

// pinCall counts the call and pins its tool, dropping the pins not renewed
// in the last PinCalls calls (expired). dirty says whether anything the
// view is built from changed; most calls (a pinned tool called again)
// change nothing, and rebuilding the view would be most of CallStarted's
// cost (lock held).
func (s *Session) pinCall(tool string, outside bool) (dirty bool, expired []string) {
	s.calls++
	s.steps++
	s.hist += requestCallTokens
	s.lastUsed[tool] = s.calls
	if !slices.Contains(s.used, tool) {
		s.used = append(s.used, tool)
		dirty = dirty || outside
	}
	if !slices.Contains(s.pinned, tool) {
		s.pinned = append(s.pinned, tool)
		dirty = true
	}
	s.pinned = slices.DeleteFunc(s.pinned, func(p string) bool {
		old := s.calls-s.lastUsed[p] >= s.r.cfg.PinCalls
		if old {
			expired = append(expired, p)
		}
		return old
	})
	if len(expired) > 0 {
		dirty = true
	}
	return dirty, expired
}

// countRun counts the call in the current run: of its intent family fam,
// or of core tools (lock held).
func (s *Session) countRun(tool, fam string, core, outside bool) {
	if fam != "" && !core {
		s.coreRun, s.coreTools = 0, nil
		if fam != s.streakFam {
			s.streakFam, s.streak, s.streakTools, s.streakOut = fam, 0, nil, outside
		}
		s.streak++
		if !slices.Contains(s.streakTools, tool) {
			s.streakTools = append(s.streakTools, tool)
		}
	} else if core {
		s.coreRun++
		if !slices.Contains(s.coreTools, tool) {
			s.coreTools = append(s.coreTools, tool)
		}
	}
}

// argumentsMayNarrow reports whether call arguments may still narrow the
// view: the session never routed and holds the full tier, or the tier a run
// of core calls narrowed it to (lock held).
func (s *Session) argumentsMayNarrow() bool {
	return !s.routed && (s.tier == TierFull && s.narrowed == "" || s.coreTier != "" && s.tier == s.coreTier)
}

// narrowByRun applies the run rules of a session that never routed and
// returns the reason, or "" (lock held):
//   - n consecutive calls within one family (core calls neither count nor
//     break the run) narrow to the recommended tier of their intent when
//     every call shares it, else to the family's extended tier; in a
//     session narrowed before, only when the run began outside the view;
//   - a session that only called core tools is weaker evidence (they serve
//     every task): n such calls narrow to the extended tier of the intent
//     most of them share, n+1 to its recommended tier.
func (s *Session) narrowByRun(fam, intent string, core bool, n int) string {
	if !core && fam != "" {
		if s.streak < n || fam == s.narrowed && s.coreTier == "" {
			return ""
		}
		prev := s.narrowed
		// Narrowed before: a view widened to full after failures stays
		// wide, and past a core run's view only a run that began outside
		// the view moves it (a pinned tool called again does not).
		if prev != "" && (s.tier == TierFull || s.coreTier == "" && !s.streakOut) {
			return ""
		}
		s.narrowTo(fam, intent)
		s.coreTier = ""
		reason := fmt.Sprintf("%d consecutive calls in family %s (%s) and no routing: narrowed to its %s tier",
			s.streak, fam, strings.Join(s.streakTools, ","), s.tier)
		if prev != "" {
			reason += fmt.Sprintf(" (drift: replaces %s; pinned %s)", prev, strings.Join(s.pinned, ","))
		}
		return reason
	}
	if !core || s.streakFam != "" {
		return ""
	}
	want := TierFull
	switch {
	case s.coreRun >= n+1:
		want = TierRecommended
	case s.coreRun >= n:
		want = TierExtended
	}
	may := s.tier == TierFull && s.narrowed == "" || s.coreTier != "" && s.tier == s.coreTier
	if !may || tierRank(want) >= tierRank(s.tier) {
		return ""
	}
	s.narrowToCore(want)
	return fmt.Sprintf("%d consecutive core calls (%s) and no routing: narrowed to the %s tier of %s",
		s.coreRun, strings.Join(s.coreTools, ","), s.tier, s.det.Primary)
}

// familyOf returns the intent family of a catalog tool and its first intent.
func (s *Session) familyOf(tool string) (string, string) {
	ti, ok := s.r.t.Tool(tool)
	if !ok || len(ti.Intents) == 0 {
		return "", ""
	}
	return s.r.t.FamilyOf(ti.Intents[0]), ti.Intents[0]
}

// narrowTo sets the view to a family's extended tier: the streak's tools
// recommended, their intents first, then the family's others (lock held).
func (s *Session) narrowTo(fam, intent string) {
	intents := []string{intent}
	for _, t := range s.streakTools {
		if _, in := s.familyOf(t); in != "" && !slices.Contains(intents, in) {
			intents = append(intents, in)
		}
	}
	for _, f := range s.r.t.Families {
		if f.Name != fam {
			continue
		}
		for _, in := range f.Intents {
			if len(intents) < 3 && !slices.Contains(intents, in) {
				intents = append(intents, in)
			}
		}
	}
	s.det = Detection{Intents: intents, Primary: intents[0], Tools: slices.Clone(s.streakTools), Lang: s.langLocked()}
	s.tier = TierExtended
	// Evidence agrees: every call of the run was within one intent. Its
	// recommended tier holds that intent's tools and the core; the rest of
	// the family is one call away (a call outside the view still runs).
	if len(intents) > 0 && s.streakIntentsAgree(intent) {
		s.det.Intents = []string{intent}
		s.tier = TierRecommended
	}
	s.narrowed = fam
}

// narrowToCore sets the view of a session that only called core tools to
// the recommended tier of the intent most of them share (the first called
// tool's on a tie): file and shell are file work, search and web_fetch
// research. The called tools are recommended (lock held).
func (s *Session) narrowToCore(tier Tier) {
	count := map[string]int{}
	var order []string
	for _, t := range s.coreTools {
		ti, _ := s.r.t.Tool(t)
		for _, in := range ti.Intents {
			if count[in] == 0 {
				order = append(order, in)
			}
			count[in]++
		}
	}
	intent := ""
	for _, in := range order {
		if intent == "" || count[in] > count[intent] {
			intent = in
		}
	}
	s.det = Detection{Intents: []string{intent}, Primary: intent, Tools: slices.Clone(s.coreTools), Lang: s.langLocked()}
	s.tier, s.coreTier = tier, tier
	s.narrowed = s.r.t.FamilyOf(intent)
}

// streakIntentsAgree reports whether every tool of the current run has
// intent among its intents (lock held).
func (s *Session) streakIntentsAgree(intent string) bool {
	for _, t := range s.streakTools {
		ti, ok := s.r.t.Tool(t)
		if !ok || !slices.Contains(ti.Intents, intent) {
			return false
		}
	}
	return true
}

// narrowByArguments narrows a session that never routed and still holds
// the full tier when a non-core tool's call arguments (a path's extension, a URL, a
// query or text) are detected as routing would detect a request: with the
// recommended tier's confidence, or with the extended tier's when the
// detected intent is one of the called tool's own (the call and its
// arguments agree). The view is then the one that request would get, the
// called tool recommended. Returns the reason, or "" (lock held).
func (s *Session) narrowByArguments(tool string, core bool, det Detection) string {
	if !s.argumentsMayNarrow() || len(det.Intents) == 0 {
		return ""
	}
	tier := s.r.TierFor(det.Confidence)
	agree := false
	if ti, ok := s.r.t.Tool(tool); ok {
		agree = slices.Contains(ti.Intents, det.Primary)
	}
	switch {
	case core && (len(det.Signals) == 0 || tier == TierFull):
		// A core tool's words describe a step; only the artefacts its
		// arguments name (a file's extension, a URL) say what the task is.
		return ""
	case core:
		tier = TierRecommended
	case tier == TierRecommended:
	case tier == TierExtended && agree:
		tier = TierRecommended
	default:
		return ""
	}
	if !core && !slices.Contains(det.Tools, tool) {
		det.Tools = append([]string{tool}, det.Tools...)
	}
	s.det = det
	s.tier, s.coreTier = tier, ""
	s.narrowed = s.r.t.FamilyOf(det.Primary)
	return fmt.Sprintf("arguments of %s point at %s (confidence %.2f) and no routing: narrowed to the %s tier",
		tool, strings.Join(det.Intents, ","), det.Confidence, tier)
}

// maxArgumentText bounds the argument text detected for one call.
const maxArgumentText = 1024

// argumentText joins a call's string arguments (in nested lists and
// objects too) for detection, in key order so detection stays
// deterministic. Secrets (password, token, key, secret fields) are left
// out; the text is never logged or recorded.
func argumentText(args map[string]any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		if b.Len() >= maxArgumentText {
			return
		}
		switch x := v.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case []string:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if secretKey(k) {
					continue
				}
				walk(x[k])
			}
		}
	}
	walk(args)
	return clip(b.String(), maxArgumentText)
}

func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"password", "token", "secret", "key", "credential", "auth"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// CallFinished is CallResult with the result's size unknown.
func (s *Session) CallFinished(tool string, ok bool) bool {
	return s.CallResult(tool, ok, 0)
}

// shrinkNow moves a tiered list to the smaller one kept when that did not
// pay yet, once it does (lock held).
func (s *Session) shrinkNow() bool {
	if s.mode != ModeTiered || !s.shrinkPays() {
		return false
	}
	s.view, s.shrink = s.shrink, nil
	s.lang = s.langLocked()
	s.version++
	return true
}

// CallResult accounts for a finished call: ok=false for a tool error or
// a refusal by a guard; tokens is the size of the result the model gets
// (0: unknown), which the session adds to its estimate of the history a
// list change would make the host write again. FailuresToUpgrade consecutive failures widen the
// tier (recommended -> extended -> full): changed=true. A success resets the
// count. Widening goes only as far as the evidence asks: the tools in the
// view failed, so their related intents' tools come in (the extended tier
// without the lexical ranker's fill, which guessed from the request's
// words); the next failures bring the full list.
func (s *Session) CallResult(tool string, ok bool, tokens int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tokens <= 0 {
		tokens = defaultResultTokens
	}
	s.hist += tokens
	if ok {
		s.failures = 0
		return s.shrinkNow()
	}
	s.failures++
	if s.failures < s.r.cfg.FailuresToUpgrade || s.mode != ModeTiered || s.tier == TierFull {
		return s.shrinkNow()
	}
	from := s.tier
	if s.tier == TierRecommended {
		s.tier = TierExtended
		s.det.lexRank = nil
	} else {
		s.tier = TierFull
	}
	s.record(from, s.tier, fmt.Sprintf("%d consecutive failed calls (last: %s)", s.failures, tool))
	s.failures = 0
	return s.refresh(names(s.build())...)
}

// View returns the current view: registered tools in order with their tags,
// pinned tools, and the meta tools (find_tools; call_tool in search mode).
func (s *Session) View() []ViewTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.view)
}

// Lang returns the language of the last routed request ("en" before any).
func (s *Session) Lang() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.langLocked()
}

func (s *Session) langLocked() string {
	if s.det.Lang == "" {
		return "en"
	}
	return s.det.Lang
}

// Version identifies the current view and its language: equal versions of
// one session mean the same tools/list. Cheap, for a cache check.
func (s *Session) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Snapshot returns the list, the language its tags are written in (fixed
// until the list changes, so the same list renders to the same bytes) and
// their version, read together.
func (s *Session) Snapshot() ([]ViewTool, string, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.view), s.lang, s.version
}

// State returns a snapshot.
func (s *Session) State() SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	lang := s.det.Lang
	if lang == "" {
		lang = "en"
	}
	return SessionState{Mode: s.mode, Tier: s.tier, Intents: slices.Clone(s.det.Intents), Primary: s.det.Primary,
		Confidence: s.det.Confidence, Lang: lang, Pinned: slices.Clone(s.pinned), Failures: s.failures,
		View: slices.Clone(s.view), History: slices.Clone(s.history),
		Calls: s.calls, StreakFamily: s.streakFam, Streak: s.streak, NarrowedTo: s.narrowed, ByRequest: s.routed}
}

// ModeForClient picks the exposure mode for a client. A configured mode of
// tiered, full or search wins. For auto (or empty), the client's row of
// the client table (exposure/data/routing.json, measured by the client
// suite in e2e/clients_*_test.go) decides through AutoMode. Unknown
// clients get tiered: its first list is search's and holds call_tool, so a
// client that ignores list_changed still reaches every tool.
func ModeForClient(clientName, configured string) string {
	return sharedDefaultTables().ModeForClient(clientName, configured)
}

// ModeForClient is the package function over these tables' client list.
func (t *Tables) ModeForClient(clientName, configured string) string {
	switch configured {
	case ModeTiered, ModeFull, ModeSearch:
		return configured
	}
	if c, ok := t.Client(clientName); ok {
		return c.AutoMode()
	}
	return ModeTiered
}

// AutoMode is the mode that costs a client least for what it measured
// (the journeys bench under prompt caching, TestAutoMode_CostsLeast):
//   - a client that defers schemas gets full: its prompt holds names only,
//     and a list that never changes never rewrites the cached prompt;
//   - a client that never re-reads the list gets search, whose list is
//     constant (a tiered list it never sees grow is search's at best);
//   - a client that re-reads at once (relist 0) gets tiered: the tools a
//     session uses or is routed to are in the list when it calls them, at
//     a lower cost than full's;
//   - a client that re-reads late (relist ≥ 1) gets search: a grown list
//     reaches its model after the routed call, which then goes through
//     call_tool as in search, and every growth still rewrites the prompt.
func (c ClientRule) AutoMode() string {
	switch {
	case c.Mode != "": // validated: tiered, full or search
		return c.Mode
	case c.DefersSchemas:
		return ModeFull
	case !c.ListChanged || c.Relist > 0:
		return ModeSearch
	}
	return ModeTiered
}

// Client is the first row of the client table that matches the client's
// name, normalised.
func (t *Tables) Client(clientName string) (ClientRule, bool) {
	key := clientKey(clientName)
	if key == "" {
		return ClientRule{}, false
	}
	for _, c := range t.Clients {
		if strings.Contains(key, clientKey(c.Match)) {
			return c, true
		}
	}
	return ClientRule{}, false
}

// clientKey lower-cases a client name and drops spaces, dashes, dots and
// underscores: "Visual Studio Code" -> "visualstudiocode".
func clientKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '-', '_', '.', '/':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
