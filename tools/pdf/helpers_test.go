package pdf

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type env struct {
	t    *testing.T
	d    *tool.Deps
	tool tool.Tool
	root string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	d := tooltest.Deps(t)
	return &env{t: t, d: d, tool: tooltest.Build(t, New, d), root: d.Sandbox.Root()}
}

// put writes data into the workspace and returns the relative path.
func (e *env) put(rel string, data []byte) string {
	e.t.Helper()
	tooltest.WriteFile(e.t, filepath.Join(e.root, rel), data)
	return rel
}

// with returns the env bound to a subtest.
func (e *env) with(t *testing.T) *env { c := *e; c.t = t; return &c }

func (e *env) abs(rel string) string { return filepath.Join(e.root, rel) }

func (e *env) run(args map[string]any) *tool.Result {
	e.t.Helper()
	res, err := tooltest.Run(e.t, e.tool, args)
	if err != nil {
		e.t.Fatalf("%v: %v", args["action"], err)
	}
	return res
}

// wrote checks that a result names the file it wrote at rel, with the size
// that is on disk.
func (e *env) wrote(res *tool.Result, rel string) {
	e.t.Helper()
	if len(res.Files) == 0 || res.Files[0].Path != e.abs(rel) {
		e.t.Fatalf("result files %+v, want %s first", res.Files, e.abs(rel))
	}
	st, err := os.Stat(e.abs(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	if res.Files[0].Size != st.Size() {
		e.t.Fatalf("result says %d bytes, %s has %d", res.Files[0].Size, rel, st.Size())
	}
}

// fail runs a call that must fail with a tool error of the given code.
func (e *env) fail(args map[string]any, code string) *tool.Error {
	e.t.Helper()
	_, err := tooltest.Run(e.t, e.tool, args)
	if err == nil {
		e.t.Fatalf("%v: expected error %s, got success", args["action"], code)
	}
	te, ok := tool.AsError(err)
	if !ok {
		e.t.Fatalf("%v: expected a tool error, got %v", args["action"], err)
	}
	if code != "" && te.Code != code {
		e.t.Fatalf("%v: error code %s (%s), want %s", args["action"], te.Code, te.Message, code)
	}
	return te
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	return tooltest.ReadFile(t, filepath.Join("..", "..", "fixtures", "pdf", name))
}

// checkPDF asserts that a produced PDF validates with pdfcpu and that both
// pdfcpu and poppler's pdfinfo report the expected page count.
func checkPDF(t testing.TB, abs string, pages int, password string) {
	t.Helper()
	data := tooltest.ReadFile(t, abs)
	if err := api.Validate(bytes.NewReader(data), conf(password)); err != nil {
		t.Fatalf("%s: pdfcpu validation: %v", abs, err)
	}
	n, err := api.PageCount(bytes.NewReader(data), conf(password))
	if err != nil || n != pages {
		t.Fatalf("%s: pdfcpu page count %d (%v), want %d", abs, n, err, pages)
	}
	if got := officetest.EncryptedPages(t, abs, password); got != pages {
		t.Fatalf("%s: pdfinfo pages %d, want %d", abs, got, pages)
	}
}

func pngBytes(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if (x/10+y/10)%2 == 0 {
				img.Set(x, y, c)
			} else {
				img.Set(x, y, color.White)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// manyPages builds a PDF of 3*copies pages by merging the Chinese fixture.
func manyPages(t testing.TB, copies int) []byte {
	t.Helper()
	src := fixture(t, "chinese.pdf")
	var rss []io.ReadSeeker
	for i := 0; i < copies; i++ {
		rss = append(rss, bytes.NewReader(src))
	}
	var buf bytes.Buffer
	if err := api.MergeRaw(rss, &buf, false, conf("")); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// formJSON describes a one-page form for pdfcpu's create API.
const formJSON = `{
 "paper": "A4P", "origin": "LowerLeft",
 "fonts": {"input": {"name": "Helvetica", "size": 12}, "label": {"name": "Helvetica", "size": 10}},
 "pages": {"1": {"content": {
   "textfield": [{"id": "name", "value": "", "pos": [150, 700], "width": 200, "font": {"name": "$input"},
                  "label": {"value": "Name:", "width": 60, "gap": 10, "pos": "left", "font": {"name": "$label"}}}],
   "checkbox": [{"id": "agree", "value": false, "pos": [150, 650], "width": 12,
                  "label": {"value": "Agree:", "width": 60, "gap": 10, "pos": "left", "font": {"name": "$label"}}}],
   "combobox": [{"id": "country", "value": "France", "options": ["China", "France", "Germany"], "pos": [150, 600], "width": 120, "font": {"name": "$input"},
                  "label": {"value": "Country:", "width": 60, "gap": 10, "pos": "left", "font": {"name": "$label"}}}]
 }}}
}`

func formPDF(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := api.Create(nil, strings.NewReader(formJSON), &buf, conf("")); err != nil {
		t.Fatalf("create form: %v", err)
	}
	return buf.Bytes()
}

func execOut(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
