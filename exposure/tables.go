package exposure

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

//go:embed data/catalog.json data/intents.json data/routing.json data/ranking.json data/t2s.txt data/guidance.md
var dataFS embed.FS

// IntentNames are the 17 intents of the routing matrix, in table order.
var IntentNames = []string{
	"browser_automation", "file_operation", "document_assembly", "mcp_task", "system_admin",
	"daily_assistant", "knowledge", "life_management", "email_task", "multimedia",
	"document_processing", "data_analysis", "creative_content", "professional_docs",
	"development", "education", "research",
}

// ToolInfo is one catalog tool as the router knows it. Built tools carry
// only their name and intents in data/catalog.json: their description and
// examples come from the registration (Config.Texts). Tools not built yet
// keep the catalog's text.
type ToolInfo struct {
	Name        string   `json:"name" yaml:"name"`
	Intents     []string `json:"intents" yaml:"intents"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	Examples    []string `json:"examples,omitempty" yaml:"examples,omitempty"`
}

// KeywordGroup is a set of keywords of one intent, optionally pointing at
// one tool of it. See data/intents.json for the keyword syntax.
type KeywordGroup struct {
	Tool   string   `json:"tool,omitempty" yaml:"tool,omitempty"`
	Strong []string `json:"strong,omitempty" yaml:"strong,omitempty"`
	Medium []string `json:"medium,omitempty" yaml:"medium,omitempty"`
	Weak   []string `json:"weak,omitempty" yaml:"weak,omitempty"`
}

// Intent is one row of INTENT_CATEGORIES.
type Intent struct {
	Name   string         `json:"name" yaml:"name"`
	Groups []KeywordGroup `json:"groups" yaml:"groups"`
}

// Signals name artefacts: an output format points at the tool that
// produces it, a file extension at the tools that read it, a URL at the web
// tools, an e-mail address at the tools that send to it, a clock time
// ("at 7am", "8:30", "7点") at the tools that run something then. They add
// tools to a view; they are not intent evidence.
type Signals struct {
	URL        []string            `json:"url" yaml:"url"`
	Address    []string            `json:"address" yaml:"address"`
	Time       []string            `json:"time" yaml:"time"`
	Formats    []FormatSignal      `json:"formats" yaml:"formats"`
	Extensions map[string][]string `json:"extensions" yaml:"extensions"` // "xlsx" -> readers
}

// FormatSignal is one output format: words that name it and its producer.
type FormatSignal struct {
	Tool  string   `json:"tool" yaml:"tool"`
	Words []string `json:"words" yaml:"words"`
}

// Weights are the scores of the three keyword strengths.
type Weights struct {
	Strong float64 `json:"strong" yaml:"strong"`
	Medium float64 `json:"medium" yaml:"medium"`
	Weak   float64 `json:"weak" yaml:"weak"`
}

// Priority is one row of INTENT_PRIORITY_MAP.
type Priority struct {
	Recommended []string `json:"recommended" yaml:"recommended"`
	Alternative []string `json:"alternative" yaml:"alternative"`
}

// StopWords are ignored by the lexical ranker.
type StopWords struct {
	English []string `json:"english" yaml:"english"`
	Chinese string   `json:"chinese" yaml:"chinese"` // stop characters
}

// ClientRule is what is known of a client: under mode auto its mode
// follows from it (AutoMode), unless Mode names one.
type ClientRule struct {
	Match       string `json:"match" yaml:"match"` // substring of the normalised client name
	Name        string `json:"name" yaml:"name"`
	ListChanged bool   `json:"list_changed" yaml:"list_changed"`
	Mode        string `json:"mode,omitempty" yaml:"mode"` // a mode set by hand (config), over AutoMode
	// DefersSchemas: the client puts only the tools' names in the model's
	// prompt and loads a schema when the model asks for it (Claude Code's
	// ToolSearch), so a long list costs it little and never changes.
	DefersSchemas bool `json:"defers_schemas,omitempty" yaml:"defers_schemas"`
	// What the client suite (e2e/clients_*_test.go) measured, on Versions:
	// Relist is how many model requests after list_changed the model first
	// gets the new list (0: the very next one; the most seen, with a
	// stand-in model that answers at once); Elicitation is what happens
	// to a question: "asks" (a person answers), "cancels" or "declines"
	// (answered at once without anyone asked, as the headless clients do),
	// "none" (not declared). A "declines" answer is taken as not asked:
	// the call goes to `clawbridge approve` instead of being refused.
	Versions    string `json:"versions,omitempty" yaml:"versions"`
	Relist      int    `json:"relist,omitempty" yaml:"relist"`
	Elicitation string `json:"elicitation,omitempty" yaml:"elicitation"`
	Note        string `json:"note,omitempty" yaml:"note"`
}

// Tables are all routing data. DefaultTables returns the embedded set; a
// config may override parts of it with Override.
type Tables struct {
	Catalog      []ToolInfo          `json:"catalog" yaml:"catalog"`
	Intents      []Intent            `json:"intents" yaml:"intents"`
	Weights      Weights             `json:"weights" yaml:"weights"`
	Exclusions   map[string][]string `json:"exclusions" yaml:"exclusions"`
	StopWords    StopWords           `json:"stop_words" yaml:"stop_words"`
	Core         []string            `json:"core" yaml:"core"`
	IntentTools  map[string][]string `json:"intent_tools" yaml:"intent_tools"`
	Priority     map[string]Priority `json:"priority" yaml:"priority"`
	Dependencies map[string][]string `json:"dependencies" yaml:"dependencies"`
	Related      map[string][]string `json:"related" yaml:"related"`
	Clients      []ClientRule        `json:"clients" yaml:"clients"`
	Families     []Family            `json:"families" yaml:"families"`
	Guides       map[string]string   `json:"guides" yaml:"guides"` // family name -> guidance text
	Signals      Signals             `json:"signals" yaml:"signals"`
	Ranking      Ranking             `json:"ranking" yaml:"ranking"`
	T2S          map[rune]rune       `json:"-" yaml:"-"`
}

var (
	defaultOnce   sync.Once
	defaultTables *Tables
	defaultErr    error
)

// DefaultTables returns a fresh copy of the embedded tables.
func DefaultTables() *Tables {
	defaultOnce.Do(func() { defaultTables, defaultErr = loadEmbedded() })
	if defaultErr != nil {
		// The embedded data is checked by tests; reaching this is a build defect.
		return &Tables{}
	}
	return defaultTables.Clone()
}

func loadEmbedded() (*Tables, error) {
	t := &Tables{}
	read := func(name string) ([]byte, error) { return dataFS.ReadFile("data/" + name) }
	readJSON := func(name string, v any) error {
		b, err := read(name)
		if err != nil {
			return err
		}
		if err := strictJSON(b, v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	if err := readJSON("catalog.json", &t.Catalog); err != nil {
		return nil, err
	}
	var in struct {
		Doc        string              `json:"_doc"`
		Weights    Weights             `json:"weights"`
		Intents    []Intent            `json:"intents"`
		Exclusions map[string][]string `json:"exclusions"`
		StopWords  struct {
			Doc string `json:"_doc"`
			StopWords
		} `json:"stop_words"`
	}
	if err := readJSON("intents.json", &in); err != nil {
		return nil, err
	}
	delete(in.Exclusions, "_doc")
	t.Weights, t.Intents, t.Exclusions, t.StopWords = in.Weights, in.Intents, in.Exclusions, in.StopWords.StopWords
	var rt struct {
		Doc          string              `json:"_doc"`
		Core         []string            `json:"core"`
		IntentTools  map[string][]string `json:"intent_tools"`
		Priority     map[string]Priority `json:"priority"`
		Dependencies map[string][]string `json:"dependencies"`
		Related      map[string][]string `json:"related"`
		Clients      []ClientRule        `json:"clients"`
		Signals      struct {
			Doc string `json:"_doc"`
			Signals
		} `json:"signals"`
	}
	if err := readJSON("routing.json", &rt); err != nil {
		return nil, err
	}
	t.Core, t.IntentTools, t.Priority, t.Dependencies, t.Related, t.Clients =
		rt.Core, rt.IntentTools, rt.Priority, rt.Dependencies, rt.Related, rt.Clients
	t.Signals = rt.Signals.Signals
	var rk struct {
		Doc string `json:"_doc"`
		Ranking
	}
	if err := readJSON("ranking.json", &rk); err != nil {
		return nil, err
	}
	t.Ranking = rk.Ranking
	b, err := read("t2s.txt")
	if err != nil {
		return nil, err
	}
	if t.T2S, err = parseT2S(b); err != nil {
		return nil, err
	}
	if b, err = read("guidance.md"); err != nil {
		return nil, err
	}
	if t.Families, t.Guides, err = parseGuidance(b); err != nil {
		return nil, err
	}
	return t, t.Validate()
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Clone returns a deep copy.
func (t *Tables) Clone() *Tables {
	b, err := json.Marshal(t)
	c := &Tables{}
	if err == nil {
		err = json.Unmarshal(b, c)
	}
	if err != nil {
		return &Tables{}
	}
	c.T2S = maps.Clone(t.T2S)
	return c
}

// Override replaces parts of t with the entries present in o: non-empty
// lists and weights replace, map entries replace per key (an intent's
// keyword groups, one tool's catalog entry, one intent's priority, ...).
// The result is validated.
func (t *Tables) Override(o *Tables) error {
	if o == nil {
		return nil
	}
	for _, ti := range o.Catalog {
		if i := slices.IndexFunc(t.Catalog, func(x ToolInfo) bool { return x.Name == ti.Name }); i >= 0 {
			t.Catalog[i] = ti
		} else {
			t.Catalog = append(t.Catalog, ti)
		}
	}
	for _, in := range o.Intents {
		if i := slices.IndexFunc(t.Intents, func(x Intent) bool { return x.Name == in.Name }); i >= 0 {
			t.Intents[i] = in
		} else {
			t.Intents = append(t.Intents, in)
		}
	}
	if o.Weights != (Weights{}) {
		t.Weights = o.Weights
	}
	if len(o.StopWords.English) > 0 {
		t.StopWords.English = o.StopWords.English
	}
	if o.StopWords.Chinese != "" {
		t.StopWords.Chinese = o.StopWords.Chinese
	}
	if len(o.Core) > 0 {
		t.Core = slices.Clone(o.Core)
	}
	if len(o.Clients) > 0 {
		t.Clients = slices.Clone(o.Clients)
	}
	if len(o.Signals.URL) > 0 {
		t.Signals.URL = slices.Clone(o.Signals.URL)
	}
	if len(o.Signals.Address) > 0 {
		t.Signals.Address = slices.Clone(o.Signals.Address)
	}
	if len(o.Signals.Time) > 0 {
		t.Signals.Time = slices.Clone(o.Signals.Time)
	}
	if len(o.Signals.Formats) > 0 {
		t.Signals.Formats = slices.Clone(o.Signals.Formats)
	}
	mergeMap(&t.Signals.Extensions, o.Signals.Extensions)
	mergeMap(&t.Exclusions, o.Exclusions)
	mergeMap(&t.IntentTools, o.IntentTools)
	mergeMap(&t.Priority, o.Priority)
	mergeMap(&t.Dependencies, o.Dependencies)
	mergeMap(&t.Related, o.Related)
	mergeMap(&t.Guides, o.Guides)
	if len(o.Families) > 0 {
		t.Families = slices.Clone(o.Families)
	}
	t.Ranking.Weights.override(o.Ranking.Weights)
	mergeMap(&t.Ranking.GlossaryZH, o.Ranking.GlossaryZH)
	mergeMap(&t.Ranking.GlossaryEN, o.Ranking.GlossaryEN)
	if len(o.Ranking.GenericParams) > 0 {
		t.Ranking.GenericParams = slices.Clone(o.Ranking.GenericParams)
	}
	if len(o.Ranking.TaskMarks) > 0 {
		t.Ranking.TaskMarks = slices.Clone(o.Ranking.TaskMarks)
	}
	return t.Validate()
}

func mergeMap[V any](dst *map[string]V, src map[string]V) {
	if len(src) == 0 {
		return
	}
	if *dst == nil {
		*dst = map[string]V{}
	}
	maps.Copy(*dst, src)
}

// OverrideJSON applies a JSON document shaped like Tables (any subset of its
// keys) with Override.
func (t *Tables) OverrideJSON(b []byte) error {
	o := &Tables{}
	if err := strictJSON(b, o); err != nil {
		return fmt.Errorf("exposure tables override: %w", err)
	}
	return t.Override(o)
}

// Validate checks that every table names only catalog tools and known
// intents, and that every catalog tool is reachable from some intent.
func (t *Tables) Validate() error {
	c := &tableCheck{tools: map[string]bool{}, intents: map[string]bool{}}
	for _, ti := range t.Catalog {
		if ti.Name == "" || c.tools[ti.Name] {
			return fmt.Errorf("catalog: empty or duplicate tool name %q", ti.Name)
		}
		c.tools[ti.Name] = true
	}
	for _, in := range t.Intents {
		if in.Name == "" || c.intents[in.Name] {
			return fmt.Errorf("intents: empty or duplicate intent %q", in.Name)
		}
		c.intents[in.Name] = true
	}
	c.keywords(t)
	reach := c.references(t)
	c.signals(t)
	if err := t.Ranking.validate(); err != nil {
		c.errs = append(c.errs, err.Error())
	}
	for _, ti := range t.Catalog {
		if !reach[ti.Name] {
			c.errs = append(c.errs, fmt.Sprintf("catalog tool %q is reachable from no intent", ti.Name))
		}
	}
	for _, in := range t.Intents {
		if _, ok := t.Priority[in.Name]; !ok {
			c.errs = append(c.errs, fmt.Sprintf("intent %q has no priority row", in.Name))
		}
	}
	if t.Weights.Strong <= 0 || t.Weights.Medium <= 0 || t.Weights.Weak <= 0 {
		c.errs = append(c.errs, "weights must be positive")
	}
	c.clients(t)
	if len(c.errs) > 0 {
		slices.Sort(c.errs)
		return fmt.Errorf("exposure tables: %s", strings.Join(c.errs, "; "))
	}
	return nil
}

// tableCheck gathers what Validate finds wrong (sorted at the end), with
// the catalog's tools and the intents that names must be.
type tableCheck struct {
	tools, intents map[string]bool
	errs           []string
}

func (c *tableCheck) tool(where, name string) {
	if !c.tools[name] {
		c.errs = append(c.errs, fmt.Sprintf("%s names %q, which is not a catalog tool", where, name))
	}
}

func (c *tableCheck) intent(where, name string) {
	if !c.intents[name] {
		c.errs = append(c.errs, fmt.Sprintf("%s names %q, which is not an intent", where, name))
	}
}

// keywords checks the intents' keyword groups: their tools, and no empty
// or repeated keyword.
func (c *tableCheck) keywords(t *Tables) {
	for _, in := range t.Intents {
		for _, g := range in.Groups {
			if g.Tool != "" {
				c.tool("intent "+in.Name, g.Tool)
			}
			seen := map[string]bool{}
			for _, kw := range slices.Concat(g.Strong, g.Medium, g.Weak) {
				if strings.TrimSpace(kw) == "" || strings.Trim(kw, "+*") == "" {
					c.errs = append(c.errs, fmt.Sprintf("intent %s: empty keyword", in.Name))
				}
				if seen[kw] {
					c.errs = append(c.errs, fmt.Sprintf("intent %s group %s: keyword %q listed twice", in.Name, g.Tool, kw))
				}
				seen[kw] = true
			}
		}
	}
}

// references checks the tools and intents the other tables name, and
// returns the tools an intent reaches (intent_tools, priority).
func (c *tableCheck) references(t *Tables) (reach map[string]bool) {
	for _, ti := range t.Catalog {
		for _, in := range ti.Intents {
			c.intent("catalog "+ti.Name, in)
		}
	}
	for _, n := range t.Core {
		c.tool("core", n)
	}
	reach = map[string]bool{}
	for in, list := range t.IntentTools {
		c.intent("intent_tools", in)
		for _, n := range list {
			c.tool("intent_tools "+in, n)
			reach[n] = true
		}
	}
	for in, p := range t.Priority {
		c.intent("priority", in)
		for _, n := range slices.Concat(p.Recommended, p.Alternative) {
			c.tool("priority "+in, n)
			reach[n] = true
		}
	}
	for n, deps := range t.Dependencies {
		c.tool("dependencies", n)
		for _, d := range deps {
			c.tool("dependencies "+n, d)
		}
	}
	for in, rel := range t.Related {
		c.intent("related", in)
		for _, r := range rel {
			c.intent("related "+in, r)
		}
	}
	for in := range t.Exclusions {
		c.intent("exclusions", in)
	}
	for _, f := range t.Families {
		for _, in := range f.Intents {
			c.intent("family "+f.Name, in)
		}
	}
	return reach
}

// signals checks the artefact signals' tools, format words and
// extensions.
func (c *tableCheck) signals(t *Tables) {
	for _, n := range t.Signals.URL {
		c.tool("signals url", n)
	}
	for _, n := range t.Signals.Address {
		c.tool("signals address", n)
	}
	for _, n := range t.Signals.Time {
		c.tool("signals time", n)
	}
	for _, f := range t.Signals.Formats {
		c.tool("signals formats", f.Tool)
		for _, w := range f.Words {
			if strings.TrimSpace(w) == "" {
				c.errs = append(c.errs, "signals formats "+f.Tool+": empty word")
			}
		}
	}
	for ext, list := range t.Signals.Extensions {
		if ext == "" || strings.ContainsAny(ext, ". ") {
			c.errs = append(c.errs, fmt.Sprintf("signals extensions: %q is not an extension (no dot, no space)", ext))
		}
		for _, n := range list {
			c.tool("signals extensions "+ext, n)
		}
	}
}

// clients checks the client rows: a match, a known mode, a relist count.
func (c *tableCheck) clients(t *Tables) {
	for _, cl := range t.Clients {
		switch {
		case clientKey(cl.Match) == "":
			c.errs = append(c.errs, fmt.Sprintf("client %q: empty match", cl.Name))
		case cl.Mode != "" && cl.Mode != ModeTiered && cl.Mode != ModeFull && cl.Mode != ModeSearch:
			c.errs = append(c.errs, fmt.Sprintf("client %q: mode %q is not tiered, full or search", cl.Name, cl.Mode))
		case cl.Relist < 0:
			c.errs = append(c.errs, fmt.Sprintf("client %q: relist %d is negative", cl.Name, cl.Relist))
		}
	}
}

// withTexts returns a copy of t whose catalog entries take the description
// and examples of the matching texts. Only the catalog is copied: the other
// tables are shared, since a router only reads them (a deep Clone here was a
// JSON round trip of every table on each start).
func (t *Tables) withTexts(texts []ToolText) *Tables {
	c := *t
	c.Catalog = slices.Clone(t.Catalog)
	for _, tx := range texts {
		if i := slices.IndexFunc(c.Catalog, func(x ToolInfo) bool { return x.Name == tx.Name }); i >= 0 {
			c.Catalog[i].Description = tx.Description
			c.Catalog[i].Examples = slices.Clone(tx.Examples)
		}
	}
	return &c
}

// ToolNames returns the catalog names in catalog order.
func (t *Tables) ToolNames() []string {
	out := make([]string, len(t.Catalog))
	for i, ti := range t.Catalog {
		out[i] = ti.Name
	}
	return out
}

// sharedDefaultTables returns the embedded tables without copying; callers
// must not modify them.
func sharedDefaultTables() *Tables {
	defaultOnce.Do(func() { defaultTables, defaultErr = loadEmbedded() })
	if defaultErr != nil {
		return &Tables{}
	}
	return defaultTables
}

// Tool returns the catalog entry of a tool.
func (t *Tables) Tool(name string) (ToolInfo, bool) {
	for _, ti := range t.Catalog {
		if ti.Name == name {
			return ti, true
		}
	}
	return ToolInfo{}, false
}
