package pptx_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/internal/pptx"
)

func pngBytes(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const outlineMD = `# AI 发展报告 2026
Prepared by **ACME**

## Agenda 议程
- Background 背景
  - History
- Trends
> Notes: open with the history story.

# Part One 第一部分

## Compare
### Before 之前
- Manual work
### After
- Automation 自动化

## Chart
![Growth chart](chart.png "Figure: growth 增长")

## Numbers
| Year | 收入 |
|------|-----:|
| 2025 | 10 |
| 2026 | 25 |

## Thank you 谢谢
`

func TestOutline(t *testing.T) {
	img := pngBytes(t, 64, 32)
	slides, err := pptx.FromMarkdown([]byte(outlineMD), func(string) ([]byte, error) { return img, nil })
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, s := range slides {
		kinds = append(kinds, s.Kind)
	}
	want := "title bullets section two_column image table closing"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("kinds = %v, want %s", kinds, want)
	}
	if slides[0].Subtitle != "Prepared by **ACME**" {
		t.Errorf("subtitle %q", slides[0].Subtitle)
	}
	if len(slides[1].Bullets) != 3 || slides[1].Bullets[1].Level != 1 || slides[1].Notes != "open with the history story." {
		t.Errorf("bullets slide: %+v", slides[1])
	}
	if slides[3].LeftTitle != "Before 之前" || slides[3].Right[0].Text != "Automation 自动化" {
		t.Errorf("two column: %+v", slides[3])
	}
	if slides[4].Caption != "Figure: growth 增长" || len(slides[5].Rows) != 2 {
		t.Errorf("image/table: %+v %+v", slides[4].Caption, slides[5].Rows)
	}
}

func TestWriteStructure(t *testing.T) {
	img := pngBytes(t, 64, 32)
	slides, _ := pptx.FromMarkdown([]byte(outlineMD), func(string) ([]byte, error) { return img, nil })
	data, err := pptx.Write(pptx.Deck{Title: "t", Slides: slides, Theme: pptx.Theme{Color: "#C00000", Font: "Arial"}})
	if err != nil {
		t.Fatal(err)
	}
	p := officetest.Parts(t, data)
	if !strings.Contains(p["ppt/presentation.xml"], `<p:sldSz cx="12192000" cy="6858000"/>`) {
		t.Error("not 16:9")
	}
	if !strings.Contains(p["ppt/theme/theme1.xml"], `<a:accent1><a:srgbClr val="C00000"/>`) || !strings.Contains(p["ppt/theme/theme1.xml"], `<a:latin typeface="Arial"/>`) {
		t.Error("theme colour/font missing")
	}
	if !strings.Contains(p["ppt/notesSlides/notesSlide2.xml"], "open with the history story.") {
		t.Error("speaker notes missing")
	}
	if !strings.Contains(p["ppt/slides/_rels/slide2.xml.rels"], "notesSlide2.xml") {
		t.Error("slide 2 does not link its notes")
	}
	if !strings.Contains(p["ppt/slides/slide6.xml"], `<a:tbl>`) || !strings.Contains(p["ppt/slides/slide5.xml"], `<p:pic>`) {
		t.Error("table or picture missing")
	}
	if _, ok := p["ppt/media/image1.png"]; !ok {
		t.Error("image not embedded")
	}
	if !strings.Contains(p["ppt/slides/slide1.xml"], `b="1"`) {
		t.Error("bold subtitle run missing")
	}
	for i := 1; i <= 7; i++ {
		if _, ok := p["ppt/slides/slide"+string(rune('0'+i))+".xml"]; !ok {
			t.Errorf("slide %d missing", i)
		}
	}
	d43, _ := pptx.Write(pptx.Deck{Ratio: "4:3", Slides: []pptx.Slide{{Kind: pptx.KindTitle, Title: "x"}}})
	if !strings.Contains(officetest.Parts(t, d43)["ppt/presentation.xml"], `cx="9144000"`) {
		t.Error("4:3 size")
	}
	if _, err := pptx.Write(pptx.Deck{}); err == nil {
		t.Error("empty deck accepted")
	}
	if _, err := pptx.Write(pptx.Deck{Slides: []pptx.Slide{{Kind: pptx.KindImage, Image: []byte("junk")}}}); err == nil {
		t.Error("bad image accepted")
	}
}

func TestLibreOfficeReadsDeck(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	img := pngBytes(t, 640, 320)
	slides, err := pptx.FromMarkdown([]byte(outlineMD), func(string) ([]byte, error) { return img, nil })
	if err != nil {
		t.Fatal(err)
	}
	data, err := pptx.Write(pptx.Deck{Title: "AI", Slides: slides})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "deck.pptx")
	os.WriteFile(f, data, 0o644)
	pdfs := officetest.ToPDF(t, f)
	officetest.Keep(t, pdfs...)
	text := officetest.Text(t, pdfs[0])
	officetest.InOrder(t, text, "AI 发展报告 2026", "Prepared by ACME", "Agenda 议程", "Background 背景", "History", "Trends",
		"Part One 第一部分", "Compare")
	// Columns side by side: the reader may interleave them, so each in turn.
	officetest.InOrder(t, text, "Compare", "Before 之前", "Manual work", "Chart")
	officetest.InOrder(t, text, "Compare", "After", "Automation 自动化", "Chart")
	officetest.InOrder(t, text, "Automation 自动化",
		"Chart", "Figure: growth 增长", "Numbers", "Year", "收入", "2025", "10", "2026", "25", "Thank you 谢谢")
	if n := officetest.Pages(t, pdfs[0]); n != 7 {
		t.Errorf("pages = %d, want 7 (one per slide)", n)
	}
	officetest.Validate(t, pdfs[0])
}

// BenchmarkDeck100 writes a 100-slide deck.
func BenchmarkDeck100(b *testing.B) {
	var slides []pptx.Slide
	for i := 0; i < 100; i++ {
		slides = append(slides, pptx.Slide{Kind: pptx.KindBullets, Title: fmt.Sprintf("Slide %d 第%d页", i+1, i+1),
			Bullets: []pptx.Bullet{{Text: "First point"}, {Text: "Detail", Level: 1}, {Text: "**Second** point 要点"}}, Notes: "Speaker notes"})
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := pptx.Write(pptx.Deck{Slides: slides}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzOutline(f *testing.F) {
	f.Add([]byte(outlineMD))
	f.Fuzz(func(t *testing.T, md []byte) {
		slides, err := pptx.FromMarkdown(md, func(string) ([]byte, error) { return nil, os.ErrNotExist })
		if err != nil || len(slides) == 0 {
			return
		}
		data, err := pptx.Write(pptx.Deck{Slides: slides})
		if err != nil {
			t.Fatal(err)
		}
		officetest.Parts(t, data)
	})
}
