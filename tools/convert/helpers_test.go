package convert

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

var (
	mgrOnce sync.Once
	mgr     *browser.Manager
)

// renderer returns the shared Chromium PDF renderer for the package's tests.
func renderer(t testing.TB) tool.PDFRenderer {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		if _, err2 := exec.LookPath("chromium-browser"); err2 != nil {
			tooltest.NeedProgram(t, "chromium")
		}
	}
	mgrOnce.Do(func() {
		cfg := browser.DefaultConfig()
		cfg.IdleTimeout = 0
		mgr = browser.New(cfg, nil, zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
	})
	return mgr
}

func TestMain(m *testing.M) {
	api.DisableConfigDir()
	code := m.Run()
	if mgr != nil {
		mgr.Close()
	}
	os.Exit(code)
}

type env struct {
	t    *testing.T
	d    *tool.Deps
	tool tool.Tool
	root string
}

func newEnv(t *testing.T, withPDF bool) *env {
	t.Helper()
	d := tooltest.Deps(t)
	if withPDF {
		d.PDF = renderer(t)
	}
	return &env{t: t, d: d, tool: tooltest.Build(t, New, d), root: d.Sandbox.Root()}
}

func (e *env) put(rel string, data []byte) string {
	e.t.Helper()
	tooltest.WriteFile(e.t, filepath.Join(e.root, rel), data)
	return rel
}

func (e *env) run(args map[string]any) *tool.Result {
	e.t.Helper()
	args["action"] = "convert"
	return tooltest.OK(e.t, e.tool, args)
}

// output converts and returns the text of the file written.
func (e *env) output(args map[string]any) string {
	e.t.Helper()
	return string(read(e.t, e.run(args).Files[0].Path))
}

// containsAll fails the test unless text holds every one of wants.
func containsAll(t testing.TB, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func (e *env) fail(args map[string]any, code string) *tool.Error {
	e.t.Helper()
	args["action"] = "convert"
	te := tooltest.Refused(e.t, e.tool, args)
	if te.Code != code {
		e.t.Fatalf("%v: code %s (%s), want %s", args, te.Code, te.Message, code)
	}
	return te
}

func read(t testing.TB, p string) []byte {
	t.Helper()
	return tooltest.ReadFile(t, p)
}

// checkPDF validates a PDF with pdfcpu and returns poppler's page count and
// text.
func checkPDF(t testing.TB, abs string) (int, string) {
	t.Helper()
	conf := model.NewDefaultConfiguration()
	conf.Offline = true
	if err := api.Validate(bytes.NewReader(read(t, abs)), conf); err != nil {
		t.Fatalf("pdfcpu validation of %s: %v", abs, err)
	}
	return officetest.Pages(t, abs), officetest.Text(t, abs)
}
