package ocr

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// buildPDF writes a PDF of US-letter pages, page i showing "Page <i+1>
// <word>" in 40 pt Helvetica, with info as its document information
// dictionary and count as the page tree's /Count (0: the real one).
func buildPDF(t testing.TB, path, info, word string, pages, count int) {
	t.Helper()
	if count == 0 {
		count = pages
	}
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids []string
	for i := range pages {
		page, content := len(objs)+1, len(objs)+2
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		stream := fmt.Sprintf("BT /F1 40 Tf 72 600 Td (Page %d %s) Tj ET", i+1, word)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", len(objs)+3, content),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), count)
	objs = append(objs, info)
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, len(objs), xref)
	tooltest.WriteFile(t, path, []byte(b.String()))
}

// forged is a document string that imitates pdfinfo's own lines.
func forged(pages string) string {
	return `(x\nPages:          ` + pages + `\nPage    1 size: 99999 x 99999 pts\nPage    2 size: 1 x 1 pts\nPage    3 size: 612 x 792 pts)`
}

// TestOCR_PDFInfoStringsDoNotSteer: a PDF whose Title, Subject, Keywords,
// Producer and Author hold lines imitating pdfinfo's ("Pages: 999999999",
// "Page 1 size: ...") is read as what it is, 2 letter pages with their
// text: the page count, the sizes and the pages asked for come from
// pdfinfo's own lines (poppler's pdfinfo agrees: 2 pages).
func TestOCR_PDFInfoStringsDoNotSteer(t *testing.T) {
	tl, d := newTool(t, "max_pages: 5")
	for _, n := range []string{"7", "999999999"} {
		name := "forged-" + n + ".pdf"
		f := forged(n)
		buildPDF(t, filepath.Join(d.Sandbox.Root(), name),
			"<< /Title "+f+" /Subject "+f+" /Keywords "+f+" /Producer "+f+` /Author (a\rPages: 3) >>`, "Forged", 2, 0)
		out, err := exec.Command(tooltest.NeedProgram(t, "pdfinfo"), filepath.Join(d.Sandbox.Root(), name)).Output()
		if err != nil || strings.Count(string(out), "Pages:") < 5 {
			t.Fatalf("pdfinfo does not print the forged lines (%v):\n%s", err, out)
		}
		res, err := tooltest.Run(t, tl, map[string]any{"path": name, "lang": "eng"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data := res.Data.(map[string]any)
		if data["page_count"] != 2 || len(data["pages"].([]Page)) != 2 {
			t.Fatalf("%s: page_count %v, %d pages; want 2", name, data["page_count"], len(data["pages"].([]Page)))
		}
		for i := range 2 {
			p := pageOf(t, res, i)
			if p.Width != 2550 || p.Height != 3300 {
				t.Errorf("%s page %d: %dx%d, want letter at 300 dpi", name, i+1, p.Width, p.Height)
			}
			if want := fmt.Sprintf("Page %d Forged", i+1); cer(want, p.Text) > 0.1 {
				t.Errorf("%s page %d: %q, want %q", name, i+1, p.Text, want)
			}
		}
		// Page 3 exists only in the strings.
		_, err = tooltest.Run(t, tl, map[string]any{"path": name, "pages": "3", "lang": "eng"})
		tooltest.ToolError(t, err, tool.CodeInvalid)
	}
}

// TestOCR_PDFPageCountCapped: a page count pdfinfo reports that is over
// max_pages is refused before any list is sized by it, for all pages and
// for a range; pages within the cap are read.
func TestOCR_PDFPageCountCapped(t *testing.T) {
	tl, d := newTool(t, "max_pages: 3")
	buildPDF(t, filepath.Join(d.Sandbox.Root(), "many.pdf"), "<< >>", "Many", 40, 0)
	for _, pages := range []string{"", "1-40", "1-2,5-40"} {
		_, err := tooltest.Run(t, tl, map[string]any{"path": "many.pdf", "pages": pages, "lang": "eng"})
		if te := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(te.Message, "above the 3 page limit") {
			t.Errorf("pages %q: %v", pages, te)
		}
	}
	res := tooltest.OK(t, tl, map[string]any{"path": "many.pdf", "pages": "39,2,40", "lang": "eng"})
	for i, pg := range []int{39, 2, 40} {
		if p := pageOf(t, res, i); p.Page != pg || cer(fmt.Sprintf("Page %d Many", pg), p.Text) > 0.1 {
			t.Errorf("page %d: %+v", pg, p)
		}
	}
}

// TestOCR_ParsePDFInfo: pdfinfo's answer for the forged file: the last
// "Pages:" line is the count, and sizes come only from the lines after it.
func TestOCR_ParsePDFInfo(t *testing.T) {
	out := "Title:           x\nPages:          999999999\nPage    1 size: 99999 x 99999 pts\n" +
		"Author:          a\rPages: 3\nJavaScript:      no\nPages:           2\nEncrypted:       no\n" +
		"Page    1 size:  612 x 792 pts (letter)\nPage    1 rot:   0\nPage    2 size:  595.276 x 841.89 pts (A4)\nPage    2 rot:   0\nFile size:       932 bytes\n"
	n, sizes, err := parsePDFInfo(out)
	if err != nil || n != 2 || len(sizes) != 2 || sizes[1] != [2]float64{612, 792} || sizes[2] != [2]float64{595.276, 841.89} {
		t.Fatalf("count %d, sizes %v, %v", n, sizes, err)
	}
	if _, _, err := parsePDFInfo("Title:           Pages: 3\n"); err == nil {
		t.Fatal("a Pages: that is not at a line start was taken")
	}
}
