package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// testMgr is shared by the package's tests: one Chromium for the whole run.
var testMgr *Manager

func TestMain(m *testing.M) {
	cfg := DefaultConfig()
	cfg.IdleTimeout = 0
	cfg.NavigationTimeout = 20 * time.Second
	cfg.DownloadDir, _ = os.MkdirTemp("", "cb-dl-")
	testMgr = New(cfg, testGuard(), zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
	code := m.Run()
	testMgr.Close()
	os.RemoveAll(cfg.DownloadDir)
	// With the browser closed nothing of ours may be left running: a CDP
	// reader, a tab watcher or an idle timer that outlives Close is a leak.
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left after the tests and Manager.Close:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// needBrowser skips the test without Chromium, or fails it when
// CLAWBRIDGE_REQUIRE_PROGRAMS=1 (tooltest.Missing, the one skip policy;
// browsertest.Need for the tools, which this package cannot import).
func needBrowser(t testing.TB) {
	t.Helper()
	if _, err := testMgr.BrowserPath(); err != nil {
		tooltest.Missing(t, "chromium not available: %v (apt-get install chromium, or scripts/install-deps.sh)", err)
	}
}
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openSession needs Chromium and returns the named session of the shared
// manager with the test's context; the session closes when the test ends.
func openSession(t *testing.T, name string) (*Session, context.Context) {
	t.Helper()
	needBrowser(t)
	ctx := ctxT(t)
	t.Cleanup(func() { testMgr.CloseSession(name) })
	return testMgr.Session(name), ctx
}

// navigate opens url in s or fails the test.
func navigate(ctx context.Context, t testing.TB, s *Session, url string) *Result {
	t.Helper()
	res, err := s.Navigate(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// snapshot takes the outline of s's page or fails the test.
func snapshot(ctx context.Context, t testing.TB, s *Session, opts SnapshotOptions) *Snapshot {
	t.Helper()
	snap, err := s.Snapshot(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// pageServer serves page as HTML at every path until the test ends and
// returns its base URL.
func pageServer(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// refFor finds the ref of the first outline line containing all parts.
func refFor(t *testing.T, snap string, parts ...string) string {
	t.Helper()
	for _, l := range strings.Split(snap, "\n") {
		ok := true
		for _, p := range parts {
			if !strings.Contains(l, p) {
				ok = false
				break
			}
		}
		if i := strings.Index(l, "[ref="); ok && i >= 0 {
			return l[i+5 : i+strings.IndexByte(l[i:], ']')]
		}
	}
	t.Fatalf("no ref for %v in snapshot:\n%s", parts, snap)
	return ""
}
