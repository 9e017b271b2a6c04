package pdf

import (
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestWording_OnePage: a one-page PDF is "1 page", never "1 pages", in
// every summary that counts pages.
func TestWording_OnePage(t *testing.T) {
	e := newEnv(t)
	src := e.put("c.pdf", fixture(t, "chinese.pdf"))
	res := e.run(map[string]any{"action": "extract_pages", "path": src, "pages": "2", "output": "one.pdf"})
	if !strings.HasPrefix(res.Summary, "extracted 1 page of ") {
		t.Errorf("extract_pages: %q", res.Summary)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "page_count", "path": "one.pdf"}, "one.pdf has 1 page"},
		{map[string]any{"action": "info", "path": "one.pdf"}, "one.pdf: 1 page, PDF"},
		{map[string]any{"action": "rotate", "path": "one.pdf", "rotation": 90, "output": "rot.pdf"}, "rotated 1 page by 90°"},
		{map[string]any{"action": "merge", "paths": []any{"one.pdf", "one.pdf"}, "output": "m.pdf"}, "merged 2 PDFs (2 pages)"},
	} {
		res, err := tooltest.Run(t, e.tool, c.args)
		if err != nil {
			t.Errorf("%v: %v", c.args["action"], err)
			continue
		}
		if !strings.Contains(res.Summary, c.want) || strings.Contains(res.Summary, "1 pages") {
			t.Errorf("%v: summary %q, want %q", c.args["action"], res.Summary, c.want)
		}
	}
}
