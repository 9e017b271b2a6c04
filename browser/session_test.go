package browser

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/fixtures/site"
	"github.com/clawbridge/clawbridge/internal/htmlpdf"
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

func TestFormFlow(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "form-flow")

	res := navigate(ctx, t, s, srv.At("/form.html"))
	if res.Title != "Sign up" {
		t.Fatalf("title %q", res.Title)
	}
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	for _, want := range []string{`heading "Sign up" [level=1]`, `textbox "Full name" [required]`, `combobox "Country"`, `button "Later" [disabled]`, `checkbox "Subscribe to news"`} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("snapshot lacks %q:\n%s", want, snap.Text)
		}
	}
	if snap.Truncated || snap.Refs < 8 {
		t.Errorf("refs=%d truncated=%v", snap.Refs, snap.Truncated)
	}
	name := refFor(t, snap.Text, `textbox "Full name"`)
	if _, err := s.Click(ctx, Target{Ref: name}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Type(ctx, Target{Ref: name}, "Ada Lovelace", true, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Type(ctx, Target{Selector: "#email"}, "ada@example.org", true, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Select(ctx, Target{Ref: refFor(t, snap.Text, `combobox "Country"`)}, []string{"France"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Click(ctx, Target{Ref: refFor(t, snap.Text, `checkbox "Subscribe`)}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	// The value shows in the next snapshot, and a diff shows only changes.
	diff := snapshot(ctx, t, s, SnapshotOptions{Diff: true})
	if !diff.Diff || !strings.Contains(diff.Text, `value="Ada Lovelace"`) || strings.Contains(diff.Text, "Sign up") || len(diff.Text) >= len(snap.Text) {
		t.Errorf("diff snapshot:\n%s", diff.Text)
	}
	res, err := s.Click(ctx, Target{Ref: refFor(t, snap.Text, `button "Send"`)}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Title != "Thank you" {
		t.Fatalf("after submit: %+v", res)
	}
	ex, err := s.Extract(ctx, "", ExtractOptions{MaxText: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ex.Text, "country=fr; email=ada@example.org; name=Ada Lovelace; size=; subscribe=yes") &&
		!strings.Contains(ex.Text, "country=fr; email=ada@example.org; name=Ada Lovelace; subscribe=yes") {
		t.Errorf("submitted values: %q", ex.Text)
	}
	// The old refs are stale now: the page navigated.
	_, err = s.Click(ctx, Target{Ref: name}, ClickOptions{})
	if e, ok := toolerr.As(err); !ok || e.Code != toolerr.CodeNotFound || !strings.Contains(e.Message, "stale") {
		t.Fatalf("stale ref: %v", err)
	}
	_, err = s.Click(ctx, Target{Ref: "e99999"}, ClickOptions{})
	if e, ok := toolerr.As(err); !ok || !strings.Contains(e.Message, "unknown ref") {
		t.Fatalf("unknown ref: %v", err)
	}
}

func TestStaleRemovedElement(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "stale")
	navigate(ctx, t, s, srv.At("/form.html"))
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	ref := refFor(t, snap.Text, `button "Remove me"`)
	if _, err := s.Click(ctx, Target{Ref: ref}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Click(ctx, Target{Ref: ref}, ClickOptions{})
	if e, ok := toolerr.As(err); !ok || !strings.Contains(e.Message, "removed") {
		t.Fatalf("want stale-ref error, got %v", err)
	}
	// Other refs of the same snapshot still work.
	if _, err := s.Type(ctx, Target{Ref: refFor(t, snap.Text, `textbox "Email"`)}, "x@y.z", true, false); err != nil {
		t.Fatal(err)
	}
}

func TestExtractTableAndForms(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "extract")
	ex, err := s.Extract(ctx, srv.At("/table.html"), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Tables) != 1 || strings.Join(ex.Tables[0].Headers, ",") != "Fruit,Price,Stock" || len(ex.Tables[0].Rows) != 3 || ex.Tables[0].Rows[2][0] != "Cherry" {
		t.Fatalf("tables: %+v", ex.Tables)
	}
	ex, err = s.Extract(ctx, srv.At("/form.html"), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Forms) == 0 || len(ex.Forms[0].Fields) < 6 || ex.Forms[0].Fields[0].Label != "Full name" {
		t.Fatalf("forms: %+v", ex.Forms)
	}
	results, submitted, res, err := s.FillForm(ctx, map[string]string{"Full name": "Li Lei", "email": "li@example.cn", "Country": "China", "Size": "Large", "Subscribe to news": "yes"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("field %s: %s", r.Field, r.Error)
		}
	}
	if submitted != "ok" || res.Title != "Thank you" {
		t.Fatalf("submit: %q %+v", submitted, res)
	}
}

func TestTabsWaitScreenshotPDF(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "tabs")
	navigate(ctx, t, s, srv.At("/table.html"))
	r2, err := s.NewTab(ctx, srv.At("/script.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WaitFor(ctx, WaitOptions{Text: "Content ready."}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WaitFor(ctx, WaitOptions{Selector: "#ready"}); err != nil {
		t.Fatal(err)
	}
	_, err = s.WaitFor(ctx, WaitOptions{Text: "never appears", Timeout: 500 * time.Millisecond})
	if e, ok := toolerr.As(err); !ok || e.Code != toolerr.CodeTimeout {
		t.Fatalf("want timeout, got %v", err)
	}
	tabs, err := s.Tabs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs) != 2 || !tabs[1].Active || tabs[1].Title != "Rendered by script" {
		t.Fatalf("tabs: %+v", tabs)
	}
	if _, err := s.SelectTab(ctx, tabs[0].Tab); err != nil {
		t.Fatal(err)
	}
	img, _, err := s.Screenshot(ctx, ScreenshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 1280 || cfg.Height != 800 {
		t.Errorf("screenshot %dx%d", cfg.Width, cfg.Height)
	}
	el, _, err := s.Screenshot(ctx, ScreenshotOptions{Target: Target{Selector: "#prices"}})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := png.DecodeConfig(bytes.NewReader(el)); err != nil || c.Width >= 1280 {
		t.Errorf("element screenshot %+v %v", c, err)
	}
	pdf, _, err := s.PDF(ctx, htmlpdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := exec.LookPath("pdftotext"); err == nil {
		path := filepath.Join(t.TempDir(), "t.pdf")
		_ = os.WriteFile(path, pdf, 0o644)
		out, err := exec.Command(p, path, "-").Output()
		if err != nil || !strings.Contains(string(out), "Banana") {
			t.Errorf("pdf text: %v %q", err, out)
		}
	}
	left, err := s.CloseTab(ctx, r2.Tab)
	if err != nil || len(left) != 1 {
		t.Fatalf("close: %v %+v", err, left)
	}
	cons, err := s.Console(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	_ = cons
}

func TestLongPagePaging(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "long")
	navigate(ctx, t, s, srv.At("/long.html"))
	first := snapshot(ctx, t, s, SnapshotOptions{Limit: 8000})
	if len(first.Text) > 8000 || !first.Truncated || first.TotalChars < 200<<10 || first.NextOffset == 0 {
		t.Fatalf("first window: len=%d total=%d next=%d", len(first.Text), first.TotalChars, first.NextOffset)
	}
	second := snapshot(ctx, t, s, SnapshotOptions{Offset: first.NextOffset, Limit: 8000})
	if len(second.Text) > 8000 || second.Text == "" || strings.HasPrefix(second.Text, " ") && !strings.HasPrefix(strings.TrimLeft(second.Text, " "), "-") {
		t.Fatalf("second window starts mid-line: %q", second.Text[:80])
	}
	last, err := s.Snapshot(ctx, SnapshotOptions{Offset: first.TotalChars - 100, Limit: 8000})
	if err != nil || last.Truncated || !strings.Contains(last.Text, "The end.") {
		t.Fatalf("last window: %v %+v", err, last)
	}
}

func TestDialogsAndCookiesIsolation(t *testing.T) {
	needBrowser(t)
	srv := site.Start(t)
	ctx := ctxT(t)
	a, b := testMgr.Session("alice"), testMgr.Session("bob")
	defer testMgr.CloseSession("alice")
	defer testMgr.CloseSession("bob")
	navigate(ctx, t, a, srv.At("/cookie?set=alice"))
	navigate(ctx, t, b, srv.At("/cookie?set=bob"))
	for s, want := range map[*Session]string{a: "cookie=alice", b: "cookie=bob"} {
		navigate(ctx, t, s, srv.At("/cookie"))
		ex, err := s.Extract(ctx, "", ExtractOptions{MaxText: 100})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ex.Text, want) {
			t.Errorf("want %s, page says %q", want, ex.Text)
		}
	}
	// Dialogs are answered and reported.
	navigate(ctx, t, a, srv.At("/dialog.html"))
	a.TakeEvents()
	if _, err := a.Click(ctx, Target{Selector: "#confirm"}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	ev := a.TakeEvents()
	if len(ev.Dialogs) != 1 || ev.Dialogs[0].Message != "Delete it?" || ev.Dialogs[0].Type != "confirm" {
		t.Fatalf("dialogs: %+v", ev.Dialogs)
	}
	if _, err := a.WaitFor(ctx, WaitOptions{Text: "confirmed"}); err != nil {
		t.Fatal(err)
	}
	// A link with target=_blank opens a tab that the session adopts.
	if _, err := a.Click(ctx, Target{Selector: "#popup"}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	var opened []string
	for i := 0; i < 20 && len(opened) == 0; i++ {
		tabs, err := a.Tabs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		opened = a.TakeEvents().NewTabs
		if len(opened) == 0 {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if len(tabs) != 2 || !tabs[1].Active {
			t.Fatalf("tabs after popup: %+v", tabs)
		}
	}
	if len(opened) != 1 {
		t.Fatal("popup tab not adopted")
	}
	if _, err := a.WaitFor(ctx, WaitOptions{Text: "Cherry"}); err != nil {
		t.Fatal(err)
	}
}

func TestGuardRefusals(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "guard")
	for _, u := range []string{"http://10.0.0.1/", "http://localhost:1/", "file:///etc/passwd", "http://169.254.169.254/latest/meta-data"} {
		_, err := s.Navigate(ctx, u)
		if e, ok := toolerr.As(err); !ok || e.Code != toolerr.CodeDenied {
			t.Errorf("%s: want denied, got %v", u, err)
		}
	}
	_, err := s.Navigate(ctx, srv.At("/redirect-private"))
	if e, ok := toolerr.As(err); !ok || e.Code != toolerr.CodeDenied || !strings.Contains(e.Message, "10.255.0.1") {
		t.Fatalf("redirect to private: want denied, got %v", err)
	}
	s.TakeEvents()
	navigate(ctx, t, s, srv.At("/private-image.html"))
	ev := s.TakeEvents()
	if len(ev.Blocked) == 0 || !strings.Contains(ev.Blocked[0].URL, "10.255.0.1") {
		t.Fatalf("subresource to private address not reported blocked: %+v", ev)
	}
}

func TestOriginPolicy(t *testing.T) {
	p := newOriginPolicy([]string{"https://example.com", "*.example.org", "127.0.0.1:8080"}, []string{"bad.example.org"})
	cases := []struct {
		scheme, host, port string
		ok                 bool
	}{
		{"https", "example.com", "", true},
		{"http", "example.com", "", false},
		{"https", "a.example.org", "", true},
		{"https", "bad.example.org", "", false},
		{"http", "127.0.0.1", "8080", true},
		{"http", "127.0.0.1", "8081", false},
		{"https", "other.net", "", false},
	}
	for _, c := range cases {
		if got := p.check(c.scheme, c.host, c.port) == ""; got != c.ok {
			t.Errorf("%s://%s:%s allowed=%v want %v", c.scheme, c.host, c.port, got, c.ok)
		}
	}
}

func TestWindowAndDiff(t *testing.T) {
	text := "- a\n- b\n- ccc\n- d"
	w, next := window(text, 0, 8)
	if w != "- a\n- b" || next != 8 {
		t.Fatalf("%q %d", w, next)
	}
	w, next = window(text, 8, 100)
	if w != "- ccc\n- d" || next != 0 {
		t.Fatalf("%q %d", w, next)
	}
	out, removed := diffLines([]string{"- list", "  - x", "  - y"}, []string{"- list", "  - x", "  - z"})
	if strings.Join(out, "|") != "  - list|+   - z" || removed != 1 {
		t.Fatalf("%q %d", out, removed)
	}
}

func TestZCrashRecovery(t *testing.T) {
	srv := site.Start(t)
	s, ctx := openSession(t, "crash")
	navigate(ctx, t, s, srv.At("/table.html"))
	pid := testMgr.PID()
	if pid == 0 {
		t.Fatal("no browser pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	s.TakeEvents()
	res := navigate(ctx, t, s, srv.At("/form.html"))
	ev := s.TakeEvents()
	if !strings.Contains(ev.Notice, "crashed") || !strings.Contains(ev.Notice, "lost") {
		t.Errorf("notice: %q", ev.Notice)
	}
	if res.Title != "Sign up" || testMgr.PID() == pid {
		t.Errorf("after relaunch: %+v pid %d", res, testMgr.PID())
	}
}
