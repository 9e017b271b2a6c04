package ocr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

var (
	zhLines = []string{"今天天气很好，我们去公园散步。", "识别图片中的中文文字。"}
	enLines = []string{"The quick brown fox jumps over", "the lazy dog 1234567890."}
)

// TestOCR_ImageChineseAndEnglish: an image rendered from known Chinese and
// English text comes back as that text (CER under 5%) with the default
// chi_sim+eng, and words carry boxes inside the image and confidences.
func TestOCR_ImageChineseAndEnglish(t *testing.T) {
	tl, d := newTool(t, "")
	font := tooltest.CJKFont(t)
	lines := append(append([]string{}, zhLines...), enLines...)
	img := renderText(t, font, lines, 40, 0, 1)
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "scan.png"), img)
	res := tooltest.OK(t, tl, map[string]any{"path": "scan.png", "detail": "words"})
	p := pageOf(t, res, 0)
	want := strings.Join(lines, "\n")
	if e := cer(want, p.Text); e > 0.05 {
		t.Fatalf("CER %.3f over 0.05: got %q", e, p.Text)
	}
	if p.Width != img.Bounds().Dx() || p.Height != img.Bounds().Dy() {
		t.Errorf("page size %dx%d, want the image's %v", p.Width, p.Height, img.Bounds().Size())
	}
	if len(p.Words) < 8 {
		t.Fatalf("only %d words", len(p.Words))
	}
	for _, w := range p.Words {
		b := w.Box
		if b.Left < 0 || b.Top < 0 || b.Width <= 0 || b.Height <= 0 || b.Left+b.Width > p.Width || b.Top+b.Height > p.Height {
			t.Errorf("word %q box %+v outside the %dx%d image", w.Text, b, p.Width, p.Height)
		}
		if w.Confidence < 0 || w.Confidence > 100 {
			t.Errorf("word %q confidence %v", w.Text, w.Confidence)
		}
	}
	// The first word sits on the first line: its box is in the top quarter.
	if p.Words[0].Box.Top > p.Height/4 {
		t.Errorf("first word %q at top %d, want the first line", p.Words[0].Text, p.Words[0].Box.Top)
	}
}

// TestOCR_LinesAndParagraphs: lines come back one per drawn line, in order,
// with boxes that stack downwards; boxes of an upscaled small image are in
// the input's own pixels.
func TestOCR_LinesAndParagraphs(t *testing.T) {
	tl, d := newTool(t, "")
	img := renderText(t, tooltest.CJKFont(t), enLines, 16, 0, 1) // small: upscaled by preprocessing
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "small.png"), img)
	res := tooltest.OK(t, tl, map[string]any{"path": "small.png", "detail": "lines", "lang": "eng"})
	p := pageOf(t, res, 0)
	if len(p.Lines) != len(enLines) {
		t.Fatalf("%d lines, want %d: %+v", len(p.Lines), len(enLines), p.Lines)
	}
	for i, l := range p.Lines {
		if e := cer(enLines[i], l.Text); e > 0.1 {
			t.Errorf("line %d %q, want %q", i, l.Text, enLines[i])
		}
		if l.Box.Top+l.Box.Height > p.Height || l.Box.Left+l.Box.Width > p.Width {
			t.Errorf("line %d box %+v outside %dx%d (not scaled back?)", i, l.Box, p.Width, p.Height)
		}
		if i > 0 && l.Box.Top <= p.Lines[i-1].Box.Top {
			t.Errorf("line %d not below line %d", i, i-1)
		}
	}
	res = tooltest.OK(t, tl, map[string]any{"path": "small.png", "detail": "paragraphs", "lang": "eng"})
	if pp := pageOf(t, res, 0).Paragraphs; len(pp) == 0 || !strings.Contains(pp[0].Text, "quick brown") {
		t.Errorf("paragraphs: %+v", pp)
	}
}

// TestOCR_PDFPagesWithProgress: PDF pages are rendered at 300 dpi and
// recognised one by one with a progress report per page; the text agrees
// with what poppler's pdftotext reads from the same pages' text layer.
func TestOCR_PDFPagesWithProgress(t *testing.T) {
	tl, d := newTool(t, "")
	pdftotext := tooltest.NeedProgram(t, "pdftoppm")
	_ = pdftotext
	src := tooltest.ReadFile(t, "../../fixtures/pdf/chinese.pdf")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "doc.pdf"), src)
	res, progress, err := tooltest.RunProgress(t, tl, map[string]any{"path": "doc.pdf", "pages": "1-2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 3 || progress[0] != "page 1 of 2" || progress[1] != "page 2 of 2" {
		t.Errorf("progress %q, want one report per page and done", progress)
	}
	data := res.Data.(map[string]any)
	if data["page_count"] != 3 {
		t.Errorf("page_count %v, want 3", data["page_count"])
	}
	want := []string{"第一页 Page One\n这是一个中文测试文档。PDF text extraction must keep Chinese: 你好，世界。", "第二页 Page Two\n合同编号 2026-001，金额壹万贰仟元整。"}
	for i, w := range want {
		p := pageOf(t, res, i)
		if p.Page != i+1 {
			t.Errorf("page %d numbered %d", i+1, p.Page)
		}
		// A4 at 300 dpi.
		if p.Width < 2470 || p.Width > 2490 || p.Height < 3500 || p.Height > 3515 {
			t.Errorf("page %d is %dx%d, want A4 at 300 dpi", p.Page, p.Width, p.Height)
		}
		if e := cer(w, p.Text); e > 0.12 { // rare characters (壹, 仟) are the misses
			t.Errorf("page %d CER %.3f: %q", p.Page, e, p.Text)
		}
	}
}

// TestOCR_BigInputsRefusedFirst: an image over max_pixels, a PDF asking for
// more pages than max_pages, a page over the pixel limit and an image over
// limits.image_mb are refused with too_large before any program runs.
func TestOCR_BigInputsRefusedFirst(t *testing.T) {
	tl, d := newTool(t, "max_pixels: 10000\nmax_pages: 1")
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "big.png"), renderText(t, tooltest.CJKFont(t), enLines, 20, 0, 1))
	src, _ := os.ReadFile("../../fixtures/pdf/chinese.pdf")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "doc.pdf"), src)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "big.png"}, "pixel limit"},
		{map[string]any{"path": "doc.pdf"}, "above the 1 page limit"},
		{map[string]any{"path": "doc.pdf", "pages": "2"}, "page 2 is"},
	} {
		_, err := tooltest.Run(t, tl, tc.args)
		if te := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(te.Message, tc.want) {
			t.Errorf("%v: %q, want %q", tc.args, te.Message, tc.want)
		}
	}
	d.Config.Limits.ImageMB = 0
	_, err := tooltest.Run(t, tl, map[string]any{"path": "big.png"})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
}

// TestOCR_BadInput: an unknown or uninstalled language, pages on an image,
// a bad page range, a missing file, a path outside the workspace and a file
// that is no image are clear tool errors naming the field.
func TestOCR_BadInput(t *testing.T) {
	tl, d := newTool(t, "")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "note.txt"), []byte("not an image"))
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "a.png"), renderText(t, tooltest.CJKFont(t), enLines, 20, 0, 1))
	src, _ := os.ReadFile("../../fixtures/pdf/chinese.pdf")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "doc.pdf"), src)
	for _, tc := range []struct {
		args        map[string]any
		code, field string
	}{
		{map[string]any{"path": "a.png", "lang": "eng;rm"}, tool.CodeInvalid, "lang"},
		{map[string]any{"path": "a.png", "lang": "eng+klingon"}, tool.CodeUnavailable, "lang"},
		{map[string]any{"path": "a.png", "pages": "1"}, tool.CodeInvalid, "pages"},
		{map[string]any{"path": "doc.pdf", "pages": "2-9"}, tool.CodeInvalid, "pages"},
		{map[string]any{"path": "doc.pdf", "pages": "x"}, tool.CodeInvalid, "pages"},
		{map[string]any{"path": "nope.png"}, tool.CodeNotFound, "path"},
		{map[string]any{"path": "../../etc/passwd"}, tool.CodeDenied, "path"},
		{map[string]any{"path": "note.txt"}, tool.CodeInvalid, "path"},
	} {
		_, err := tooltest.Run(t, tl, tc.args)
		if te := tooltest.ToolError(t, err, tc.code); te.Field != tc.field {
			t.Errorf("%v: field %q, want %q (%v)", tc.args, te.Field, tc.field, te)
		}
	}
}

// TestOCR_OutputSavedAtomically: output saves the text to a .txt in the
// workspace (a default name in outputs/ when only overwrite rules apply),
// and an existing file is not replaced without overwrite.
func TestOCR_OutputSavedAtomically(t *testing.T) {
	tl, d := newTool(t, "")
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "a.png"), renderText(t, tooltest.CJKFont(t), enLines, 32, 0, 1))
	res := tooltest.OK(t, tl, map[string]any{"path": "a.png", "lang": "eng", "output": "out/a.txt"})
	got, err := os.ReadFile(filepath.Join(d.Sandbox.Root(), "out/a.txt"))
	if err != nil || !strings.Contains(string(got), "quick brown") || len(res.Files) != 1 {
		t.Fatalf("saved %q (%v), files %v", got, err, res.Files)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"path": "a.png", "lang": "eng", "output": "out/a.txt"})
	tooltest.ToolError(t, err, tool.CodeExists)
}

// TestOCR_MissingProgram: without tesseract on PATH the tool answers
// unavailable naming the Debian package.
func TestOCR_MissingProgram(t *testing.T) {
	tl, d := newTool(t, "")
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), "a.png"), renderText(t, tooltest.CJKFont(t), enLines, 20, 0, 1))
	t.Setenv("PATH", t.TempDir())
	_, err := tooltest.Run(t, tl, map[string]any{"path": "a.png", "lang": "eng"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Message+te.Hint, "tesseract-ocr") {
		t.Errorf("%v does not name tesseract-ocr", te)
	}
}

// TestOCR_TSVParse: tesseract's TSV rows become words in order, rows of
// other levels, empty text and malformed rows are skipped, and Chinese
// characters join without spaces while English words keep theirs.
func TestOCR_TSVParse(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t10\t10\t20\t20\t96.5\t你好\n" +
		"5\t1\t1\t1\t1\t2\t32\t10\t20\t20\t90\t世界\n" +
		"5\t1\t1\t1\t1\t3\t54\t10\t40\t20\t80\tHello\n" +
		"5\t1\t1\t1\t1\t4\t96\t10\t40\t20\t70\tworld\n" +
		"5\t1\t1\t1\t2\t1\tx\t10\t40\t20\t70\tbad\n" +
		"5\t1\t1\t2\t1\t1\t10\t50\t40\t20\t-1\t \n" +
		"5\t1\t2\t1\t1\t1\t10\t90\t40\t20\t60\tNext\n"
	ws := parseTSV(tsv, 2)
	if len(ws) != 5 {
		t.Fatalf("%d words: %+v", len(ws), ws)
	}
	if ws[0].box != (Box{5, 5, 10, 10}) {
		t.Errorf("box not scaled back: %+v", ws[0].box)
	}
	if got := pageText(ws); got != "你好世界 Hello world\n\nNext" {
		t.Errorf("text %q", got)
	}
	lines := group(ws, func(w word) [3]int { return w.line })
	if len(lines) != 2 || lines[0].Confidence != 84.1 || lines[0].Box != (Box{5, 5, 63, 10}) {
		t.Errorf("lines %+v", lines)
	}
}

func FuzzParseTSV(f *testing.F) {
	f.Add("5\t1\t1\t1\t1\t1\t10\t10\t20\t20\t96.5\t你好\n")
	f.Fuzz(func(t *testing.T, s string) {
		ws := parseTSV(s, 1.5)
		_ = pageText(ws)
		_ = group(ws, func(w word) [3]int { return w.par })
	})
}
