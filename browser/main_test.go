package browser

import (
	"fmt"
	"os"
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
