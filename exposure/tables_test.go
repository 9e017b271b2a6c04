package exposure

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// catalogNames are the 38 fixed names of shared/CATALOG.md, in its order.
var catalogNames = []string{
	"browser", "browser_use", "web_fetch", "search", "file", "shell", "screen", "system", "mcp_bridge",
	"pdf_tool", "format_converter", "ppt_generator", "doc_generator", "contract_generator", "resume_builder",
	"mind_map", "data_processor", "data_visualization", "financial_report", "db_query", "knowledge_rag",
	"literature_search", "weather", "cron", "calendar", "diary", "finance", "email", "notify", "ocr", "speech",
	"image_generator", "id_photo", "gif_maker", "ai_writer", "coding_assistant", "python_runner", "education_tool",
}

func TestEmbeddedTables(t *testing.T) {
	tb := DefaultTables()
	if err := tb.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := tb.ToolNames(); !slices.Equal(got, catalogNames) {
		t.Fatalf("catalog names = %v\nwant %v", got, catalogNames)
	}
	var intents []string
	for _, in := range tb.Intents {
		intents = append(intents, in.Name)
		if len(in.Groups) == 0 {
			t.Errorf("intent %s has no keywords", in.Name)
		}
	}
	if !slices.Equal(intents, IntentNames) {
		t.Fatalf("intents = %v", intents)
	}
	// Text: the catalog's for tools not built yet, the registration's for
	// the others (as the server builds the router).
	for _, ti := range liveRouter(t, Config{}).Tables().Catalog {
		if ti.Description == "" || len(ti.Examples) < 4 {
			t.Errorf("%s: needs a description and at least 4 examples", ti.Name)
		}
		zh, en := 0, 0
		for _, ex := range ti.Examples {
			if Language(ex) == "zh" {
				zh++
			} else {
				en++
			}
		}
		if zh < 2 || en < 2 {
			t.Errorf("%s: examples need both languages (zh %d, en %d)", ti.Name, zh, en)
		}
	}
	if !slices.Equal(tb.Core, []string{"file", "shell", "search", "web_fetch"}) {
		t.Errorf("core = %v", tb.Core)
	}
	// Every catalog tool can be recommended by some intent's keywords or
	// priority row.
	for _, n := range catalogNames {
		found := false
		for _, p := range tb.Priority {
			found = found || slices.Contains(p.Recommended, n)
		}
		for _, in := range tb.Intents {
			for _, g := range in.Groups {
				found = found || g.Tool == n
			}
		}
		if !found {
			t.Errorf("%s is never recommended", n)
		}
	}
}

func TestTablesRejectUnknownTools(t *testing.T) {
	cases := map[string]func(*Tables){
		"intent_tools": func(tb *Tables) { tb.IntentTools["research"] = append(tb.IntentTools["research"], "scholar_magic") },
		"priority": func(tb *Tables) {
			tb.Priority["education"] = Priority{Recommended: []string{"tutor"}}
		},
		"dependencies": func(tb *Tables) { tb.Dependencies["doc_generator"] = []string{"clipart"} },
		"core":         func(tb *Tables) { tb.Core = []string{"file", "terminal"} },
		"keyword group": func(tb *Tables) {
			tb.Intents[0].Groups = append(tb.Intents[0].Groups, KeywordGroup{Tool: "netscape", Strong: []string{"x"}})
		},
		"unknown intent": func(tb *Tables) { tb.Related["research"] = []string{"astrology"} },
	}
	for name, mutate := range cases {
		tb := DefaultTables()
		mutate(tb)
		err := tb.Validate()
		if err == nil || !strings.Contains(err.Error(), "not a") {
			t.Errorf("%s: Validate() = %v, want an error naming the unknown entry", name, err)
		}
	}
}

// TestTablesRejectBadClientRows: a client row's mode, relist and match are
// checked, so a typo in a config's client table stops the start instead of
// silently falling back to the measured mode.
func TestTablesRejectBadClientRows(t *testing.T) {
	for want, row := range map[string]ClientRule{
		`mode "fast"`: {Match: "acme", Name: "Acme", Mode: "fast"},
		"relist -1":   {Match: "acme", Name: "Acme", Relist: -1},
		"empty match": {Match: " - ", Name: "Acme"},
	} {
		tb := DefaultTables()
		tb.Clients = append(tb.Clients, row)
		if err := tb.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want an error saying %s", err, want)
		}
	}
}

func TestTablesRejectUnreachableTool(t *testing.T) {
	tb := DefaultTables()
	for in, list := range tb.IntentTools {
		tb.IntentTools[in] = slices.DeleteFunc(slices.Clone(list), func(n string) bool { return n == "gif_maker" })
	}
	for in, p := range tb.Priority {
		p.Recommended = slices.DeleteFunc(slices.Clone(p.Recommended), func(n string) bool { return n == "gif_maker" })
		p.Alternative = slices.DeleteFunc(slices.Clone(p.Alternative), func(n string) bool { return n == "gif_maker" })
		tb.Priority[in] = p
	}
	err := tb.Validate()
	if err == nil || !strings.Contains(err.Error(), `"gif_maker" is reachable from no intent`) {
		t.Fatalf("Validate() = %v", err)
	}
}

func TestTablesOverride(t *testing.T) {
	tb := DefaultTables()
	err := tb.OverrideJSON([]byte(`{"core":["file","search"],"priority":{"education":{"recommended":["education_tool","mind_map"],"alternative":[]}},
		"intents":[{"name":"education","groups":[{"tool":"education_tool","strong":["背课文"]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tb.Core, []string{"file", "search"}) || len(tb.Priority["education"].Recommended) != 2 {
		t.Fatalf("override not applied: core %v education %v", tb.Core, tb.Priority["education"])
	}
	if len(tb.Priority["research"].Recommended) == 0 {
		t.Fatal("override dropped untouched rows")
	}
	r, err := NewRouter(Config{Tables: tb})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Route("明天要背课文"); d.Primary != "education" {
		t.Fatalf("overridden keyword not used: %+v", d.Detection)
	}
	// The default tables are untouched.
	if !slices.Equal(DefaultTables().Core, []string{"file", "shell", "search", "web_fetch"}) {
		t.Fatal("override leaked into the embedded tables")
	}
	if err := DefaultTables().OverrideJSON([]byte(`{"core":["file","hyperdrive"]}`)); err == nil {
		t.Fatal("override naming an unknown tool accepted")
	}
	if err := DefaultTables().OverrideJSON([]byte(`{"cores":["file"]}`)); err == nil {
		t.Fatal("unknown override key accepted")
	}
}

// The catalog's examples are written from CATALOG.md, not copied from the
// evaluation sets.
func TestExamplesAreNotEvalQueries(t *testing.T) {
	sets := []string{filepath.Join("testdata", "heldout.jsonl")}
	if dir := findEval(t); dir != "" {
		sets = append(sets, filepath.Join(dir, "routing_dev.jsonl"))
	}
	n := &normalizer{t2s: sharedDefaultTables().T2S}
	queries := map[string]string{}
	for _, p := range sets {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		for _, r := range loadRows(t, p) {
			queries[n.normal(strings.TrimSpace(r.Q))] = r.ID
		}
	}
	for _, ti := range liveRouter(t, Config{}).Tables().Catalog {
		for _, ex := range ti.Examples {
			if id, ok := queries[n.normal(strings.TrimSpace(ex))]; ok {
				t.Errorf("%s example %q is eval query %s", ti.Name, ex, id)
			}
		}
	}
}

func TestT2S(t *testing.T) {
	n := &normalizer{t2s: sharedDefaultTables().T2S}
	for in, want := range map[string]string{
		"合併這三個PDF檔案":  "合并这三个pdf档案",
		"幫我製作簡報":      "帮我制作简报",
		"資料庫查詢":       "资料库查询",
		"ＰＤＦ　轉換":      "pdf 转换",
		"記帳：午餐花了120元": "记账:午餐花了120元",
	} {
		if got := n.normal(in); got != want {
			t.Errorf("normal(%q) = %q, want %q", in, got, want)
		}
	}
}
