// Package exposure is clawbridge's routing engine: it decides which of the
// 38 catalog tools a session sees, and how they are tagged. It knows tool
// names and metadata only; it never imports server or tools/*.
//
// # Tables
//
// The routing data is embedded (data/*.json, data/t2s.txt, data/guidance.md):
// the catalog (name and intents of the 38 tools; a one-line description and
// example requests in English and Chinese only for tools not built yet),
// INTENT_CATEGORIES (17 intents; keyword groups of
// strong/medium/weak phrases, each group optionally pointing at one tool),
// exclusion lists, INTENT_TOOL_MAPPING, INTENT_PRIORITY_MAP
// (recommended/alternative), tool dependencies, related intents (for the
// extended tier), the core set (default file, shell, search, web_fetch),
// the client table for mode auto, and the guidance text per intent family.
//
//	t := exposure.DefaultTables()          // a private copy
//	err := t.OverrideJSON(configBytes)      // or t.Override(&exposure.Tables{...})
//	err = t.Validate()                     // unknown tools/intents, unreachable tools
//
// # Tool text
//
// A built tool's description and examples live once, in its registration:
// the server passes them as Config.Texts ([]ToolText{Name, Description,
// Examples}) and the router's lexical index reads them in place of the
// catalog's, so editing a tool's examples changes routing. The server and
// `clawbridge route` build the same router. Texts of tools outside the
// catalog are ignored (they have no intent to credit).
//
// # External tools
//
// Tools outside the catalog (downstream MCP servers' tools, published as
// <server>__<tool>) are given as a set with Router.SetExternal, swapped
// atomically when a manifest changes; Session.Refresh re-matches a
// session's last request against the new set. One ranking model
// (rank.go) scores them and the catalog tools on one scale: BM25 over
// each tool's fields (name words twice, title, description, parameters;
// a glossary added to Chinese requests and Chinese descriptions alike),
// the request read whole and task by task; servers ranked by their best
// tool, each bringing the tools that supply or take its chosen tools'
// inputs; one copy of a tool several servers publish; the server's name,
// hint keywords and intents, the names' reading (external_names.go:
// list_issues for "the open issues", get_issue for "issue 33") and the
// intent matrix's choice as evidence, never as a gate. A view holds at
// most the ranking's view_max tools, by that score, core tools aside. A
// request of several tasks, or one matched by words alone, is not sure
// (the extended tier, its matches alternatives): on LiveMCPBench such
// decisions held all their tools about one time in five whatever their
// scores. Weights and words are a table (data/ranking.json). With no
// external tool, every decision is what it was.
//
// # Detection
//
//	d := r.Detector().Detect("合并这三个PDF")
//	d.Intents, d.Primary, d.Confidence, d.Scores, d.Matched, d.Tools, d.Lang
//
// Text is normalised (lower case, full-width ASCII, traditional to
// simplified Chinese), scanned once with an Aho-Corasick automaton, and
// scored: a strong phrase counts 4, a medium word 2, a weak word 1; a match
// inside a longer match, inside a URL or inside a file's base name does not
// count; "a+b" keywords need every part. English keywords also match their
// inflections (-s, -ed, -ing, "merge" -> "merging", "run" -> "running"). A BM25 ranker over English words
// and Chinese character bigrams of each tool's description and examples adds
// bounded evidence for text the keywords miss. Confidence = e/(e+1) of the
// top intent's evidence e, so one strong phrase reaches 0.8; vague text
// ("帮个忙", "help") has none and gets confidence 0. The subject of a task
// is not the task (subject.go): when a strong phrase names the task, words
// only inside a span that says what the artefact is about or which thing it
// works on ("a resume for a data analyst", "to the contract PDF", "关于…的",
// "把扫描件里…", "给合同PDF加…") are not evidence, and a clause inside one is
// not a task. A file's extension ("纪要.docx") is an input: it counts for
// the tools that read it, not the one that makes the format. A generic word
// that a strong "a+b" phrase of another tool is made of ("画" in "画+增长")
// counts only for that phrase. Text in quotes (“…”, 「…」, "…") and
// e-mail addresses are dead spans like URLs. An English keyword typed with
// an inner vowel or one of a doubled letter missing, or two neighbours
// swapped, counts as the keyword (typo.go). Secondary intents are
// kept when their evidence is at least half the top one's or includes a
// strong phrase (at most three). DetectSeed is the seed's algorithm, kept as
// the reference.
//
// # Routing and views
//
//	r, err := exposure.NewRouter(exposure.Config{
//		RecommendedAt: cfg.RecommendedAt, ExtendedAt: cfg.ExtendedAt, // 0.8, 0.5
//		Core: cfg.Core, Registered: registryNames, Texts: registryTexts, FailuresToUpgrade: 2,
//	})
//	dec := r.Route(text) // Decision{Tier, Intents, Primary, Confidence, Lang, Tools []ViewTool}
//	offered := r.Offered(dec.Tools, dec.Tier) // only registered tools
//	desc := exposure.Tag(tool.Description, v.Tag, dec.Lang) // "[推荐] ..." copy
//
// Tiers: confidence >= RecommendedAt -> recommended (the tools the words
// point at, tagged recommended; the rest of the primary intent's tools,
// tagged alternative; dependencies; core; capped at 12), >= ExtendedAt ->
// extended (widened to 20 with related intents' tools and the lexical
// ranker's next best), else full (all). Routing is computed over the
// catalog; Offered keeps the registered tools.
//
// # Sessions
//
//	s := r.NewSession(exposure.ModeForClient(clientInfo.Name, cfg.Mode))
//	dec, changed := s.Route(request)      // find_tools, task prompt
//	changed = s.CallStarted(tool, args)   // unlisted tool: runs, gets pinned; arguments are evidence
//	changed = s.CallResult(tool, ok, n)   // n: the result's tokens; 2 consecutive failures widen the tier
//	view := s.View()                      // []ViewTool incl. find_tools (and call_tool in search mode)
//	st := s.State()                       // for clawbridge://session/exposure and logs
//
// changed=true means: send notifications/tools/list_changed to that session.
// Modes: tiered (first list = search's; grows for needed tools, shrinks
// when it pays: cost.go), full (all tools, constant), search
// (core + find_tools + call_tool, constant), auto (ModeForClient, from the
// client table: clients that act on list_changed get tiered; Claude
// Desktop, Cursor and Codex get search; Claude Code gets full; unknown
// clients get tiered).
//
// # Guidance
//
// Guidance(intents) returns the decision trees of the intents' families
// (English and Chinese) for the task prompt; Families() and FamilyGuide(name)
// serve one guide prompt per family.
//
// # CLI support
//
// RouteJSONL reads {"id","q"} lines and writes {id, q, intents,
// primary_intent, confidence, tier, tools, recommended, tokens}, the format
// shared/eval/score_routing.py scores. EstimateTokens is a documented cl100k
// approximation; pass a real counter as RouteJSONL's tokens argument when the
// server can render the actual tools/list payload.
package exposure
