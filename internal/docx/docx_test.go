package docx_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/officetest"
)

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const sampleMD = `# Quarterly Report 季度报告

[TOC]

Intro with **bold words**, *italic words* and a [project link](https://example.com/p).

## Highlights 重点

- First bullet 第一条
  - Nested bullet
- Second bullet

1. Step one
2. Step two

| Name | 数量 | Price |
|------|:----:|------:|
| Apple | 三 | 1.50 |
| Pear | 5 | 2.00 |

![A chart](chart.png "Figure 1 图一")

<!-- pagebreak -->

## Appendix 附录

` + "```go\nfunc main() {}\n```" + `

中文段落：这是一个测试文档。
`

func TestFromMarkdownStructure(t *testing.T) {
	img := testPNG(t, 2000, 1000)
	data, err := docx.FromMarkdown([]byte(sampleMD), docx.Options{
		Title: "Report", Header: "ACME 公司", PageNumbers: true,
		LoadImage: func(src string) ([]byte, error) { return img, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	p := officetest.Parts(t, data)
	doc := p["word/document.xml"]
	for _, want := range []string{
		`<w:pStyle w:val="Heading1"/>`, `<w:pStyle w:val="Heading2"/>`,
		`TOC \o &quot;1-3&quot;`, `<w:br w:type="page"/>`, `<w:tblHeader/>`,
		`<w:numId w:val="1"/>`, `<w:ilvl w:val="1"/>`, `<w:b/>`, `<w:i/>`, `<w:hyperlink r:id=`,
		`<a:blip r:embed=`, `w:eastAsia="zh-CN"`, `<w:headerReference`, `<w:footerReference`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document.xml lacks %s", want)
		}
	}
	if !strings.Contains(p["word/styles.xml"], `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>`) ||
		!strings.Contains(p["word/styles.xml"], `<w:outlineLvl w:val="0"/>`) {
		t.Error("styles.xml lacks a real Heading1 style with an outline level")
	}
	if !strings.Contains(p["word/styles.xml"], `w:eastAsia="Microsoft YaHei"`) {
		t.Error("styles.xml lacks the East-Asian font")
	}
	if !strings.Contains(p["word/_rels/document.xml.rels"], `Target="https://example.com/p" TargetMode="External"`) {
		t.Error("hyperlink relationship missing")
	}
	if _, ok := p["word/media/image1.png"]; !ok {
		t.Error("image not embedded")
	}
	if !strings.Contains(p["word/footer1.xml"], `w:instr=" PAGE "`) {
		t.Error("footer lacks PAGE field")
	}
	// 2000px wide image must be scaled to the A4 text column (~6.27in).
	if strings.Contains(doc, `cx="19050000"`) {
		t.Error("image not scaled to the page")
	}
}

func TestImageFit(t *testing.T) {
	cases := []struct {
		w, h       int
		maxW, maxH int64
		wantW      int64
	}{
		{100, 50, 5000000, 0, 952500},           // small: unchanged
		{2000, 1000, 5000000, 0, 5000000},       // wide: width capped
		{1000, 4000, 5000000, 4000000, 1000000}, // tall: height capped
	}
	for _, c := range cases {
		cx, cy := docx.FitEMU(c.w, c.h, c.maxW, c.maxH)
		if cx != c.wantW {
			t.Errorf("FitEMU(%d,%d) width = %d, want %d", c.w, c.h, cx, c.wantW)
		}
		if r1, r2 := float64(cx)/float64(cy), float64(c.w)/float64(c.h); r1/r2 > 1.01 || r1/r2 < 0.99 {
			t.Errorf("aspect ratio changed: %v vs %v", r1, r2)
		}
	}
}

func TestMarkdownErrors(t *testing.T) {
	_, err := docx.FromMarkdown([]byte("![x](missing.png)"), docx.Options{})
	if err == nil || !strings.Contains(err.Error(), "missing.png") {
		t.Fatalf("want an error naming the image, got %v", err)
	}
	_, err = docx.FromMarkdown([]byte("![x](bad.png)"), docx.Options{LoadImage: func(string) ([]byte, error) { return []byte("not an image"), nil }})
	if err == nil || !strings.Contains(err.Error(), "unrecognised format") {
		t.Fatalf("want a format error, got %v", err)
	}
}

func TestInlineMarkdownLiteralBlocks(t *testing.T) {
	for in, want := range map[string]string{
		"1. Plan": "1. Plan", "2) Build": "2) Build", "- dash": "- dash", "+ plus": "+ plus", "# tag": "# tag",
		"> quoted": "> quoted", "---": "---", "**bold** start": "bold start", "* star": "* star", "#hashtag": "#hashtag",
	} {
		if got := docx.PlainText(docx.InlineMarkdown(in)); got != want {
			t.Errorf("InlineMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInlineMarkdown(t *testing.T) {
	runs := docx.InlineMarkdown("a **b** *c* [d](http://x) `e`")
	var got []string
	for _, r := range runs {
		switch {
		case r.Bold:
			got = append(got, "B:"+r.Text)
		case r.Italic:
			got = append(got, "I:"+r.Text)
		case r.Link != "":
			got = append(got, "L:"+r.Text+">"+r.Link)
		case r.Code:
			got = append(got, "C:"+r.Text)
		}
	}
	want := "B:b I:c L:d>http://x C:e"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %q want %q", strings.Join(got, " "), want)
	}
}

// TestLibreOfficeReadsBack is the fidelity test: LibreOffice opens the files
// and prints them; pdftotext must find the text in order.
func TestLibreOfficeReadsBack(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	dir := t.TempDir()
	img := testPNG(t, 600, 300)
	md, err := docx.FromMarkdown([]byte(sampleMD), docx.Options{
		Header: "ACME 公司", Footer: "Confidential", PageNumbers: true,
		LoadImage: func(string) ([]byte, error) { return img, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	blocks := []docx.Block{
		docx.Paragraph{Style: "Title", Runs: docx.Text("Blocks API 标题")},
		docx.Heading{Level: 1, Runs: docx.Text("Section One 第一节")},
		docx.Paragraph{Runs: docx.InlineMarkdown("Some **strong** text and 中文内容。")},
		docx.List{Ordered: true, Items: []docx.ListItem{{Runs: docx.Text("alpha")}, {Runs: docx.Text("beta")}}},
		docx.Table{Header: []docx.Cell{docx.Cell(docx.Text("Key")), docx.Cell(docx.Text("值"))}, Rows: [][]docx.Cell{{docx.Cell(docx.Text("k1")), docx.Cell(docx.Text("v1"))}}},
		docx.PageBreak{},
		docx.Heading{Level: 1, Runs: docx.Text("Section Two")},
		docx.PageBreak{},
		docx.Paragraph{Runs: docx.Text("Last page 最后一页")},
	}
	bd, err := docx.Write(blocks, docx.Options{Language: "zh-CN", PageNumbers: true, Landscape: true, PageSize: "Letter"})
	if err != nil {
		t.Fatal(err)
	}
	f1, f2 := filepath.Join(dir, "md.docx"), filepath.Join(dir, "blocks.docx")
	os.WriteFile(f1, md, 0o644)
	os.WriteFile(f2, bd, 0o644)
	pdfs := officetest.ToPDF(t, f1, f2)

	officetest.Keep(t, pdfs...)
	text := officetest.Text(t, pdfs[0])
	officetest.InOrder(t, text, "ACME 公司", "Quarterly Report 季度报告", "Contents",
		"Intro with bold words, italic words and a project link.",
		"Highlights 重点", "First bullet 第一条", "Nested bullet", "Second bullet", "Step one", "Step two",
		"Name", "数量", "Price", "Apple", "三", "1.50", "Pear", "Figure 1 图一",
		"Appendix 附录", "func main() {}", "中文段落：这是一个测试文档。")
	officetest.InOrder(t, text, "Page 1 of 2")
	if n := officetest.Pages(t, pdfs[0]); n != 2 {
		t.Errorf("markdown doc: %d pages, want 2 (one page break)", n)
	}
	officetest.Validate(t, pdfs[0])

	text = officetest.Text(t, pdfs[1])
	officetest.InOrder(t, text, "Blocks API 标题", "Section One 第一节", "Some strong text and 中文内容。",
		"alpha", "beta", "Key", "值", "k1", "v1", "Section Two", "Last page 最后一页")
	officetest.InOrder(t, text, "第 3 页 / 共 3 页")
	if n := officetest.Pages(t, pdfs[1]); n != 3 {
		t.Errorf("blocks doc: %d pages, want 3", n)
	}
	officetest.Validate(t, pdfs[1])
}

func FuzzFromMarkdown(f *testing.F) {
	f.Add([]byte(sampleMD))
	f.Add([]byte("- a\n  1. b\n     - c\n\n> q\n>> qq\n\n|a|\n|-|\n|b|\n\x01\uFFFE"))
	f.Fuzz(func(t *testing.T, md []byte) {
		data, err := docx.FromMarkdown(md, docx.Options{TOC: true, Header: string(md[:min(len(md), 20)]), LoadImage: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
		if err != nil {
			return // only image loading can fail
		}
		officetest.Parts(t, data)
	})
}

// BenchmarkLongDocument writes a document of about 200 pages.
func BenchmarkLongDocument(b *testing.B) {
	var md strings.Builder
	md.WriteString("# Long document\n\n[TOC]\n\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&md, "## Chapter %d 第%d章\n\n", i+1, i+1)
		for j := 0; j < 6; j++ {
			md.WriteString("Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. 中文段落内容用于测试排版。\n\n")
		}
		md.WriteString("| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n\n- one\n- two\n\n<!-- pagebreak -->\n\n")
	}
	src := []byte(md.String())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := docx.FromMarkdown(src, docx.Options{PageNumbers: true}); err != nil {
			b.Fatal(err)
		}
	}
}
