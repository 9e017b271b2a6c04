package resume_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/browser/browsertest"
	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/resume"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// withBrowser gives the deps a real Chromium PDF renderer, or skips.
func withBrowser(t *testing.T, d *tool.Deps) {
	t.Helper()
	cfg := browser.DefaultConfig()
	cfg.IdleTimeout = 0
	cfg.DownloadDir = t.TempDir()
	m := browser.New(cfg, d.Guard, zerolog.Nop())
	browsertest.Need(t, m)
	t.Cleanup(m.Close)
	d.PDF = m
}

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	d := tooltest.Deps(t)
	return tooltest.Build(t, resume.New, d), d
}

func copySample(t *testing.T, root string) {
	b := tooltest.ReadFile(t, "../../fixtures/resume/sample.resume.json")
	os.WriteFile(filepath.Join(root, "resume.json"), b, 0o644)
}

func TestErrors(t *testing.T) {
	tl, d := newTool(t)
	os.WriteFile(filepath.Join(d.Sandbox.Root(), "bad.json"), []byte("{not json"), 0o644)
	cases := []struct {
		name string
		args map[string]any
		msg  []string
	}{
		{"nothing", map[string]any{}, []string{"exactly one of"}},
		{"bad email", map[string]any{"resume": map[string]any{"basics": map[string]any{"name": "A", "email": "not-an-email"}}}, []string{"/basics/email", "email"}},
		{"bad url and type", map[string]any{"resume": map[string]any{"basics": map[string]any{"name": "A", "url": "::nope"}, "work": map[string]any{"name": "x"}}}, []string{"/basics/url", "/work"}},
		{"bad date", map[string]any{"resume": map[string]any{"basics": map[string]any{"name": "A"}, "work": []any{map[string]any{"name": "X", "startDate": "March 2020"}}}}, []string{"/work/0/startDate"}},
		{"no name", map[string]any{"fields": map[string]any{"title": "Engineer"}}, []string{"no name"}},
		{"bad json file", map[string]any{"path": "bad.json"}, []string{"not valid JSON"}},
		{"missing file", map[string]any{"path": "none.json"}, []string{"none.json does not exist"}},
		{"bad format", map[string]any{"fields": map[string]any{"name": "A"}, "formats": []any{"odt"}}, []string{"not allowed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			te := tooltest.Refused(t, tl, c.args)
			for _, m := range c.msg {
				if !strings.Contains(te.Message, m) {
					t.Errorf("%q lacks %q", te.Message, m)
				}
			}
		})
	}
}

func TestSampleAllFormats(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	tl, d := newTool(t)
	withBrowser(t, d)
	copySample(t, d.Sandbox.Root())
	res := tooltest.OK(t, tl, map[string]any{"path": "resume.json", "formats": []any{"docx", "pdf", "html", "md", "txt"}, "theme": "classic", "output": "cv/richard"})
	got := map[string]string{}
	for _, f := range res.Files {
		got[filepath.Ext(f.Path)] = f.Path
	}
	if len(got) != 5 || got[".docx"] != filepath.Join(d.Sandbox.Root(), "cv", "richard.docx") {
		t.Fatalf("files %v", got)
	}
	if res.Data.(map[string]any)["pdf_renderer"] != "chromium" {
		t.Errorf("data %v", res.Data)
	}
	txt, _ := os.ReadFile(got[".txt"])
	for _, want := range []string{"Richard Hendriks\nProgrammer\n", "\nEXPERIENCE\n", "CEO/President, Pied Piper\n2013-12 – 2014-12\n", "- Build an algorithm for artist to detect if their music was violating copy right infringement laws\n", "\nEDUCATION\n"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("txt lacks %q:\n%s", want, txt)
		}
	}
	if strings.ContainsAny(string(txt), "|<>*#") {
		t.Errorf("ATS text has markup characters:\n%s", txt)
	}
	html, _ := os.ReadFile(got[".html"])
	if !strings.Contains(string(html), "<h1>Richard Hendriks</h1>") || !strings.Contains(string(html), "Georgia") {
		t.Error("html: name or classic theme missing")
	}
	md, _ := os.ReadFile(got[".md"])
	if !strings.Contains(string(md), "### CEO/President — Pied Piper") {
		t.Errorf("md:\n%s", md)
	}
	// The Chromium PDF.
	pdf := got[".pdf"]
	officetest.Keep(t, pdf)
	officetest.Validate(t, pdf)
	text := officetest.Text(t, pdf)
	// The classic theme prints section titles in capitals.
	officetest.InOrder(t, strings.ToLower(text), "richard hendriks", "programmer", "richard.hendriks@mail.com", "summary", "experience", "ceo/president", "pied piper", "education", "university of oklahoma", "skills", "web development")
	if n := officetest.Pages(t, pdf); n < 1 || n > 3 {
		t.Errorf("pdf pages = %d", n)
	}
	// The Word file, read by LibreOffice.
	pdfs := officetest.ToPDF(t, got[".docx"])
	text = officetest.Text(t, pdfs[0])
	officetest.InOrder(t, text, "Richard Hendriks", "Programmer", "Summary", "Experience", "CEO/President", "Pied Piper", "2013-12 – 2014-12", "Education", "University of Oklahoma", "Skills")
	officetest.Validate(t, pdfs[0])
}

func TestChineseSimpleFields(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	tl, _ := newTool(t)
	fields := map[string]any{
		"name": "李雷", "title": "高级后端工程师", "email": "lilei@example.com", "phone": "138-0000-0000", "location": "北京",
		"summary": "八年分布式系统开发经验。",
		"experience": []any{
			map[string]any{"company": "某某科技有限公司", "position": "技术负责人", "start": "2020-03", "highlights": []any{"主导支付系统重构", "团队规模十二人"}},
			map[string]any{"company": "示例网络公司", "position": "后端工程师", "start": "2016-07", "end": "2020-02"},
		},
		"education": []any{map[string]any{"school": "清华大学", "degree": "硕士", "field": "计算机科学", "start": "2013", "end": "2016"}},
		"skills":    []any{"Go", "PostgreSQL", "Kubernetes"},
		"languages": []any{"中文", "英语"},
	}
	// No browser in deps: the PDF falls back to LibreOffice.
	res := tooltest.OK(t, tl, map[string]any{"fields": fields, "formats": []any{"docx", "txt", "pdf"}, "theme": "compact"})
	data := res.Data.(map[string]any)
	if data["language"] != "zh" || data["pdf_renderer"] != "libreoffice" {
		t.Errorf("data %v", data)
	}
	var docxPath, pdfPath, txtPath string
	for _, f := range res.Files {
		switch filepath.Ext(f.Path) {
		case ".docx":
			docxPath = f.Path
		case ".pdf":
			pdfPath = f.Path
		case ".txt":
			txtPath = f.Path
		}
	}
	if strings.TrimSuffix(docxPath, ".docx") != strings.TrimSuffix(txtPath, ".txt") {
		t.Errorf("outputs do not share a stem: %s %s", docxPath, txtPath)
	}
	txt, _ := os.ReadFile(txtPath)
	for _, want := range []string{"李雷\n高级后端工程师\n", "工作经历", "技术负责人, 某某科技有限公司\n2020-03 – 至今\n- 主导支付系统重构\n", "教育背景", "硕士, 计算机科学, 清华大学"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("txt lacks %q:\n%s", want, txt)
		}
	}
	officetest.Keep(t, pdfPath)
	officetest.Validate(t, pdfPath)
	text := officetest.Text(t, pdfPath)
	officetest.InOrder(t, text, "李雷", "高级后端工程师", "个人简介", "八年分布式系统开发经验。", "工作经历", "技术负责人", "某某科技有限公司", "主导支付系统重构", "后端工程师",
		"教育背景", "清华大学", "专业技能", "Go, PostgreSQL, Kubernetes", "语言能力", "中文", "英语")
	if n := officetest.Pages(t, pdfPath); n != 1 {
		t.Errorf("pages = %d, want 1", n)
	}

	// Same call again: default names must not clobber the first files.
	res2 := tooltest.OK(t, tl, map[string]any{"fields": fields, "formats": []any{"md"}})
	if strings.TrimSuffix(res2.Files[0].Path, ".md") == strings.TrimSuffix(docxPath, ".docx") {
		// Fine only if no .md existed: ensure earlier files are untouched.
		if _, err := os.Stat(docxPath); err != nil {
			t.Error(err)
		}
	}
}
