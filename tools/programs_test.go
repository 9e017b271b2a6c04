package tools_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestPrograms_MissingIsOneError: with no program on PATH, every tool that
// runs one answers the same error, unavailable, naming the program and the
// Debian package its own Programs (what `clawbridge doctor` checks) give
// for it; so the model reads one thing whichever tool it called.
func TestPrograms_MissingIsOneError(t *testing.T) {
	d := tooltest.Deps(t)
	ws := d.Sandbox.Roots()[0]
	pdf := tooltest.ReadFile(t, "../fixtures/pdf/chinese.pdf")
	tooltest.WriteFile(t, filepath.Join(ws, "in.pdf"), pdf)
	tooltest.WriteFile(t, filepath.Join(ws, "in.docx"), []byte("not read: the program is missing first"))
	tooltest.WriteFile(t, filepath.Join(ws, "run.sh"), []byte("echo  hi\n"))
	byName := toolsByName(t, d)
	t.Setenv("PATH", t.TempDir()) // nothing on it
	cases := []struct {
		tool    string
		args    map[string]any
		program string
	}{
		{"pdf_tool", map[string]any{"action": "extract_text", "path": "in.pdf"}, "pdftotext"},
		{"format_converter", map[string]any{"action": "convert", "path": "in.docx", "to": "pdf"}, "soffice"},
		{"format_converter", map[string]any{"action": "convert", "path": "in.pdf", "to": "docx"}, "soffice"},
		{"ocr", map[string]any{"path": "in.pdf"}, "tesseract"},
		{"coding_assistant", map[string]any{"action": "format", "path": "run.sh"}, "shfmt"},
		{"speech", map[string]any{"action": "synthesize", "text": "hello", "output": "hello.wav"}, "espeak-ng"},
		{"speech", map[string]any{"action": "info", "path": "in.pdf"}, "ffprobe"},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+tc.program, func(t *testing.T) {
			tl, ok := byName[tc.tool]
			if !ok {
				t.Fatalf("no tool %s", tc.tool)
			}
			pkg := tl.Programs[tc.program]
			if pkg == "" {
				t.Fatalf("%s's Programs do not name %s", tc.tool, tc.program)
			}
			_, err := tooltest.Run(t, tl, tc.args)
			te := tooltest.ToolError(t, err, tool.CodeUnavailable)
			if te.Message != tc.program+" is not installed on the server" || !strings.Contains(te.Hint, "apt-get install "+pkg) {
				t.Fatalf("error = %q (hint %q), want %s named with package %q", te.Message, te.Hint, tc.program, pkg)
			}
		})
	}
}

// TestPrograms_FromTheOneTable: every tool's Programs name the package the
// one table (tool.Package) gives, which is also what a run through Deps
// names when the program is missing: doctor and the tools cannot disagree.
func TestPrograms_FromTheOneTable(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	for _, tl := range all {
		for prog, pkg := range tl.Programs {
			if pkg == "" || pkg != tool.Package(prog) {
				t.Errorf("%s: Programs[%s] = %q, the table says %q", tl.Name, prog, pkg, tool.Package(prog))
			}
		}
	}
}
