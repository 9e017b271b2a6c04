package exposure

import (
	"slices"
	"testing"
)

// withExample returns a copy of texts where tool name has one more example.
func withExample(texts []ToolText, name, example string) []ToolText {
	out := slices.Clone(texts)
	for i := range out {
		if out[i].Name == name {
			out[i].Examples = append(slices.Clone(out[i].Examples), example)
		}
	}
	return out
}

// The lexical index is the registered tools' own text: adding an example to
// a tool makes requests phrased like it reach that tool, in both languages.
func TestRouterText_ExamplesChangeRouting(t *testing.T) {
	for _, c := range []struct{ q, example string }{
		{"sketch my zettelkasten as a branching wiki", "sketch my zettelkasten as a branching wiki of linked notes"},
		{"把我的卡片盒笔记整理成分支图", "把卡片盒笔记整理成分支图"},
	} {
		before := liveRouter(t, Config{}).Route(c.q)
		if slices.Contains(before.Recommended(), "mind_map") {
			t.Fatalf("%q: mind_map recommended before the edit; the test proves nothing: %+v", c.q, before)
		}
		r, err := NewRouter(Config{Texts: withExample(liveTexts(t), "mind_map", c.example)})
		if err != nil {
			t.Fatal(err)
		}
		after := r.Route(c.q)
		if !slices.Contains(after.Recommended(), "mind_map") || !slices.Contains(after.Detection.Matched["creative_content"], "~lexical:mind_map") {
			t.Errorf("%q: after adding the example to mind_map: tier %s, recommended %v, matched %v",
				c.q, after.Tier, after.Recommended(), after.Detection.Matched)
		}
	}
}

// A description is indexed like the examples.
func TestRouterText_DescriptionChangesRouting(t *testing.T) {
	q := "sketch my zettelkasten as a branching wiki"
	texts := slices.Clone(liveTexts(t))
	for i := range texts {
		if texts[i].Name == "mind_map" {
			texts[i].Description += " Also sketches a zettelkasten as a branching wiki."
		}
	}
	r, err := NewRouter(Config{Texts: texts})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Route(q); !slices.Contains(d.Recommended(), "mind_map") {
		t.Errorf("description edit did not reach the index: %+v", d)
	}
}

// Built tools have no text in the catalog (the tool is its only source);
// the embedded tables are not changed by a router's texts; a text whose
// name is not a catalog tool is ignored.
func TestRouterText_OneSource(t *testing.T) {
	shared := sharedDefaultTables()
	for _, tx := range liveTexts(t) {
		if ti, ok := shared.Tool(tx.Name); ok && (ti.Description != "" || len(ti.Examples) > 0) {
			t.Errorf("%s is registered but data/catalog.json still carries its text", tx.Name)
		}
	}
	r, err := NewRouter(Config{Texts: append(withExample(liveTexts(t), "mind_map", "zettelkasten branching wiki"),
		ToolText{Name: "my_plugin", Description: "zettelkasten", Examples: []string{"zettelkasten"}})})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Tables().Tool("my_plugin"); ok {
		t.Error("a text outside the catalog became a catalog tool")
	}
	if ti, _ := shared.Tool("mind_map"); len(ti.Examples) != 0 {
		t.Errorf("router texts leaked into the embedded tables: %v", ti.Examples)
	}
	if ti, _ := r.Tables().Tool("mind_map"); !slices.Contains(ti.Examples, "zettelkasten branching wiki") {
		t.Errorf("router tables lack the registered text: %v", ti.Examples)
	}
}
