package docgen_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/docgen"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func writePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.Set(0, 0, color.Black)
	var b bytes.Buffer
	png.Encode(&b, img)
	os.MkdirAll(filepath.Dir(path), 0o755)
	tooltest.WriteFile(t, path, b.Bytes())
}

// TestContract: the tool builds and its declaration validates.
func TestContract(t *testing.T) {
	tooltest.Build(t, docgen.New, tooltest.Deps(t))
}

func TestErrors(t *testing.T) {
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, docgen.New, d)
	writePNG(t, filepath.Join(d.Sandbox.Root(), "img", "a.png"), 10, 10)
	os.WriteFile(filepath.Join(d.Sandbox.Root(), "taken.docx"), []byte("x"), 0o644)
	cases := []struct {
		name  string
		args  map[string]any
		field string
		msg   string
	}{
		{"nothing", map[string]any{}, "text", "exactly one of"},
		{"two sources", map[string]any{"text": "# a", "blocks": []any{map[string]any{"type": "page_break"}}}, "text", "exactly one of"},
		{"empty md", map[string]any{"text": "   "}, "text", "empty"},
		{"missing image", map[string]any{"text": "![x](nope.png)"}, "text", "nope.png"},
		{"remote image", map[string]any{"text": "![x](https://example.com/a.png)"}, "text", "not fetched"},
		{"outside image", map[string]any{"text": "![x](../../etc/passwd)"}, "text", "outside"},
		{"bad block", map[string]any{"blocks": []any{map[string]any{"type": "chart"}}}, "blocks", "chart"},
		{"heading without text", map[string]any{"blocks": []any{map[string]any{"type": "heading"}}}, "blocks", "blocks[0] (heading) needs text"},
		{"bad image block", map[string]any{"blocks": []any{map[string]any{"type": "image", "path": "missing.png"}}}, "blocks", "missing.png"},
		{"exists", map[string]any{"text": "hi", "output": "taken.docx"}, "output", "already exists"},
		{"wrong ext", map[string]any{"text": "hi", "output": "a.pdf"}, "output", ".docx"},
		{"outside output", map[string]any{"text": "hi", "output": "/etc/x.docx"}, "output", "outside"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			te := tooltest.Refused(t, tl, c.args)
			if te.Field != c.field && te.Field != "" {
				t.Errorf("field %q, want %q", te.Field, c.field)
			}
			if !strings.Contains(te.Message, c.msg) {
				t.Errorf("message %q lacks %q", te.Message, c.msg)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(d.Sandbox.Root(), "taken.docx")); string(b) != "x" {
		t.Error("existing file was changed")
	}
}

func TestGenerateAndReadBack(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, docgen.New, d)
	root := d.Sandbox.Root()
	writePNG(t, filepath.Join(root, "notes", "chart.png"), 800, 400)
	md := "# 销售报告 Sales\n\n本季度销售额增长 **15%**。See [site](https://example.com).\n\n![chart](chart.png \"图 1 销售趋势\")\n\n- 华东\n- 华南\n\n| 区域 | 金额 |\n|---|---:|\n| 华东 | 100 |\n\n<!-- pagebreak -->\n\n## 结论\n\n继续保持。\n"
	os.WriteFile(filepath.Join(root, "notes", "report.md"), []byte(md), 0o644)

	// Markdown file with a relative image, TOC, PDF copy.
	res := tooltest.OK(t, tl, map[string]any{"path": "notes/report.md", "title": "季度报告", "toc": true, "pdf": true, "header": "内部资料"})
	if len(res.Files) != 2 || !strings.HasSuffix(res.Files[0].Path, ".docx") || !strings.HasSuffix(res.Files[1].Path, ".pdf") {
		t.Fatalf("files: %+v", res.Files)
	}
	data := res.Data.(map[string]any)
	if data["images"] != 1 || data["tables"] != 1 || data["language"] != "zh-CN" || data["toc"] != true {
		t.Errorf("data: %v", data)
	}
	pdf := res.Files[1].Path
	officetest.Validate(t, pdf)
	text := officetest.Text(t, pdf)
	officetest.InOrder(t, text, "内部资料", "季度报告", "目录", "销售报告 Sales", "本季度销售额增长 15%。See site.", "图 1 销售趋势", "华东", "华南", "区域", "金额", "华东", "100", "结论", "继续保持。")
	officetest.InOrder(t, text, "第 1 页 / 共 2 页")
	if n := officetest.Pages(t, pdf); n != 2 {
		t.Errorf("pages = %d, want 2", n)
	}

	// Structured blocks, read back by LibreOffice.
	res, err := tooltest.Run(t, tl, map[string]any{
		"output": "out/blocks.docx", "title": "Status Update", "footer": "ACME",
		"blocks": []any{
			map[string]any{"type": "heading", "text": "Overview", "level": 1},
			map[string]any{"type": "paragraph", "text": "All **green** this week.", "align": "justify"},
			map[string]any{"type": "bullets", "items": []any{"Backend", "  API done", "  DB migrated", "Frontend"}},
			map[string]any{"type": "numbered", "items": []any{"Plan", "Build", "Ship"}},
			map[string]any{"type": "table", "header": []any{"Task", "Owner"}, "rows": []any{[]any{"Deploy", "Li Lei"}, []any{"Docs", "韩梅梅"}}},
			map[string]any{"type": "image", "path": "notes/chart.png", "caption": "Burn-down", "width_mm": 80},
			map[string]any{"type": "page_break"},
			map[string]any{"type": "quote", "text": "Ship it."},
			map[string]any{"type": "code", "text": "make deploy"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files[0].Path != filepath.Join(root, "out", "blocks.docx") {
		t.Fatalf("output path %s", res.Files[0].Path)
	}
	pdfs := officetest.ToPDF(t, res.Files[0].Path)
	text = officetest.Text(t, pdfs[0])
	officetest.InOrder(t, text, "Status Update", "Overview", "All green this week.", "Backend", "API done", "DB migrated", "Frontend",
		"1.", "Plan", "2.", "Build", "3.", "Ship", "Task", "Owner", "Deploy", "Li Lei", "Docs", "韩梅梅", "Burn-down", "Ship it.", "make deploy", "ACME")
	if n := officetest.Pages(t, pdfs[0]); n != 2 {
		t.Errorf("pages = %d, want 2", n)
	}
	officetest.Validate(t, pdfs[0])
}
