package tools_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestInputFiles_OneAnswerPerFailure: the tools that read a workspace file
// named in `path` answer a missing one with not_found and a directory with
// invalid_argument, both on the field `path`, naming the file as given and
// never by its host path (tool.ReadRegular, the one input reader).
func TestInputFiles_OneAnswerPerFailure(t *testing.T) {
	d := tooltest.Deps(t)
	all, err := tools.All(d)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tool.Tool{}
	for _, tl := range all {
		byName[tl.Name] = tl
	}
	root := d.Sandbox.Root()
	if err := os.MkdirAll(filepath.Join(root, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"calendar", map[string]any{"action": "import_ics"}},
		{"finance", map[string]any{"action": "import"}},
		{"resume_builder", map[string]any{}},
		{"doc_generator", map[string]any{}},
		{"ppt_generator", map[string]any{}},
		{"mind_map", map[string]any{}},
	} {
		tl, ok := byName[tc.tool]
		if !ok {
			t.Fatalf("no tool %s", tc.tool)
		}
		for _, p := range []struct{ path, code string }{{"gone/missing.txt", tool.CodeNotFound}, {"adir", tool.CodeInvalid}} {
			args := map[string]any{"path": p.path}
			for k, v := range tc.args {
				args[k] = v
			}
			_, err := tooltest.Run(t, tl, args)
			te, ok := tool.AsError(err)
			if !ok || te.Code != p.code || te.Field != "path" || !strings.Contains(te.Message, p.path) || strings.Contains(te.Message+te.Hint, root) {
				t.Errorf("%s path=%s: want %s on path naming it, got %#v", tc.tool, p.path, p.code, err)
			}
		}
	}
}
