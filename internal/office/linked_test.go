package office_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/internal/pptx"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Documents given to LibreOffice that link external content: an .odt with
// linked sections and images, a .docx with externally linked images and
// INCLUDETEXT / INCLUDEPICTURE fields, a .pptx with linked pictures and an
// .html with <img src> and <iframe>, all pointing at a recording HTTP server
// on 127.0.0.1 and [::1] and at file:// secrets outside the input's dir.
//
// Without the jail (TestOffice_LinkedContentBaseline, run it with
// CLAWBRIDGE_OFFICE_BASELINE=1), Debian's LibreOffice fetched, for each of
// the four documents, the linked images from both 127.0.0.1 and [::1] (the
// .html also its stylesheets/iframes), and embedded the file:// image from
// outside the input's dir in the PDF of all four. In the jail nothing
// reaches the server and nothing from outside reaches the PDF.

const (
	secretText = "LO-SECRET-c0ffee-outside-input"
	httpText   = "HTTP-FETCHED-TEXT"
)

type recorder struct {
	mu   sync.Mutex
	hits []string
	v4   string // http://127.0.0.1:port
	v6   string // http://[::1]:port, empty without IPv6
}

func (r *recorder) Hits() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.hits...)
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits = append(r.hits, req.Host+req.URL.Path)
		r.mu.Unlock()
		if strings.HasSuffix(req.URL.Path, ".png") {
			w.Header().Set("Content-Type", "image/png")
			w.Write(tinyPNG())
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "%s %s\n", httpText, req.URL.Path)
	})
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("%s: %v", addr, err)
			continue
		}
		srv := &http.Server{Handler: h}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		if strings.HasPrefix(addr, "[") {
			r.v6 = "http://" + ln.Addr().String()
		} else {
			r.v4 = "http://" + ln.Addr().String()
		}
	}
	return r
}

func tinyPNG() []byte { return pngOf(8, 8) }

// secretPNG has a size no other image in the test has, so pdfimages can
// tell whether the file:// image outside the input's dir was read.
func secretPNG() []byte { return pngOf(37, 23) }

// hasSecretImage reports whether the PDF holds a 37x23 image.
func hasSecretImage(t *testing.T, pdf string) bool {
	out, err := exec.Command("pdfimages", "-list", pdf).Output()
	if err != nil {
		t.Fatalf("pdfimages: %v", err)
	}
	return regexp.MustCompile(`(?m)^\s*\d+\s+\d+\s+\w+\s+37\s+23\s`).Match(out)
}

func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.Black)
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// links are the external targets every document points at.
type links struct {
	texts  []string // text sources: http://..., file:///secret.txt
	images []string // image sources
}

// newLinks plants the secrets in base/secret, next to the inputs' own
// dirs (base/<name>), so relative links can point there too.
func newLinks(t *testing.T, r *recorder, base string) links {
	dir := filepath.Join(base, "secret")
	os.MkdirAll(dir, 0o755)
	txt := filepath.Join(dir, "secret.txt")
	os.WriteFile(txt, []byte(secretText+"\n"), 0o644)
	pic := filepath.Join(dir, "secret.png")
	os.WriteFile(pic, secretPNG(), 0o644)
	var l links
	for _, base := range []string{r.v4, r.v6} {
		if base != "" {
			l.texts = append(l.texts, base+"/section.txt")
			l.images = append(l.images, base+"/image.png")
		}
	}
	l.texts = append(l.texts, "file://"+txt, "../secret/secret.txt")
	l.images = append(l.images, "file://"+pic, "../secret/secret.png")
	return l
}

func writeZip(t *testing.T, files [][2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		var w io.Writer
		var err error
		if f[0] == "mimetype" {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Store})
		} else {
			w, err = zw.Create(f[0])
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, f[1])
	}
	zw.Close()
	return b.Bytes()
}

// patchZip rewrites the named parts of an Office file.
func patchZip(t *testing.T, data []byte, patch func(name, body string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var files [][2]string
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files = append(files, [2]string{f.Name, patch(f.Name, string(b))})
	}
	return writeZip(t, files)
}

func xmlEsc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

func odtDoc(t *testing.T, l links) []byte {
	var body strings.Builder
	body.WriteString(`<text:p>ODT-MARKER</text:p>`)
	for i, u := range l.texts {
		fmt.Fprintf(&body, `<text:section text:name="S%d"><text:section-source xlink:href="%s" xlink:type="simple" text:filter-name="Text"/><text:p>placeholder</text:p></text:section>`, i, xmlEsc(u))
	}
	for _, u := range l.images {
		fmt.Fprintf(&body, `<text:p><draw:frame draw:name="img" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char"><draw:image xlink:href="%s" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`, xmlEsc(u))
	}
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"><office:body><office:text>` + body.String() + `</office:text></office:body></office:document-content>`
	manifest := `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`
	return writeZip(t, [][2]string{{"mimetype", "application/vnd.oasis.opendocument.text"}, {"META-INF/manifest.xml", manifest}, {"content.xml", content}})
}

var mediaTarget = regexp.MustCompile(`Target="(\.\./)?media/[^"]+"`)

// externalImages points every embedded image relationship at the next of
// urls, as an external link, and makes the blips link instead of embed.
func externalImages(t *testing.T, data []byte, urls []string) []byte {
	i := 0
	return patchZip(t, data, func(name, body string) string {
		if strings.HasSuffix(name, ".rels") {
			return mediaTarget.ReplaceAllStringFunc(body, func(string) string {
				u := urls[i%len(urls)]
				i++
				return `Target="` + xmlEsc(u) + `" TargetMode="External"`
			})
		}
		return strings.ReplaceAll(body, "r:embed=", "r:link=")
	})
}

func docxDoc(t *testing.T, l links) []byte {
	blocks := []docx.Block{docx.Paragraph{Runs: []docx.Run{{Text: "DOCX-MARKER"}}}}
	for range l.images {
		blocks = append(blocks, docx.Image{Data: tinyPNG(), WidthMM: 20})
	}
	data, err := docx.Write(blocks, docx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data = externalImages(t, data, l.images)
	var fields strings.Builder
	field := func(instr string) {
		fmt.Fprintf(&fields, `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> %s </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>placeholder</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`, xmlEsc(instr))
	}
	for _, u := range l.texts {
		field(`INCLUDETEXT "` + u + `"`)
		field(`INCLUDETEXT "` + strings.TrimPrefix(u, "file://") + `"`)
	}
	for _, u := range l.images {
		field(`INCLUDEPICTURE "` + u + `" \d`)
	}
	return patchZip(t, data, func(name, body string) string {
		if name == "word/document.xml" {
			i := strings.LastIndex(body, "<w:sectPr")
			return body[:i] + fields.String() + body[i:]
		}
		return body
	})
}

func pptxDoc(t *testing.T, l links) []byte {
	slides := []pptx.Slide{{Kind: pptx.KindTitle, Title: "PPTX-MARKER"}}
	for _, u := range l.images {
		slides = append(slides, pptx.Slide{Kind: pptx.KindImage, Title: "linked " + u, Image: tinyPNG()})
	}
	data, err := pptx.Write(pptx.Deck{Slides: slides})
	if err != nil {
		t.Fatal(err)
	}
	return externalImages(t, data, l.images)
}

func htmlDoc(l links) []byte {
	var b strings.Builder
	b.WriteString(`<html><head>`)
	for _, u := range l.texts {
		fmt.Fprintf(&b, `<link rel="stylesheet" href="%s">`, u)
	}
	b.WriteString(`</head><body><p>HTML-MARKER</p>`)
	for _, u := range l.images {
		fmt.Fprintf(&b, `<p><img src="%s" width="20" height="20"></p>`, u)
	}
	for _, u := range l.texts {
		fmt.Fprintf(&b, `<iframe src="%s"></iframe><object data="%s" type="text/plain"></object>`, u, u)
	}
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// linkedInputs writes the four documents, each in a dir of its own.
func linkedInputs(t *testing.T, l links, base string) []string {
	docs := map[string][]byte{"linkedodt.odt": odtDoc(t, l), "linkeddocx.docx": docxDoc(t, l), "linkedpptx.pptx": pptxDoc(t, l), "linkedhtml.html": htmlDoc(l)}
	var paths []string
	for name, data := range docs {
		p := filepath.Join(base, strings.TrimSuffix(name, filepath.Ext(name)), name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func TestOffice_LinkedContentNotFetched(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfimages")
	if err := jail.Check(); err != nil {
		tooltest.Missing(t, "jail: %v", err)
	}
	rec := newRecorder(t)
	base := t.TempDir()
	inputs := linkedInputs(t, newLinks(t, rec, base), base)
	outs, err := office.ConvertToPDF(t.Context(), jail.Run, filepath.Join(t.TempDir(), "pdf"), inputs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, pdf := range outs {
		txt := officetest.Text(t, pdf)
		marker := strings.ToUpper(strings.TrimPrefix(filepath.Ext(inputs[i]), "."))
		// LibreOffice's HTML import prints body text without a font here
		// (no text in the PDF, jailed or not), so HTML shows no marker.
		if marker != "HTML" && !strings.Contains(txt, marker+"-MARKER") {
			t.Errorf("%s: PDF lacks its own text %q: %q", filepath.Base(inputs[i]), marker+"-MARKER", txt)
		}
		for _, leak := range []string{secretText, httpText} {
			if strings.Contains(txt, leak) {
				t.Errorf("%s: linked content %q reached the PDF", filepath.Base(inputs[i]), leak)
			}
		}
		if hasSecretImage(t, pdf) {
			t.Errorf("%s: the file:// image outside the input's dir reached the PDF", filepath.Base(inputs[i]))
		}
	}
	if hits := rec.Hits(); len(hits) > 0 {
		t.Errorf("LibreOffice reached the test server: %v", hits)
	}
}

// TestOffice_LinkedContentBaseline runs the same documents through
// LibreOffice without the jail, to show the test above is meaningful: it
// must see at least one fetch or secret. Opt-in, it runs LibreOffice
// unconfined: CLAWBRIDGE_OFFICE_BASELINE=1.
func TestOffice_LinkedContentBaseline(t *testing.T) {
	if os.Getenv("CLAWBRIDGE_OFFICE_BASELINE") != "1" {
		t.Skip("set CLAWBRIDGE_OFFICE_BASELINE=1 to run LibreOffice unconfined on the linked documents")
	}
	soffice := officetest.Require
	soffice(t, "soffice", "pdftotext", "pdfimages")
	rec := newRecorder(t)
	base := t.TempDir()
	inputs := linkedInputs(t, newLinks(t, rec, base), base)
	leaked := 0
	seen := 0
	for _, in := range inputs {
		out := t.TempDir()
		args := []string{"-env:UserInstallation=file://" + filepath.Join(out, "profile"), "--headless", "--convert-to", "pdf", "--outdir", out, in}
		cmd := exec.Command("soffice", args...)
		cmd.Env = append(os.Environ(), "HOME="+out, "SAL_USE_VCLPLUGIN=svp")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		pdf := filepath.Join(out, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+".pdf")
		txt := officetest.Text(t, pdf)
		for _, leak := range []string{secretText, httpText} {
			if strings.Contains(txt, leak) {
				leaked++
				t.Logf("unjailed: %s shows %q", filepath.Base(in), leak)
			}
		}
		if hasSecretImage(t, pdf) {
			leaked++
			t.Logf("unjailed: %s embeds the file:// secret image", filepath.Base(in))
		}
		hits := rec.Hits()
		t.Logf("unjailed: %s: %v", filepath.Base(in), hits[seen:])
		seen = len(hits)
	}
	hits := rec.Hits()
	t.Logf("unjailed: %d hits: %v", len(hits), hits)
	if len(hits) == 0 && leaked == 0 {
		t.Fatal("LibreOffice fetched nothing even unjailed: the jailed test proves nothing")
	}
}
