package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestDashboard_BrowserLive opens /ui in a real headless Chromium through
// rod, signs in with ?token= (the cookie then carries the page), drives a
// real mcp-go client that routes with find_tools and calls tools, and waits
// for the page (polling) to show the session, its tier change and the
// calls as they happen, without a reload. The 1280×800 screenshot is kept
// in the test's temp dir and in $CLAWBRIDGE_KEEP_OUTPUT.
func TestDashboard_BrowserLive(t *testing.T) {
	bin, ok := launcher.LookPath()
	if !ok {
		tooltest.Missing(t, "chromium not available (apt-get install chromium)")
		return
	}
	f := newFixture(t, "token", 3)
	f.s.cfg.HTTP.Token = "tok-browser"
	addr, cancel, done := listen(t, f.s)
	t.Cleanup(func() { cancel(); <-done })
	base := "http://" + addr

	l := launcher.New().Bin(bin).Headless(true).NoSandbox(os.Geteuid() == 0).Leakless(false).
		UserDataDir(t.TempDir()).Set("disable-gpu").Set("no-first-run").Set("window-size", "1280,800")
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(); l.Kill(); l.Cleanup() })
	b = b.Timeout(60 * time.Second)

	// Without the token: 401 for the page, and for its data from the page's origin.
	page := b.MustPage(base + "/ui")
	if body := page.MustElement("body").MustText(); !strings.Contains(body, "unauthorized") {
		t.Fatalf("/ui without the token shows %q, want the 401", body)
	}
	page.MustNavigate(base + "/ui?token=tok-browser").MustWaitLoad()
	if got := page.MustInfo().URL; got != base+"/ui" {
		t.Fatalf("after sign-in the address is %q, want the bare /ui", got)
	}
	page.MustSetViewport(1280, 800, 1, false)
	if cookies := page.MustCookies(); len(cookies) != 1 || !cookies[0].HTTPOnly || cookies[0].SameSite != proto.NetworkCookieSameSiteStrict {
		t.Fatalf("cookies %+v: want one HttpOnly SameSite=Strict", cookies)
	}

	c := dial(t, base+"/mcp", mcp.ProtocolVersion20251125, bearerHeader("tok-browser"))
	call(t, c, "echo", map[string]any{"text": "before routing"})
	row := page.MustElement(`#sessions tr[data-session]`) // waits for the poll to show it
	if txt := row.MustText(); !strings.Contains(txt, "session-test 1") || !strings.Contains(txt, "streamable_http") || !strings.Contains(txt, mcp.ProtocolVersion20251125) {
		t.Fatalf("session row %q", txt)
	}
	if tier := *row.MustAttribute("data-tier"); tier != string(exposure.TierFull) {
		t.Fatalf("tier before routing %q", tier)
	}
	if r := call(t, c, exposure.FindTools, map[string]any{"request": "merge these three PDF files into one"}); r.IsError {
		t.Fatalf("find_tools: %s", text(r))
	}
	call(t, c, "echo", map[string]any{"text": "after routing <b>not bold</b>"})
	call(t, c, "echo", map[string]any{}) // an error, for the errors panel

	// The poll brings the tier change and the calls, without a reload.
	page.MustWait(`() => { const r = document.querySelector("#sessions tr[data-session]"); return r && r.dataset.tier !== "full" && r.querySelector(".history").textContent.includes("full →") }`)
	page.MustWait(`() => document.querySelectorAll("#calls tr[data-tool=echo]").length === 3 && document.querySelectorAll("#calls tr[data-tool=find_tools]").length === 1 && document.querySelectorAll("#errors tbody tr").length === 1`)
	// A click opens the call's details: its redacted arguments and the
	// result the model got, fetched from /ui/api/calls/<trace id>, as text
	// (the markup in it is not parsed).
	page.MustElement(`#calls tr[data-tool=echo][data-status=ok]`).MustClick()
	page.MustWait(`() => { const d = document.querySelector("#calls tr.detail"); return d && d.textContent.includes("arguments (redacted)") && d.querySelector("pre.result") && d.querySelector("pre.result").textContent.includes("echo: after routing <b>not bold</b>") }`)
	if page.MustHas(`#calls tr.detail b`) {
		t.Fatal("the result's markup was parsed as HTML")
	}

	page.MustElement("#req").MustInput("把这三个PDF合并成一个")
	page.MustElement("#route").MustClick()
	page.MustWait(`() => document.querySelector("#decision").textContent.includes("tokens")`)

	shot := filepath.Join(t.TempDir(), "dashboard.png")
	png, err := page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	officetest.Keep(t, shot)
	t.Logf("screenshot: %s", shot)
}
