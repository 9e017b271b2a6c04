package office_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/officetest"
)

func TestConvertErrors(t *testing.T) {
	officetest.Require(t, "soffice")
	dir := t.TempDir()
	a := filepath.Join(dir, "a", "x.docx")
	b := filepath.Join(dir, "b", "x.docx")
	if _, err := office.ConvertToPDF(t.Context(), jail.Run, dir, a, b); err == nil || !strings.Contains(err.Error(), "two inputs named x") {
		t.Fatalf("want duplicate-name error, got %v", err)
	}
	// A file LibreOffice cannot read yields an error naming it, not a PDF.
	bad := filepath.Join(dir, "junk.docx")
	os.WriteFile(bad, []byte("not a document"), 0o644)
	outs, err := office.ConvertToPDF(t.Context(), jail.Run, filepath.Join(dir, "out"), bad)
	if err == nil {
		// LibreOffice imports unknown bytes as plain text; then the PDF
		// must hold that text.
		if txt := officetest.Text(t, outs[0]); !strings.Contains(txt, "not a document") {
			t.Fatalf("unexpected PDF text %q", txt)
		}
	} else if !strings.Contains(err.Error(), "junk.docx") {
		t.Fatalf("error does not name the file: %v", err)
	}
	if outs, err := office.ConvertToPDF(t.Context(), jail.Run, dir); err != nil || outs != nil {
		t.Fatalf("no inputs: %v %v", outs, err)
	}
}
