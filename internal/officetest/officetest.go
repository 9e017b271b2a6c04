// Package officetest checks generated documents with real readers, for
// tests: LibreOffice prints .docx/.pptx to PDF, pdftotext reads the text
// back, pdfcpu validates the PDF and pdfinfo counts its pages.
package officetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"clawbridge/internal/office"
)

func init() { model.ConfigPath = "disable" }

// Require skips the test when a program is missing, or fails it when
// CLAWBRIDGE_REQUIRE_PROGRAMS=1 (CI).
func Require(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
				t.Fatalf("%s is required (CLAWBRIDGE_REQUIRE_PROGRAMS=1) but not installed", p)
			}
			t.Skipf("%s not installed", p)
		}
	}
}

// ToPDF converts files with LibreOffice in one run and returns the PDFs.
func ToPDF(t testing.TB, files ...string) []string {
	t.Helper()
	Require(t, "soffice")
	outs, err := office.ConvertToPDF(t.Context(), filepath.Join(t.TempDir(), "pdf"), files...)
	if err != nil {
		t.Fatalf("libreoffice: %v", err)
	}
	return outs
}

// Text returns the text pdftotext reads from a PDF.
func Text(t testing.TB, pdf string) string {
	t.Helper()
	Require(t, "pdftotext")
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	return string(out)
}

// Pages returns the page count pdfinfo reports.
func Pages(t testing.TB, pdf string) int {
	t.Helper()
	Require(t, "pdfinfo")
	out, err := exec.Command("pdfinfo", pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", pdf, err)
	}
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo %s: no page count in %q", pdf, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// Validate runs pdfcpu's validator over a PDF.
func Validate(t testing.TB, pdf string) {
	t.Helper()
	conf := model.NewDefaultConfiguration()
	if err := api.ValidateFile(pdf, conf); err != nil {
		t.Fatalf("pdfcpu validate %s: %v", pdf, err)
	}
}

// squash drops whitespace, so line wrapping and justified spacing in the
// PDF do not matter.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// InOrder checks that every want appears in text, each after the previous.
func InOrder(t testing.TB, text string, wants ...string) {
	t.Helper()
	hay := squash(text)
	pos := 0
	for _, w := range wants {
		sw := squash(w)
		i := strings.Index(hay[pos:], sw)
		if i < 0 {
			if strings.Contains(hay, sw) {
				t.Fatalf("%q is in the PDF text but out of order (expected after position %d)\ntext:\n%s", w, pos, text)
			}
			t.Fatalf("%q not found in the PDF text:\n%s", w, text)
		}
		pos += i + len(sw)
	}
}

// Keep copies files to $CLAWBRIDGE_KEEP_OUTPUT (when set) for a person to
// look at.
func Keep(t testing.TB, files ...string) {
	dir := os.Getenv("CLAWBRIDGE_KEEP_OUTPUT")
	if dir == "" {
		return
	}
	_ = os.MkdirAll(dir, 0o755)
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"_"+filepath.Base(f)), b, 0o644)
		}
	}
}
