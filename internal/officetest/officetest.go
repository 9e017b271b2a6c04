// Package officetest checks generated documents with real readers, for
// tests: LibreOffice prints .docx/.pptx to PDF and reads workbooks back as
// CSV, pdftotext reads the text back, pdfcpu validates the PDF and pdfinfo
// counts its pages.
package officetest

import (
	"encoding/csv"
	"io"
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

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func init() { model.ConfigPath = "disable" }

// Require skips the test when a program is missing, or fails it when
// CLAWBRIDGE_REQUIRE_PROGRAMS=1 (CI): see tooltest.NeedProgram.
func Require(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		tooltest.NeedProgram(t, p)
	}
}

// ToPDF converts files with LibreOffice in one run and returns the PDFs.
func ToPDF(t testing.TB, files ...string) []string {
	t.Helper()
	Require(t, "soffice")
	outs, err := office.ConvertToPDF(t.Context(), jail.Run, filepath.Join(t.TempDir(), "pdf"), files...)
	if err != nil {
		t.Fatalf("libreoffice: %v", err)
	}
	return outs
}

// SheetsCSV converts workbooks with LibreOffice headless, every sheet, and
// returns the CSV records keyed by "<base>-<sheet>". A fresh profile
// recalculates every formula on load, so formula results are LibreOffice's
// own, not the cached values in the file.
func SheetsCSV(t testing.TB, files ...string) map[string][][]string {
	t.Helper()
	soffice := tooltest.NeedProgram(t, "soffice")
	out := t.TempDir()
	user := filepath.Join(out, "profile", "user")
	os.MkdirAll(user, 0o755)
	os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(recalcXCU), 0o644)
	args := []string{"-env:UserInstallation=file://" + filepath.Join(out, "profile"), "--headless",
		"--convert-to", `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1`, "--outdir", out}
	cmd := exec.Command(soffice, append(args, files...)...)
	cmd.Env = append(os.Environ(), "HOME="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	res := map[string][][]string{}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".csv") {
			continue
		}
		f, err := os.Open(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		f.Close()
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		res[strings.TrimSuffix(e.Name(), ".csv")] = recs
	}
	return res
}

// recalcXCU is a LibreOffice profile setting: always recalculate formulas
// when loading OOXML and ODF files.
const recalcXCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

// Text returns the text pdftotext reads from a PDF.
func Text(t testing.TB, pdf string) string {
	t.Helper()
	Require(t, "pdftotext")
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	// Output keeps pdftotext's warnings (stderr) out of the text.
	return string(out)
}

// Info returns what pdfinfo reports about a PDF, opened with password
// when it is not empty.
func Info(t testing.TB, pdf, password string) string {
	t.Helper()
	Require(t, "pdfinfo")
	args := []string{pdf}
	if password != "" {
		args = []string{"-upw", password, pdf}
	}
	out, err := exec.Command("pdfinfo", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v: %s", pdf, err, out)
	}
	return string(out)
}

// pagesLine is pdfinfo's page count line. pdfinfo prints the document's
// own strings (a Title can hold a line "Pages: 9") before its own lines,
// so the count is the last such line.
var pagesLine = regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`)

// Pages returns the page count pdfinfo reports.
func Pages(t testing.TB, pdf string) int {
	t.Helper()
	return EncryptedPages(t, pdf, "")
}

// EncryptedPages returns the page count pdfinfo reports for a PDF opened
// with password.
func EncryptedPages(t testing.TB, pdf, password string) int {
	t.Helper()
	out := Info(t, pdf, password)
	all := pagesLine.FindAllStringSubmatch(out, -1)
	if all == nil {
		t.Fatalf("pdfinfo %s: no page count in %q", pdf, out)
	}
	n, _ := strconv.Atoi(all[len(all)-1][1])
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
