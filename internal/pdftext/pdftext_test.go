package pdftext

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const fixtures = "../../fixtures/pdf/"

// pages is how many pages poppler's pdfinfo counts, a second reader.
func pages(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command(tooltest.NeedProgram(t, "pdfinfo"), path).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "Pages:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatalf("pdfinfo counts no pages:\n%s", out)
	return 0
}

// TestExtract_PageBreaksAndRange: a page ends with a form feed, as many as
// pdfinfo counts pages; First and Last bound them.
func TestExtract_PageBreaksAndRange(t *testing.T) {
	tooltest.NeedProgram(t, "pdftotext")
	abs, _ := filepath.Abs(fixtures + "chinese.pdf")
	text, err := Extract(t.Context(), jail.Run, abs, "chinese.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := pages(t, abs); strings.Count(text, "\f") != n {
		t.Fatalf("%d form feeds for %d pages", strings.Count(text, "\f"), n)
	}
	two, err := Extract(t.Context(), jail.Run, abs, "chinese.pdf", Options{First: 2, Last: 2})
	if err != nil || strings.Count(two, "\f") != 1 || !strings.Contains(text, strings.TrimSpace(strings.TrimSuffix(two, "\f"))) {
		t.Fatalf("page 2: %q, %v", two, err)
	}
}

// TestExtract_Failures: what goes wrong is a tool error with one code per
// cause, naming the file by the name given, never by its host path.
func TestExtract_Failures(t *testing.T) {
	tooltest.NeedProgram(t, "pdftotext")
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.pdf")
	if err := os.WriteFile(broken, []byte("%PDF-1.7\nnot a PDF at all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	locked, _ := filepath.Abs(fixtures + "r4-user-password.pdf")
	big, _ := filepath.Abs(fixtures + "chinese.pdf")
	for _, tc := range []struct {
		name, abs, want string
		o               Options
		code            string
	}{
		{"docs/broken.pdf", broken, "docs/broken.pdf is not a readable PDF", Options{}, tool.CodeInvalid},
		{"locked.pdf", locked, "locked.pdf is encrypted and needs a password", Options{}, tool.CodeInvalid},
		{"locked.pdf", locked, "locked.pdf is encrypted and needs a password", Options{Password: "wrong"}, tool.CodeInvalid},
		{"big.pdf", big, "big.pdf has more than 10 bytes of text", Options{MaxBytes: 10}, tool.CodeTooLarge},
	} {
		_, err := Extract(t.Context(), jail.Run, tc.abs, tc.name, tc.o)
		te, ok := tool.AsError(err)
		if !ok || te.Code != tc.code || !strings.Contains(te.Message, tc.want) {
			t.Errorf("%s %+v: want %s %q, got %v", tc.name, tc.o, tc.code, tc.want, err)
			continue
		}
		if strings.Contains(te.Message+te.Hint, dir) || strings.Contains(te.Message+te.Hint, "fixtures") {
			t.Errorf("%s: the message shows a host path: %v", tc.name, te)
		}
	}
	// The right password opens it; Partial keeps what fits.
	if text, err := Extract(t.Context(), jail.Run, locked, "locked.pdf", Options{Password: "asdfzxcv"}); err != nil || !strings.Contains(text, "pdf encryption test") {
		t.Errorf("with its password: %q, %v", text, err)
	}
	if text, err := Extract(t.Context(), jail.Run, big, "big.pdf", Options{MaxBytes: 10, Partial: true}); err != nil || len(text) != 10 {
		t.Errorf("partial: %q, %v", text, err)
	}
}
