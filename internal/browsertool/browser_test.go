package browsertool

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/browser/browsertest"
	"github.com/clawbridge/clawbridge/fixtures/site"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// mgr is the package's shared browser (browsertest.Main).
var mgr *browser.Manager

func TestMain(m *testing.M) { browsertest.Main(m, &mgr) }

// startTool needs Chromium and returns the tool over the shared browser,
// its deps and the fixture site; the named sessions close when the test ends.
func startTool(t *testing.T, sessions ...string) (tool.Tool, *tool.Deps, *site.Server) {
	t.Helper()
	browsertest.Need(t, mgr)
	d := tooltest.Deps(t, "127.0.0.1")
	srv := site.Start(t)
	for _, name := range sessions {
		t.Cleanup(func() { mgr.CloseSession(name) })
	}
	return New(d, mgr), d, srv
}

// call runs one action in a session, as the server would.
func call(t *testing.T, tl tool.Tool, session string, args map[string]any) (*tool.Result, error) {
	t.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		return nil, err
	}
	c.Session = session
	return tl.Handle(t.Context(), c)
}

func must(t *testing.T, tl tool.Tool, session string, args map[string]any) map[string]any {
	t.Helper()
	res, err := call(t, tl, session, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res.Data.(map[string]any)
}

func refFor(t *testing.T, snap string, parts ...string) string {
	t.Helper()
	for _, l := range strings.Split(snap, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if i := strings.Index(l, "[ref="); ok && i >= 0 {
			return l[i+5 : i+strings.IndexByte(l[i:], ']')]
		}
	}
	t.Fatalf("no ref for %v in:\n%s", parts, snap)
	return ""
}

func TestToolContract(t *testing.T) {
	tl := New(&tool.Deps{}, nil)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	for action, want := range map[string]tool.Level{"evaluate": tool.High, "snapshot": tool.Read, "click": tool.Write, "screenshot": tool.Read} {
		if got := tl.LevelOf(tool.NewCall(action, nil)); got != want {
			t.Errorf("%s: level %s, want %s", action, got, want)
		}
	}
	if got := tl.LevelOf(tool.NewCall("screenshot", map[string]any{"save": true})); got != tool.Write {
		t.Errorf("screenshot with save: level %s, want write", got)
	}
	// No browser configured: a clear unavailable error.
	_, err := call(t, tl, "", map[string]any{"action": "navigate", "url": "https://example.com"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeUnavailable || !strings.Contains(e.Hint, "apt-get install chromium") {
		t.Fatalf("no browser: %v", err)
	}
	// A configured path that does not exist names the package too.
	cfg := browser.DefaultConfig()
	cfg.Path = "/nonexistent/chromium"
	_, err = call(t, New(&tool.Deps{}, browser.New(cfg, nil, zerolog.Nop())), "", map[string]any{"action": "snapshot"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeUnavailable || !strings.Contains(e.Hint, "apt-get install chromium") {
		t.Fatalf("bad path: %v", err)
	}
}

func TestFlowThroughHandler(t *testing.T) {
	const sess = "flow"
	tl, _, srv := startTool(t, sess)

	must(t, tl, sess, map[string]any{"action": "navigate", "url": srv.At("/form.html")})
	snap := must(t, tl, sess, map[string]any{"action": "snapshot"})["snapshot"].(string)
	must(t, tl, sess, map[string]any{"action": "click", "ref": refFor(t, snap, `textbox "Full name"`)})
	must(t, tl, sess, map[string]any{"action": "type", "ref": refFor(t, snap, `textbox "Full name"`), "text": "Grace Hopper"})
	must(t, tl, sess, map[string]any{"action": "select", "ref": refFor(t, snap, `combobox "Country"`), "values": []any{"us"}})
	must(t, tl, sess, map[string]any{"action": "type", "selector": "#email", "text": "grace@example.org", "submit": true})
	must(t, tl, sess, map[string]any{"action": "wait_for", "text": "Thank you"})
	after := must(t, tl, sess, map[string]any{"action": "snapshot"})
	if !strings.Contains(after["snapshot"].(string), "name=Grace Hopper") || after["title"] != "Thank you" {
		t.Fatalf("after submit: %v", after)
	}
	// stale ref from the form page
	_, err := call(t, tl, sess, map[string]any{"action": "click", "ref": refFor(t, snap, `button "Send"`)})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeNotFound || !strings.Contains(e.Message, "stale") {
		t.Fatalf("stale: %v", err)
	}
	// missing element argument
	_, err = call(t, tl, sess, map[string]any{"action": "click"})
	if e, ok := tool.AsError(err); !ok || e.Field != "ref" {
		t.Fatalf("no target: %v", err)
	}
	// back to the form
	if got := must(t, tl, sess, map[string]any{"action": "back"}); got["title"] != "Sign up" {
		t.Errorf("back: %v", got)
	}
	// evaluate is off by default
	_, err = call(t, tl, sess, map[string]any{"action": "evaluate", "script": "document.title"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied {
		t.Fatalf("evaluate: %v", err)
	}
}

func TestTabsScreenshotPDFDownload(t *testing.T) {
	const sess = "media"
	tl, d, srv := startTool(t, sess)
	must(t, tl, sess, map[string]any{"action": "navigate", "url": srv.At("/table.html")})
	nt := must(t, tl, sess, map[string]any{"action": "tabs", "mode": "new", "url": srv.At("/dialog.html")})
	tabs := must(t, tl, sess, map[string]any{"action": "tabs"})["tabs"].([]browser.PageInfo)
	if len(tabs) != 2 || tabs[1].Tab != nt["tab"] || !tabs[1].Active {
		t.Fatalf("tabs: %+v", tabs)
	}
	must(t, tl, sess, map[string]any{"action": "tabs", "mode": "select", "tab": tabs[0].Tab})

	res, err := call(t, tl, sess, map[string]any{"action": "screenshot", "save": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || len(res.Files) != 1 {
		t.Fatalf("screenshot result: %+v", res)
	}
	img, err := png.DecodeConfig(bytes.NewReader(res.Images[0].Data))
	if err != nil || img.Width != 1280 || img.Height != 800 {
		t.Fatalf("png %+v %v", img, err)
	}
	if fi, err := os.Stat(res.Files[0].Path); err != nil || fi.Size() != int64(len(res.Images[0].Data)) {
		t.Fatalf("saved screenshot: %v", err)
	}

	res, err = call(t, tl, sess, map[string]any{"action": "pdf", "output": "page.pdf", "page_size": "Letter"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := exec.LookPath("pdfinfo"); err == nil {
		out, err := exec.Command(p, res.Files[0].Path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Pages:") || !strings.Contains(string(out), "612 x 792") {
			t.Fatalf("pdfinfo: %v\n%s", err, out)
		}
	}
	if !strings.HasPrefix(res.Files[0].Path, d.Sandbox.Root()) {
		t.Errorf("pdf outside workspace: %s", res.Files[0].Path)
	}
	// the same output again is refused without overwrite
	_, err = call(t, tl, sess, map[string]any{"action": "pdf", "output": "page.pdf"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeExists {
		t.Fatalf("overwrite: %v", err)
	}

	// download lands in the download dir and is reported
	must(t, tl, sess, map[string]any{"action": "navigate", "url": srv.At("/download.html")})
	var downloads any
	for i := 0; i < 2 && downloads == nil; i++ {
		data := must(t, tl, sess, map[string]any{"action": "click", "selector": "#dl"})
		downloads = data["downloads"]
		if downloads == nil {
			time.Sleep(500 * time.Millisecond)
			downloads = must(t, tl, sess, map[string]any{"action": "tabs"})["downloads"]
		}
	}
	if downloads == nil {
		t.Fatal("no download reported")
	}
	got, err := os.ReadFile(filepath.Join(mgr.Config().DownloadDir, "report.txt"))
	if err != nil || string(got) != "downloaded content\n" {
		t.Fatalf("download file: %v %q", err, got)
	}

	closed := must(t, tl, sess, map[string]any{"action": "tabs", "mode": "close", "tab": nt["tab"]})
	if len(closed["tabs"].([]browser.PageInfo)) != 1 {
		t.Fatalf("close: %v", closed)
	}
}

func TestSessionsAndGuard(t *testing.T) {
	tl, _, srv := startTool(t, "s1", "s2")
	must(t, tl, "s1", map[string]any{"action": "navigate", "url": srv.At("/cookie?set=one")})
	must(t, tl, "s2", map[string]any{"action": "navigate", "url": srv.At("/cookie")})
	snap := must(t, tl, "s2", map[string]any{"action": "snapshot"})["snapshot"].(string)
	if !strings.Contains(snap, "cookie=(none)") {
		t.Fatalf("session 2 sees session 1's cookie:\n%s", snap)
	}
	_, err := call(t, tl, "s1", map[string]any{"action": "navigate", "url": srv.At("/redirect-private")})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied {
		t.Fatalf("private redirect: %v", err)
	}
	_, err = call(t, tl, "s1", map[string]any{"action": "navigate", "url": "http://192.168.1.1/"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeDenied {
		t.Fatalf("private: %v", err)
	}
}

// TestFreshSession_PageActionsSayNavigateFirst: in a session with no page
// yet (and in a new tab without a URL) every action that works on a page
// is refused with the same "navigate first" answer, writes no file, and
// opens nothing; after a navigate they work.
func TestFreshSession_PageActionsSayNavigateFirst(t *testing.T) {
	const sess = "fresh"
	tl, d, srv := startTool(t, sess)

	pageActions := []map[string]any{
		{"action": "snapshot"},
		{"action": "click", "ref": "e1"},
		{"action": "type", "selector": "input", "text": "x"},
		{"action": "press", "key": "Enter"},
		{"action": "select", "selector": "select", "values": []any{"a"}},
		{"action": "hover", "selector": "a"},
		{"action": "scroll"},
		{"action": "wait_for", "text": "hello"},
		{"action": "screenshot", "save": true},
		{"action": "pdf"},
		{"action": "console"},
		{"action": "back"},
		{"action": "forward"},
		{"action": "reload"},
	}
	refused := func(when string) {
		t.Helper()
		for _, args := range pageActions {
			_, err := call(t, tl, sess, args)
			e, ok := tool.AsError(err)
			if !ok || e.Code != tool.CodeInvalid || !strings.Contains(e.Message, "no page is open") || !strings.Contains(e.Hint, "navigate") {
				t.Errorf("%s: %v: %v", when, args["action"], err)
			}
		}
	}
	refused("fresh session")
	if tabs := must(t, tl, sess, map[string]any{"action": "tabs"})["tabs"]; tabs != nil && len(tabs.([]browser.PageInfo)) != 0 {
		t.Errorf("refused actions opened tabs: %v", tabs)
	}
	must(t, tl, sess, map[string]any{"action": "tabs", "mode": "new"})
	refused("a new tab without a URL")
	if files, _ := filepath.Glob(filepath.Join(d.Sandbox.Root(), "outputs", "*")); len(files) != 0 {
		t.Errorf("refused actions wrote %v", files)
	}

	must(t, tl, sess, map[string]any{"action": "navigate", "url": srv.At("/form.html")})
	if snap := must(t, tl, sess, map[string]any{"action": "snapshot"})["snapshot"].(string); !strings.Contains(snap, "Full name") {
		t.Fatalf("snapshot after navigate: %q", snap)
	}
	must(t, tl, sess, map[string]any{"action": "console"})
}
