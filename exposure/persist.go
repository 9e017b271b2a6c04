package exposure

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// storedState is everything a session's view is built from, as JSON, so
// that another process with the same router rebuilds the same view: the
// server keeps a stateless principal's state in the shared store this way.
// The list the client holds is stored with it: a tiered list depends on
// which changes paid, not on the routing state alone.
type storedState struct {
	Mode        string         `json:"mode"`
	Tier        Tier           `json:"tier"`
	Det         storedDet      `json:"detection"`
	Pinned      []string       `json:"pinned"`
	LastUsed    map[string]int `json:"last_used"`
	Calls       int            `json:"calls"`
	Failures    int            `json:"failures"`
	StreakFam   string         `json:"streak_family,omitempty"`
	Streak      int            `json:"streak,omitempty"`
	StreakTools []string       `json:"streak_tools,omitempty"`
	StreakOut   bool           `json:"streak_outside,omitempty"`
	CoreRun     int            `json:"core_run,omitempty"`
	CoreTools   []string       `json:"core_tools,omitempty"`
	CoreTier    Tier           `json:"core_tier,omitempty"`
	Narrowed    string         `json:"narrowed,omitempty"`
	Routed      bool           `json:"routed"`
	History     []Transition   `json:"history"`
	List        []ViewTool     `json:"list,omitempty"`
	ListLang    string         `json:"list_lang,omitempty"`
	Used        []string       `json:"used,omitempty"`
	Steps       int            `json:"steps,omitempty"`
	HistTokens  int            `json:"history_tokens,omitempty"`
}

// storedDet is a Detection with the evidence the extended tier is built
// from, which Detection keeps unexported.
type storedDet struct {
	Detection
	LexRank []string  `json:"lex_rank,omitempty"`
	ToolEv  []float64 `json:"tool_evidence,omitempty"`
}

// MarshalState encodes the session's state for LoadState.
func (s *Session) MarshalState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(storedState{Mode: s.mode, Tier: s.tier,
		Det:    storedDet{Detection: s.det, LexRank: s.det.lexRank, ToolEv: s.det.toolEv},
		Pinned: s.pinned, LastUsed: s.lastUsed, Calls: s.calls, Failures: s.failures,
		StreakFam: s.streakFam, Streak: s.streak, StreakTools: s.streakTools, Narrowed: s.narrowed,
		StreakOut: s.streakOut, CoreRun: s.coreRun, CoreTools: s.coreTools, CoreTier: s.coreTier,
		Routed: s.routed, History: s.history,
		List: s.view, ListLang: s.lang, Used: s.used, Steps: s.steps, HistTokens: s.hist})
}

// LoadState replaces the session's state with one MarshalState wrote (here
// or in another process) and rebuilds the view; changed reports whether
// the view changed. A state that does not decode changes nothing.
func (s *Session) LoadState(b []byte) (changed bool, err error) {
	var st storedState
	if err := json.Unmarshal(b, &st); err != nil {
		return false, fmt.Errorf("exposure: stored session state: %w", err)
	}
	switch st.Mode {
	case ModeTiered, ModeFull, ModeSearch:
	default:
		return false, fmt.Errorf("exposure: stored session state has mode %q", st.Mode)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode, s.tier = st.Mode, st.Tier
	s.det = st.Det.Detection
	s.det.lexRank, s.det.toolEv = st.Det.LexRank, st.Det.ToolEv
	s.pinned, s.lastUsed = slices.Clone(st.Pinned), maps.Clone(st.LastUsed)
	if s.lastUsed == nil {
		s.lastUsed = map[string]int{}
	}
	s.calls, s.failures = st.Calls, st.Failures
	s.streakFam, s.streak, s.streakTools, s.narrowed = st.StreakFam, st.Streak, st.StreakTools, st.Narrowed
	s.streakOut, s.coreRun, s.coreTools, s.coreTier = st.StreakOut, st.CoreRun, slices.Clone(st.CoreTools), st.CoreTier
	s.routed, s.history = st.Routed, st.History
	s.used, s.steps, s.hist = slices.Clone(st.Used), st.Steps, st.HistTokens
	old := s.view
	if len(st.List) > 0 && st.Mode == s.mode {
		s.view, s.lang = slices.Clone(st.List), st.ListLang
	} else if st.Mode != s.mode {
		s.mode = st.Mode
		s.view, s.lang = s.firstList(), "en"
	}
	s.shrink = nil
	changed = s.refresh() || !slices.Equal(old, s.view)
	if changed {
		s.version++
	}
	return changed, nil
}
