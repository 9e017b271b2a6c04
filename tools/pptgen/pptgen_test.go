package pptgen_test

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/pptgen"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func writePNG(t *testing.T, path string) {
	img := image.NewRGBA(image.Rect(0, 0, 320, 160))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, b.Bytes(), 0o644)
}

// TestContract: the tool builds and its declaration validates.
func TestContract(t *testing.T) {
	tooltest.Build(t, pptgen.New, tooltest.Deps(t))
}

func TestErrors(t *testing.T) {
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, pptgen.New, d)
	many := make([]any, 20)
	for i := range many {
		many[i] = []any{"a", "b"}
	}
	cases := []struct {
		name string
		args map[string]any
		msg  string
	}{
		{"nothing", map[string]any{}, "exactly one of"},
		{"bad colour", map[string]any{"text": "# x", "theme_color": "navy"}, "not a hex colour"},
		{"bad layout", map[string]any{"slides": []any{map[string]any{"layout": "chart"}}}, "not allowed"},
		{"image without path", map[string]any{"slides": []any{map[string]any{"layout": "image", "title": "x"}}}, "slides[0] (image): needs image"},
		{"missing image", map[string]any{"slides": []any{map[string]any{"image": "nope.png"}}}, "nope.png"},
		{"empty two column", map[string]any{"slides": []any{map[string]any{"layout": "two_column", "title": "x"}}}, "needs left or right"},
		{"huge table", map[string]any{"slides": []any{map[string]any{"title": "T", "rows": many}}}, "20 rows"},
		{"empty outline", map[string]any{"text": "just words? no"}, ""},
		{"bad aspect", map[string]any{"text": "# x", "aspect": "21:9"}, "not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tooltest.Run(t, tl, c.args)
			if c.name == "empty outline" {
				// A paragraph alone is one bullets slide: accepted.
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			te, ok := tool.AsError(err)
			if !ok {
				t.Fatalf("want a tool error, got %v", err)
			}
			if !strings.Contains(te.Message, c.msg) {
				t.Errorf("message %q lacks %q", te.Message, c.msg)
			}
		})
	}
}

func TestDeckAndPDF(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, pptgen.New, d)
	writePNG(t, filepath.Join(d.Sandbox.Root(), "img", "chart.png"))
	res, err := tooltest.Run(t, tl, map[string]any{
		"title": "季度回顾 Q3 Review", "subtitle": "Sales team · 2026", "theme_color": "C00000", "pdf": true,
		"slides": []any{
			map[string]any{"title": "Agenda 议程", "bullets": []any{"Results", "  Revenue up **15%**", "Next steps"}, "notes": "Keep it short. 简短。"},
			map[string]any{"layout": "section", "title": "Results 结果"},
			map[string]any{"title": "Pros and cons", "left_title": "Pros", "left": []any{"Fast"}, "right_title": "Cons", "right": []any{"Costly 昂贵"}},
			map[string]any{"title": "Trend", "image": "img/chart.png", "caption": "Monthly revenue 月收入"},
			map[string]any{"title": "Regions", "header": []any{"Region", "金额"}, "rows": []any{[]any{"East 华东", "120"}, []any{"South", "80"}}},
			map[string]any{"layout": "closing", "title": "Thanks 谢谢", "subtitle": "Questions?"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := res.Data.(map[string]any)
	if data["slides"] != 7 || data["slides_with_notes"] != 1 {
		t.Fatalf("data %v", data)
	}
	kinds := strings.Join(data["kinds"].([]string), ",")
	if kinds != "title,bullets,section,two_column,image,table,closing" {
		t.Errorf("kinds %s", kinds)
	}
	if len(res.Files) != 2 {
		t.Fatalf("files %+v", res.Files)
	}
	// Notes are in the package (LibreOffice does not print them).
	zr, _ := zip.OpenReader(res.Files[0].Path)
	for _, f := range zr.File {
		if f.Name == "ppt/notesSlides/notesSlide2.xml" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			if !strings.Contains(string(b), "Keep it short. 简短。") {
				t.Error("notes text missing")
			}
		}
	}
	zr.Close()
	pdf := res.Files[1].Path
	officetest.Validate(t, pdf)
	text := officetest.Text(t, pdf)
	officetest.InOrder(t, text, "季度回顾 Q3 Review", "Sales team · 2026", "Agenda 议程", "Results", "Revenue up 15%", "Next steps",
		"Results 结果", "Pros and cons", "Pros", "Fast", "Trend", "Monthly revenue 月收入", "Regions", "Region", "金额", "East 华东", "120", "South", "80", "Thanks 谢谢", "Questions?")
	officetest.InOrder(t, text, "Cons", "Costly 昂贵", "Trend")
	if n := officetest.Pages(t, pdf); n != 7 {
		t.Errorf("pages = %d, want 7", n)
	}
}

func TestMarkdownPath(t *testing.T) {
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, pptgen.New, d)
	root := d.Sandbox.Root()
	writePNG(t, filepath.Join(root, "talk", "pic.png"))
	os.WriteFile(filepath.Join(root, "talk", "outline.md"), []byte("# Talk\n\n## One\n- a\n\n## Pic\n![p](pic.png)\n\n## Thank you\n"), 0o644)
	res := tooltest.OK(t, tl, map[string]any{"path": "talk/outline.md", "aspect": "4:3", "output": "talk/deck"})
	if !strings.HasSuffix(res.Files[0].Path, filepath.Join("talk", "deck.pptx")) {
		t.Errorf("path %s", res.Files[0].Path)
	}
	if k := strings.Join(res.Data.(map[string]any)["kinds"].([]string), ","); k != "title,bullets,image,closing" {
		t.Errorf("kinds %s", k)
	}
	if _, err := exec.LookPath("soffice"); err == nil || tooltest.RequirePrograms() {
		pdfs := officetest.ToPDF(t, res.Files[0].Path)
		officetest.InOrder(t, officetest.Text(t, pdfs[0]), "Talk", "One", "a", "Thank you")
		if n := officetest.Pages(t, pdfs[0]); n != 4 {
			t.Errorf("pages = %d, want 4", n)
		}
		if out := officetest.Info(t, pdfs[0], ""); !strings.Contains(out, "Page size:       720 x 540 pts") {
			t.Errorf("not 4:3:\n%s", out)
		}
	}
	// Second run to the same output without overwrite must refuse.
	_, err := tooltest.Run(t, tl, map[string]any{"path": "talk/outline.md", "output": "talk/deck.pptx"})
	if te, ok := tool.AsError(err); !ok || te.Code != tool.CodeExists {
		t.Fatalf("want already_exists, got %v", err)
	}
}
