package docout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawbridge/tools/docout"
	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Quarterly Report: Q3!": "quarterly-report-q3", "季度 报告": "季度-报告", "  ": "def", "../../x": "x"} {
		if got := docout.Slug(in, "def"); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTarget(t *testing.T) {
	d := tooltest.Deps(t)
	sb := d.Sandbox
	p, err := docout.Target(sb, "", "report", ".docx", false)
	if err != nil || p != filepath.Join(sb.Root(), "outputs", "report.docx") {
		t.Fatalf("%s %v", p, err)
	}
	os.WriteFile(p, []byte("x"), 0o644)
	p2, err := docout.Target(sb, "", "report", ".docx", false)
	if err != nil || p2 == p || !strings.HasSuffix(p2, ".docx") {
		t.Fatalf("default name not made unique: %s %v", p2, err)
	}
	if _, err := docout.Target(sb, "outputs/report.docx", "", ".docx", false); err == nil {
		t.Fatal("existing output accepted without overwrite")
	} else if te, _ := tool.AsError(err); te.Code != tool.CodeExists {
		t.Fatalf("code %v", err)
	}
	if _, err := docout.Target(sb, "outputs/report.docx", "", ".docx", true); err != nil {
		t.Fatal(err)
	}
	if p, err := docout.Target(sb, "a/b", "", ".pptx", false); err != nil || !strings.HasSuffix(p, filepath.Join("a", "b.pptx")) {
		t.Fatalf("extension not added: %s %v", p, err)
	}
	if _, err := docout.Target(sb, "x.pdf", "", ".docx", false); err == nil {
		t.Fatal("wrong extension accepted")
	}
	if _, err := docout.Target(sb, "/etc/passwd.docx", "", ".docx", false); err == nil {
		t.Fatal("path outside the workspace accepted")
	}
	f, err := docout.Save(filepath.Join(sb.Root(), "s.md"), []byte("# hi"))
	if err != nil || f.Size != 4 || !strings.HasPrefix(f.MIME, "text/markdown") {
		t.Fatalf("%+v %v", f, err)
	}
}
