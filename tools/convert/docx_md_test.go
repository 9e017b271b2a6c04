package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestDocxToMD_NotesBoxesImages: a document LibreOffice wrote (see
// fixtures/convert/SOURCES.md) with a footnote, an endnote, a text box (in
// both the DrawingML choice and its VML fallback) and an image. docx->md
// keeps the notes as Markdown footnotes, the box's text once, and the image
// as a file next to the Markdown.
func TestDocxToMD_NotesBoxesImages(t *testing.T) {
	e := newEnv(t, false)
	data := tooltest.ReadFile(t, filepath.Join("..", "..", "fixtures", "convert", "lo-notes-boxes.docx"))
	e.put("notes.docx", data)
	res := e.run(map[string]any{"path": "notes.docx", "to": "md", "output": "notes.md"})
	md := string(read(t, res.Files[0].Path))
	containsAll(t, "docx->md", md, "# Notes and boxes", "Body text with a footnote[^1] and an endnote[^e1].",
		"[^1]: The footnote text.", "[^e1]: The endnote text.", "Text inside the box.", "![red square](notes_media/image1.png)")
	if n := strings.Count(md, "Text inside the box."); n != 1 {
		t.Errorf("text box shown %d times:\n%s", n, md)
	}
	img, err := os.ReadFile(filepath.Join(e.root, "notes_media", "image1.png"))
	if err != nil || !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Fatalf("image not saved next to the Markdown: %v", err)
	}
	if imgs, _ := res.Data.(map[string]any)["images"].([]string); len(imgs) != 1 {
		t.Errorf("result images = %v", res.Data)
	}
	// Plain text keeps the notes and the box too, and names the image.
	res = e.run(map[string]any{"path": "notes.docx", "to": "txt", "output": "notes.txt"})
	txt := string(read(t, res.Files[0].Path))
	containsAll(t, "docx->txt", txt, "footnote[1]", "[1] The footnote text.", "[e1] The endnote text.", "Text inside the box.", "[image: red square]")
}

// TestDocxToMD_CodeRoundTrip: inline code and a fenced block's language
// survive md -> docx -> md in files clawbridge writes itself.
func TestDocxToMD_CodeRoundTrip(t *testing.T) {
	e := newEnv(t, false)
	src := "# Code\n\nRun `go test ./...` and ``a`b`` now.\n\n```python\nprint(\"hi\")\n```\n\n```\nplain block\n```\n"
	e.put("code.md", []byte(src))
	e.run(map[string]any{"path": "code.md", "to": "docx", "output": "code.docx"})
	res := e.run(map[string]any{"path": "code.docx", "to": "md", "output": "back.md"})
	md := string(read(t, res.Files[0].Path))
	containsAll(t, "md->docx->md", md, "Run `go test ./...` and ``a`b`` now.", "```python\nprint(\"hi\")\n```", "```\nplain block\n```")
}
