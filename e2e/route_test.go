package e2e

import (
	"encoding/json"
	"os/exec"
	"slices"
	"testing"
)

// `clawbridge route` and the server's find_tools route with one index: the
// registered tools' own descriptions and examples. The requests are credited
// to built tools by the lexical ranker, whose text for them exists only in
// the tools (data/catalog.json has none), so a route command that built its
// index from the catalog alone would miss it.
func TestRoute_SameIndexAsServer(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=full")
	c := stdioClient(t, e, "2025-06-18")
	registered := listTools(t, c) // mode full lists every registered tool
	for _, c2 := range []struct{ q, lexical string }{
		{"show me the last 100 lines of the server log", "system"},
		{"把这个大纲做成幻灯片", "ppt_generator"},
	} {
		cmd := exec.Command(binPath, "route", c2.q)
		cmd.Env = e.vars
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("route %q: %v", c2.q, err)
		}
		var dec struct {
			Tier        string   `json:"tier"`
			Confidence  float64  `json:"confidence"`
			Recommended []string `json:"recommended"`
			Detection   struct {
				Matched map[string][]string `json:"matched"`
			} `json:"detection"`
		}
		if err := json.Unmarshal(out, &dec); err != nil {
			t.Fatalf("route output: %v\n%s", err, out)
		}
		credited := false
		for _, m := range dec.Detection.Matched {
			credited = credited || slices.Contains(m, "~lexical:"+c2.lexical)
		}
		if !credited || !slices.Contains(dec.Recommended, c2.lexical) {
			t.Errorf("route %q: want %s credited by its registered text and recommended, got %s", c2.q, c2.lexical, out)
		}
		r := callTool(t, c, "find_tools", map[string]any{"request": c2.q})
		var found struct {
			Tier       string  `json:"tier"`
			Confidence float64 `json:"confidence"`
			Tools      []struct {
				Name string `json:"name"`
				Tag  string `json:"tag"`
			} `json:"tools"`
		}
		b, _ := json.Marshal(r.StructuredContent)
		if err := json.Unmarshal(b, &found); err != nil || r.IsError {
			t.Fatalf("find_tools %q: %v %s", c2.q, err, text(r))
		}
		var rec []string
		for _, f := range found.Tools {
			if f.Tag == "recommended" {
				rec = append(rec, f.Name)
			}
		}
		// find_tools lists registered tools only; route shows the catalog view.
		var want []string
		for _, n := range dec.Recommended {
			if _, ok := registered[n]; ok {
				want = append(want, n)
			}
		}
		if found.Tier != dec.Tier || found.Confidence != dec.Confidence || !slices.Equal(rec, want) || len(rec) == 0 {
			t.Errorf("%q: find_tools tier %s confidence %v recommended %v; route tier %s confidence %v recommended %v",
				c2.q, found.Tier, found.Confidence, rec, dec.Tier, dec.Confidence, dec.Recommended)
		}
	}
}
