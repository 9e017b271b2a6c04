package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestFirstSentence_WholeForEveryTool: the summary find_tools gives of each
// tool is a whole sentence, not text cut inside brackets or at an extension
// ("Creates a PowerPoint presentation (.").
func TestFirstSentence_WholeForEveryTool(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	for _, tl := range all {
		s := firstSentence(tl.Description)
		if f := wording.Fault(s); f != "" || !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "。") {
			t.Errorf("%s: summary %q: %s", tl.Name, s, f)
		}
	}
	for in, want := range map[string]string{
		"Creates a PowerPoint presentation (.pptx) from an outline. Use it for slides.": "Creates a PowerPoint presentation (.pptx) from an outline.",
		"Writes a Word .docx from Markdown, e.g. a report. More.":                       "Writes a Word .docx from Markdown, e.g. a report.",
		"生成合同文本，支持中英文。其余说明。":                                                            "生成合同文本，支持中英文。",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTablesFileOverride(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	// A client table entry: this deployment knows its own client re-reads lists.
	os.WriteFile(good, []byte(`{"clients":[{"match":"acme-agent","list_changed":true}]}`), 0o600)
	r, err := newRouter(config.Exposure{TablesFile: good}, []*tool.Tool{{Name: "file"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Tables().ModeForClient("ACME Agent", "auto"); got != "tiered" {
		t.Errorf("override not applied: %s", got)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"intent_tools":{"research":["no_such_tool"]}}`), 0o600)
	if _, err := newRouter(config.Exposure{TablesFile: bad}, nil); err == nil || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("a table naming an unknown tool must be refused at start: %v", err)
	}
	if _, err := newRouter(config.Exposure{TablesFile: filepath.Join(dir, "missing.json")}, nil); err == nil {
		t.Error("a missing tables file must be an error")
	}
}

// The server's router indexes the registered tools' own text: a tool's
// examples decide which requests reach it (and `clawbridge route` uses this
// router).
func TestRouterText_ServerIndexesRegisteredExamples(t *testing.T) {
	q := "sketch my zettelkasten as a branching wiki"
	mindMap := func(examples ...string) tool.Tool {
		return tool.Tool{
			Name: "mind_map", Title: "Mind map", Description: "Draws mind maps from an outline, as PNG, SVG or Mermaid.",
			Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast,
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					return &tool.Result{Summary: "drawn"}, nil
				}}},
			Examples: examples,
		}
	}
	plain := testServer(t, mindMap("draw a mind map of this outline"))
	if d := plain.Router().Route(q); slices.Contains(d.Recommended(), "mind_map") {
		t.Fatalf("mind_map recommended without the example; the test proves nothing: %+v", d)
	}
	edited := testServer(t, mindMap("draw a mind map of this outline", "sketch my zettelkasten as a branching wiki of linked notes"))
	d := edited.Router().Route(q)
	if !slices.Contains(d.Recommended(), "mind_map") {
		t.Errorf("the registered example did not reach the router: tier %s, recommended %v, matched %v", d.Tier, d.Recommended(), d.Detection.Matched)
	}
	if v := edited.Router().Offered(d.Tools, d.Tier); len(v) == 0 || v[0].Name != "mind_map" {
		t.Errorf("offered view %v, want mind_map first", v)
	}
}

// A tables file's keywords reach the detector, which is compiled at start
// for a tables file (a defect refuses the start) and on first use otherwise.
func TestTablesFileOverride_KeywordRoutes(t *testing.T) {
	f := filepath.Join(t.TempDir(), "t.json")
	os.WriteFile(f, []byte(`{"intents":[{"name":"file_operation","groups":[{"tool":"file","strong":["zorblify the folder"]}]}]}`), 0o600)
	r, err := newRouter(config.Exposure{TablesFile: f}, []*tool.Tool{{Name: "file"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Route("please zorblify the folder"); !slices.Contains(d.Intents, "file_operation") {
		t.Errorf("the tables file's keyword did not route: %+v", d)
	}
}
