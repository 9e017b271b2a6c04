package convert

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/pdftext"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// pdfWord is the LibreOffice target of each PDF conversion.
var pdfWord = map[string]office.Target{"docx": office.PDFToDOCX, "odt": office.PDFToODT}

// pdfToWord opens a PDF with LibreOffice's PDF import (in the jail, through
// internal/office) and saves it as docx or odt. poppler reads the file
// first, also in the jail: an encrypted file that needs a password and a
// scanned one (no text on any page) are refused with what to do instead,
// since LibreOffice would fail on the first and give only pictures of the
// pages for the second.
func (cv *converter) pdfToWord(ctx context.Context, _ *tool.Call, src *source, to string) ([]byte, map[string]any, error) {
	if !office.Available() {
		return nil, nil, tool.MissingProgram(office.Program)
	}
	info, err := readPDF(ctx, cv.d.Run, src)
	if err != nil {
		return nil, nil, err
	}
	if info.pages > 0 && len(info.empty) == info.pages {
		return nil, nil, tool.Invalidf("path",
			fmt.Sprintf("run the ocr tool on it first (ocr with path=%s and output=%s.txt), then convert that text with format_converter (to=%s)", src.name, tool.StemOf(src.name), to),
			"%s has no text layer (a scanned PDF: its pages are images), so LibreOffice would give only pictures of the pages", src.name)
	}
	data, err := office.ConvertBytes(ctx, cv.d.Run, "input.pdf", src.data, pdfWord[to])
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if te, ok := tool.AsError(err); ok {
			return nil, nil, te // not installed
		}
		if info.encrypted {
			return nil, nil, encryptedPDF(src.name, "LibreOffice cannot open it")
		}
		return nil, nil, tool.Errorf(tool.CodeFailed, "check the file with pdf_tool validate",
			"LibreOffice could not convert %s to %s: %v", src.name, to, err)
	}
	facts := map[string]any{"engine": "libreoffice", "pages": info.pages}
	if len(info.empty) > 0 {
		facts["pages_without_text"] = info.empty
		facts["note"] = fmt.Sprintf("%s no text layer (scanned?) and came over as pictures: the ocr tool reads them",
			wording.Count(len(info.empty), "page has", "pages have"))
	}
	return data, facts, nil
}

func encryptedPDF(name, why string) error {
	return tool.Invalidf("path",
		"save a decrypted copy with pdf_tool decrypt (password=...), then convert that copy",
		"%s is encrypted and %s", name, why)
}

// pdfFacts is what poppler says about a PDF before it is converted.
type pdfFacts struct {
	pages     int
	encrypted bool
	empty     []int // pages without text, 1-based
}

// readPDF asks pdfinfo whether the PDF is encrypted and pdftotext which
// pages have text. Both parse an untrusted file, so they run in the jail
// seeing only that file, read-only.
func readPDF(ctx context.Context, run jail.Runner, src *source) (pdfFacts, error) {
	var f pdfFacts
	out, err := pdftext.Info(ctx, run, src.abs, src.name)
	if err != nil {
		return f, err
	}
	f.pages, f.encrypted = parseInfo(out)
	// Text past 64 MB is dropped: enough is known by then.
	text, err := pdftext.Extract(ctx, run, src.abs, src.name, pdftext.Options{MaxBytes: 64 << 20, Partial: true})
	if err != nil {
		return f, err
	}
	// pdftotext ends every page with a form feed.
	pages := strings.Split(text, "\f")
	if n := len(pages) - 1; n > 0 && n == f.pages {
		for i, p := range pages[:n] {
			if strings.TrimSpace(p) == "" {
				f.empty = append(f.empty, i+1)
			}
		}
	}
	return f, nil
}

// parseInfo reads the page count and encryption from pdfinfo's answer. The
// document's own strings (Title, ...) come first and may imitate pdfinfo's
// lines, so only the lines from the last "Pages:" on are read.
func parseInfo(out string) (pages int, encrypted bool) {
	lines := strings.Split(out, "\n")
	at := -1
	for i, line := range lines {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "Pages:" {
			if n, err := strconv.Atoi(f[1]); err == nil {
				pages, at = n, i
			}
		}
	}
	if at < 0 {
		return 0, false
	}
	for _, line := range lines[at+1:] {
		if strings.HasPrefix(line, "Encrypted:") {
			encrypted = strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(line, "Encrypted:")), "yes")
		}
	}
	return pages, encrypted
}
