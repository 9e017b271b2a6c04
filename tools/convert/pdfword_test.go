package convert

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Public PDFs (fixtures/pdf/SOURCES.md) and our own Chinese one go to Word
// through LibreOffice; python-docx reads the .docx back and its text must
// be, character for character, poppler's text of the source.

func fixturePDF(t *testing.T, name string) []byte {
	t.Helper()
	return tooltest.ReadFile(t, filepath.Join("..", "..", "fixtures", "pdf", name))
}

// docxText is python-docx's text of a .docx (testdata/docxtext.py).
func docxText(t *testing.T, path string) string {
	t.Helper()
	py := "/usr/bin/python3" // Debian's, with python3-docx (a pyenv python3 on PATH has none)
	if exec.Command(py, "-c", "import docx").Run() != nil {
		tooltest.Missing(t, "python3-docx not installed (apt-get install python3-docx, or scripts/install-deps.sh)")
	}
	out, err := exec.Command(py, filepath.Join("testdata", "docxtext.py"), path).Output()
	if err != nil {
		t.Fatalf("docxtext.py %s: %v", path, err)
	}
	return string(out)
}

// sameChars compares two texts as multisets of characters, leaving out
// white space and hyphens: LibreOffice puts each run of text in a text box
// of its own, so the order of runs within a line can differ from poppler's,
// and poppler joins words hyphenated at a line end.
func sameChars(t *testing.T, what, got, want string) {
	t.Helper()
	count := func(s string) map[rune]int {
		m := map[rune]int{}
		for _, r := range s {
			if !unicode.IsSpace(r) && r != '-' && r != '\u00ad' {
				m[r]++
			}
		}
		return m
	}
	g, w := count(got), count(want)
	var diff []string
	for r, n := range w {
		if g[r] != n {
			diff = append(diff, string(r)+":"+itoa(g[r])+"/"+itoa(n))
		}
	}
	for r, n := range g {
		if _, ok := w[r]; !ok {
			diff = append(diff, string(r)+":"+itoa(n)+"/0")
		}
	}
	if len(diff) > 0 || len(w) == 0 {
		t.Fatalf("%s: characters differ from the PDF's (got/want): %v\ngot:\n%s", what, diff, got)
	}
}

func TestPDFToWord(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	for _, tc := range []struct {
		name  string
		pages int
		words []string // in the .docx, in this order
	}{
		{"chinese.pdf", 3, []string{"第一页", "这是一个中文测试文档。", "第二页", "金额壹万贰仟元整。", "第三页", "思维导图与格式转换。"}},
		{"pdflatex-outline.pdf", 4, []string{"Contents", "Hello, here is some text without a meaning."}},
		{"GeoBase_NHNC1_Data_Model_UML_EN.pdf", 19, []string{"National Hydro Network, Canada, Level 1", "Data Model"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, false)
			src := e.put(tc.name, fixturePDF(t, tc.name))
			want := officetest.Text(t, filepath.Join(e.root, src))
			// No 'from': the extension says PDF.
			res := e.run(map[string]any{"path": src, "to": "docx"})
			data := res.Data.(map[string]any)
			stem := strings.TrimSuffix(tc.name, ".pdf")
			if data["output"] != "outputs/"+stem+".docx" || data["from"] != "pdf" || data["pages"] != tc.pages || data["pages_without_text"] != nil {
				t.Fatalf("result: %v", data)
			}
			got := docxText(t, res.Files[0].Path)
			sameChars(t, "python-docx", got, want)
			officetest.InOrder(t, got, tc.words...)
			officetest.Keep(t, res.Files[0].Path)
		})
	}
}

// TestPDFToODT: the same import saved as ODF text; LibreOffice prints the
// .odt back to PDF and poppler reads the same characters as in the source.
func TestPDFToODT(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	e := newEnv(t, false)
	src := e.put("doc.bin", fixturePDF(t, "pdflatex-outline.pdf"))
	// A PDF whose extension says nothing, named by 'from'.
	res := e.run(map[string]any{"path": src, "from": "pdf", "to": "odt", "output": "outline.odt"})
	if res.Data.(map[string]any)["output"] != "outline.odt" {
		t.Fatalf("result: %v", res.Data)
	}
	back := officetest.ToPDF(t, res.Files[0].Path)[0]
	if n := officetest.Pages(t, back); n != 4 {
		t.Fatalf("odt prints as %d pages, want 4", n)
	}
	sameChars(t, "odt printed back", officetest.Text(t, back), officetest.Text(t, filepath.Join(e.root, src)))
}

// TestPDFToWord_Refused: a scanned PDF, encrypted PDFs and a file that is
// not a PDF get tool errors saying what to do, and nothing is written.
func TestPDFToWord_Refused(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	e := newEnv(t, false)
	// A scanned page: tesseract's test image, as the only content of a PDF.
	scan := tooltest.ReadFile(t, filepath.Join("..", "ocr", "testdata", "phototest.tif"))
	var pdf bytes.Buffer
	imp := pdfcpu.DefaultImportConfig()
	conf := model.NewDefaultConfiguration()
	conf.Offline = true
	if err := api.ImportImages(nil, &pdf, []io.Reader{bytes.NewReader(scan)}, imp, conf); err != nil {
		t.Fatal(err)
	}
	e.put("scan.pdf", pdf.Bytes())
	te := e.fail(map[string]any{"path": "scan.pdf", "to": "docx"}, tool.CodeInvalid)
	if !strings.Contains(te.Message, "no text layer") || !strings.Contains(te.Hint, "ocr with path=scan.pdf") {
		t.Fatalf("scanned: %s / %s", te.Message, te.Hint)
	}
	// Needs a password to open.
	e.put("locked.pdf", fixturePDF(t, "r4-user-password.pdf"))
	te = e.fail(map[string]any{"path": "locked.pdf", "to": "docx"}, tool.CodeInvalid)
	if !strings.Contains(te.Message, "encrypted and needs a password") || !strings.Contains(te.Hint, "pdf_tool decrypt") {
		t.Fatalf("locked: %s / %s", te.Message, te.Hint)
	}
	// Opens without a password (AES-256, owner password only), but
	// LibreOffice cannot import it.
	e.put("owner.pdf", fixturePDF(t, "r5-user-password.pdf"))
	te = e.fail(map[string]any{"path": "owner.pdf", "to": "docx"}, tool.CodeInvalid)
	if !strings.Contains(te.Message, "encrypted and LibreOffice cannot open it") || !strings.Contains(te.Hint, "pdf_tool decrypt") {
		t.Fatalf("owner: %s / %s", te.Message, te.Hint)
	}
	e.put("fake.pdf", []byte("not a pdf"))
	e.fail(map[string]any{"path": "fake.pdf", "to": "docx"}, tool.CodeInvalid)
	// PDF converts only to Word.
	te = e.fail(map[string]any{"path": "fake.pdf", "to": "md"}, tool.CodeInvalid)
	if !strings.Contains(te.Hint, "pdf converts to: docx, odt") {
		t.Fatalf("pdf to md: %s", te.Hint)
	}
	if ents, _ := os.ReadDir(filepath.Join(e.root, "outputs")); len(ents) != 0 {
		t.Fatalf("refused conversions wrote %v", ents)
	}
}

// TestPDFToWord_Overwrite: an existing output is kept unless overwrite.
func TestPDFToWord_Overwrite(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	e := newEnv(t, false)
	src := e.put("c.pdf", fixturePDF(t, "chinese.pdf"))
	e.put("c.docx", []byte("keep me"))
	e.fail(map[string]any{"path": src, "to": "docx", "output": "c.docx"}, tool.CodeExists)
	if string(read(t, filepath.Join(e.root, "c.docx"))) != "keep me" {
		t.Fatal("output replaced without overwrite")
	}
	res := e.run(map[string]any{"path": src, "to": "docx", "output": "c.docx", "overwrite": true})
	officetest.InOrder(t, docxText(t, res.Files[0].Path), "第一页", "第三页")
}

// TestUnknownExtension: the error says what each extension converts to.
func TestUnknownExtension(t *testing.T) {
	e := newEnv(t, false)
	te := e.fail(map[string]any{"path": e.put("x.unknown", []byte("x")), "to": "docx"}, tool.CodeInvalid)
	for _, want := range []string{".pdf -> docx, odt", ".docx -> html, md, pdf, txt", ".md .mdown .txt -> docx, html, pdf, txt", "set 'from'"} {
		if !strings.Contains(te.Hint, want) {
			t.Errorf("hint lacks %q: %s", want, te.Hint)
		}
	}
}
