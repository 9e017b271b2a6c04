package pdf

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestEncryption_V4WithoutKeyLength: pypdf's AES file whose encryption
// dictionary has no /Length opens in poppler with no password; pdf_tool
// opens it without a password, with "", and with a wrong one (anyone may
// open it), and decrypts it to a file poppler reads.
func TestEncryption_V4WithoutKeyLength(t *testing.T) {
	e := newEnv(t)
	path := e.put("r4.pdf", fixture(t, "r4-aes-v2-no-key-length.pdf"))
	for _, args := range []map[string]any{
		{"action": "page_count", "path": path},
		{"action": "page_count", "path": path, "password": ""},
		{"action": "page_count", "path": path, "password": "not-the-password"},
	} {
		if n := e.run(args).Data.(map[string]any)["page_count"]; n != 1 {
			t.Fatalf("%v: page_count %v, want 1", args, n)
		}
	}
	info := e.run(map[string]any{"action": "info", "path": path}).Data.(map[string]any)
	if info["encrypted"] != true || info["page_count"] != 1 {
		t.Fatalf("info: %v", info)
	}
	e.run(map[string]any{"action": "decrypt", "path": path, "password": "", "output": "plain.pdf"})
	if officetest.EncryptedPages(t, e.abs("plain.pdf"), "") != 1 {
		t.Fatal("decrypted file does not have 1 page")
	}
	text, err := execOut("pdftotext", e.abs("plain.pdf"), "-")
	want, _ := execOut("pdftotext", e.abs(path), "-")
	if err != nil || squash(text) != squash(want) || squash(want) == "" {
		t.Fatalf("decrypted text %q, poppler reads %q on the original (%v)", text, want, err)
	}
	// The file on disk is unchanged: the repair lives in memory.
	if string(fixture(t, "r4-aes-v2-no-key-length.pdf")) != string(readBack(e.abs(path))) {
		t.Fatal("input was modified")
	}
}

// TestRelaxedReading_SalvagesOptionalParts: a PDF 1.1 file with a
// JavaScript OpenAction that pdfcpu's validator refuses (poppler reads it)
// is accepted by info, encrypt and split-like writes; the answer says what
// was left out.
func TestRelaxedReading_SalvagesOptionalParts(t *testing.T) {
	e := newEnv(t)
	path := e.put("js.pdf", fixture(t, "issue-297.pdf"))
	info := e.run(map[string]any{"action": "info", "path": path}).Data.(map[string]any)
	if info["page_count"] != 1 || !strings.Contains(toString(info["repaired"]), "action run on opening") {
		t.Fatalf("info: %v", info)
	}
	res := e.run(map[string]any{"action": "encrypt", "path": path, "owner_password": "o", "user_password": "u", "output": "enc.pdf"})
	if !strings.Contains(toString(res.Data.(map[string]any)["repaired"]), "action run on opening") {
		t.Fatalf("encrypt: %v", res.Data)
	}
	checkPDF(t, e.abs("enc.pdf"), 1, "u")
	e.run(map[string]any{"action": "rotate", "path": path, "rotation": 90, "output": "rot.pdf"})
	checkPDF(t, e.abs("rot.pdf"), 1, "")
	e.run(map[string]any{"action": "merge", "paths": []any{path, path}, "output": "two.pdf"})
	checkPDF(t, e.abs("two.pdf"), 2, "")
}

// TestOptimize_KeepsOriginalWhenNotSmaller: a file pdfcpu's rewrite would
// make bigger (a minimal hand-made PDF: the rewrite adds an info dictionary
// and an xref stream) is kept: no output, kept_original true, no negative
// savings, the file untouched. (pdfcpu's rewrite of its own output varies by
// a few bytes from run to run, so that is no stable input for this.)
func TestOptimize_KeepsOriginalWhenNotSmaller(t *testing.T) {
	e := newEnv(t)
	e.put("a.pdf", []byte(minimalPDF))
	d := e.run(map[string]any{"action": "optimize", "path": "a.pdf"}).Data.(map[string]any)
	if d["kept_original"] != true || d["saved_bytes"] != 0 || d["output"] != nil {
		t.Fatalf("optimize: %v", d)
	}
	if b, _ := os.ReadFile(e.abs("a.pdf")); string(b) != minimalPDF {
		t.Fatal("the original was changed")
	}
	if ents, _ := os.ReadDir(e.abs("outputs")); len(ents) != 0 {
		t.Fatalf("optimize wrote %v", ents)
	}
}

// minimalPDF is a valid one-page PDF with a classic xref table.
const minimalPDF = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\nxref\n0 4\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n0000000115 00000 n \ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n186\n%%EOF\n"

// TestEncryption_EmptyOwnerPassword: pypdf's AES-256 files made with qpdf
// --encrypt asdfzxcv "" (R5 and R6) have an empty owner password, so
// poppler opens them with none; pdf_tool does too (and with the user
// password), decrypts them to the text poppler reads, and leaves the file
// on disk as it was. A file with a real owner password still asks for one.
func TestEncryption_EmptyOwnerPassword(t *testing.T) {
	e := newEnv(t)
	for _, name := range []string{"r5-user-password.pdf", "r6-user-password.pdf"} {
		path := e.put(name, fixture(t, name))
		for _, pw := range []string{"", "asdfzxcv"} {
			if n := e.run(map[string]any{"action": "page_count", "path": path, "password": pw}).Data.(map[string]any)["page_count"]; n != 1 {
				t.Fatalf("%s with password %q: page_count %v", name, pw, n)
			}
		}
		out := "plain-" + name
		e.run(map[string]any{"action": "decrypt", "path": path, "password": "", "output": out})
		text, err := execOut("pdftotext", e.abs(out), "-")
		want, _ := execOut("pdftotext", e.abs(path), "-")
		if err != nil || squash(text) != squash(want) || squash(want) == "" {
			t.Fatalf("%s: decrypted text %q, poppler reads %q on the original (%v)", name, text, want, err)
		}
		if officetest.EncryptedPages(t, e.abs(out), "") != 1 {
			t.Fatalf("%s: decrypted file does not have 1 page", name)
		}
		if string(fixture(t, name)) != string(readBack(e.abs(path))) {
			t.Fatalf("%s: input was modified", name)
		}
	}
	plain := e.put("plain.pdf", fixture(t, "english-unlocked.pdf"))
	e.run(map[string]any{"action": "encrypt", "path": plain, "output": "locked.pdf", "owner_password": "owner", "user_password": "user"})
	e.fail(map[string]any{"action": "page_count", "path": "locked.pdf"}, tool.CodeDenied)
}

// TestRelaxedReading_PageActionsOfEncryptedFile: pypdf's RC4 file without
// a trailer /ID has GoToR page actions (/AA) pdfcpu's validator refuses;
// poppler reads its 3 pages with no password. pdf_tool counts them, says
// what it left out, and writes files poppler draws exactly as it draws the
// original: decrypted, and rotated with the encryption kept.
func TestRelaxedReading_PageActionsOfEncryptedFile(t *testing.T) {
	e := newEnv(t)
	path := e.put("no-id.pdf", fixture(t, "encrypted_doc_no_id.pdf"))
	if n := officetest.Pages(t, e.abs(path)); n != 3 {
		t.Fatalf("poppler reads %d pages", n)
	}
	info := e.run(map[string]any{"action": "info", "path": path}).Data.(map[string]any)
	if info["page_count"] != 3 || info["encrypted"] != true || !strings.Contains(toString(info["repaired"]), "pages' event actions") {
		t.Fatalf("info: %v", info)
	}
	text := e.run(map[string]any{"action": "extract_text", "path": path}).Data.(map[string]any)
	if len(text["pages"].([]PageText)) != 3 {
		t.Fatalf("extract_text: %v", text)
	}
	e.run(map[string]any{"action": "decrypt", "path": path, "password": "", "output": "plain.pdf"})
	checkPDF(t, e.abs("plain.pdf"), 3, "")
	e.run(map[string]any{"action": "rotate", "path": path, "rotation": 180, "output": "rot.pdf"})
	if rot := officetest.Info(t, e.abs("rot.pdf"), ""); officetest.Pages(t, e.abs("rot.pdf")) != 3 || !hasLine(rot, "Encrypted: yes") || !hasLine(rot, "Page rot: 180") {
		t.Fatalf("poppler on the rotated copy:\n%s", rot)
	}
	if !bytes.Equal(render(t, e.abs("plain.pdf")), render(t, e.abs(path))) {
		t.Error("the decrypted copy draws differently from the original")
	}
}

// render is poppler's drawing of page 2 (a scanned image) at 20 dpi.
func render(t *testing.T, pdf string) []byte {
	t.Helper()
	out, err := exec.Command("pdftoppm", "-f", "2", "-l", "2", "-r", "20", "-gray", pdf).Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("pdftoppm %s: %v", pdf, err)
	}
	return out
}

// hasLine reports whether a line of out reads fields, spacing aside (the
// value's first words).
func hasLine(out, fields string) bool {
	want := strings.Fields(fields)
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) >= len(want) && slices.Equal(f[:len(want)], want) {
			return true
		}
	}
	return false
}

// TestExtractText_FormFeedInTextKeepsPages: page 1's text maps a glyph to
// U+000C (a form feed, through its ToUnicode CMap); poppler writes it as a
// space, so the page breaks of pdftotext's answer stay its own and each
// page keeps its text.
func TestExtractText_FormFeedInTextKeepsPages(t *testing.T) {
	e := newEnv(t)
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <41> <000C> <42> <0042> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end"
	stream := func(s string) string { return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s) }
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		stream("BT /F1 20 Tf 72 600 Td (ABAB) Tj ET"),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 8 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 7 0 R /Resources << /Font << /F1 9 0 R >> >> >>",
		stream("BT /F1 20 Tf 72 600 Td (second) Tj ET"),
		stream(cmap),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offsets []int
	for i, o := range objs {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	path := e.put("ff.pdf", b.Bytes())
	pages := e.run(map[string]any{"action": "extract_text", "path": path}).Data.(map[string]any)["pages"].([]PageText)
	if len(pages) != 2 || squash(pages[0].Text) != "BB" || pages[1].Page != 2 || pages[1].Text != "second" {
		t.Fatalf("pages %+v", pages)
	}
}
