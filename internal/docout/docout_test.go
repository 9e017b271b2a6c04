package docout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/docout"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Quarterly Report: Q3!": "quarterly-report-q3", "季度 报告": "季度-报告", "  ": "def", "../../x": "x"} {
		if got := docout.Slug(in, "def"); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// SaveOffice checks the document and its PDF copy before writing either:
// an existing PDF copy refuses the call and leaves no document behind.
func TestSaveOffice_RefusalWritesNothing(t *testing.T) {
	d := tooltest.Deps(t)
	sb := d.Sandbox
	c := tool.NewCall("generate", map[string]any{"output": "q3.docx"})
	os.WriteFile(filepath.Join(sb.Root(), "q3.pdf"), []byte("old"), 0o644)
	_, _, err := docout.SaveOffice(t.Context(), sb, c, []byte("docx"), "report", ".docx", true, jail.Run)
	if te, ok := tool.AsError(err); !ok || te.Code != tool.CodeExists || te.Field != "output" {
		t.Fatalf("want already_exists, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(sb.Root(), "q3.docx")); !os.IsNotExist(err) {
		t.Fatal("document written despite the refusal")
	}
	// Without a PDF copy the default name comes from the title.
	p, files, err := docout.SaveOffice(t.Context(), sb, tool.NewCall("generate", nil), []byte("docx"), docout.Slug("Q3 Report", "document"), ".docx", false, jail.Run)
	if err != nil || sb.Rel(p) != "outputs/q3-report.docx" || len(files) != 1 || !strings.Contains(files[0].MIME, "wordprocessingml") {
		t.Fatalf("%s %+v %v", p, files, err)
	}
}
