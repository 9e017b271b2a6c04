package tools_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestInputFiles_OneAnswerPerFailure: the tools that read a workspace file
// named in a path argument answer a missing one with not_found and a
// directory or a pipe with invalid_argument, all on that field, naming the
// file as given and never by its host path (tool.ReadRegular, the one input
// reader). The tools that also take a folder (knowledge_rag, analyze) are
// asked only about a missing one.
func TestInputFiles_OneAnswerPerFailure(t *testing.T) {
	d := tooltest.Deps(t)
	byName := toolsByName(t, d)
	root := d.Sandbox.Root()
	if err := os.MkdirAll(filepath.Join(root, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "apipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		field   string // default path
		folders bool   // a folder is an input too
	}{
		{tool: "calendar", args: map[string]any{"action": "import_ics"}},
		{tool: "finance", args: map[string]any{"action": "import"}},
		{tool: "resume_builder", args: map[string]any{}},
		{tool: "doc_generator", args: map[string]any{}},
		{tool: "ppt_generator", args: map[string]any{}},
		{tool: "mind_map", args: map[string]any{}},
		{tool: "ai_writer", args: map[string]any{"action": "summarise"}},
		{tool: "format_converter", args: map[string]any{"action": "convert", "to": "html"}},
		{tool: "pdf_tool", args: map[string]any{"action": "info"}},
		{tool: "coding_assistant", args: map[string]any{"action": "format"}},
		{tool: "coding_assistant", args: map[string]any{"action": "analyze"}, folders: true},
		{tool: "knowledge_rag", args: map[string]any{"action": "index"}, field: "paths", folders: true},
	} {
		tl, ok := byName[tc.tool]
		if !ok {
			t.Fatalf("no tool %s", tc.tool)
		}
		field := tc.field
		if field == "" {
			field = "path"
		}
		cases := []struct{ path, code string }{{"gone/missing.txt", tool.CodeNotFound}}
		if !tc.folders {
			cases = append(cases, struct{ path, code string }{"adir", tool.CodeInvalid}, struct{ path, code string }{"apipe", tool.CodeInvalid})
		}
		for _, p := range cases {
			args := map[string]any{field: p.path}
			if field == "paths" {
				args[field] = []any{p.path}
			}
			for k, v := range tc.args {
				args[k] = v
			}
			_, err := tooltest.Run(t, tl, args)
			te, ok := tool.AsError(err)
			if !ok || te.Code != p.code || te.Field != field || !strings.Contains(te.Message, p.path) || strings.Contains(te.Message+te.Hint, root) {
				t.Errorf("%s %v: want %s on %s naming %s, got %#v", tc.tool, args, p.code, field, p.path, err)
			}
		}
	}
}
