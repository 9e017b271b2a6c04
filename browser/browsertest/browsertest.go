// Package browsertest runs a package's tests against one shared headless
// Chromium: the TestMain of the tools built on browser.Manager (browser,
// browser_use). It is for tests only. The browser package's own tests keep
// their TestMain (they cannot import a package that imports browser) but
// follow the same skip policy through tooltest.
package browsertest

import (
	"fmt"
	"os"
	"testing"

	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Main is a TestMain: it sets *mgr to a Manager for the tests (loopback
// fixture servers allowed, no idle timeout, a temporary download
// directory, see Manager.Config), runs them, closes the browser and fails
// the run when a goroutine of ours is left (a CDP reader, a tab watcher or
// an idle timer that outlives Close is a leak).
func Main(m *testing.M, mgr **browser.Manager) {
	os.Exit(run(m, mgr))
}

func run(m *testing.M, mgr **browser.Manager) int {
	g, err := netguard.New([]string{"127.0.0.1"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "browsertest:", err)
		return 1
	}
	cfg := browser.DefaultConfig()
	cfg.IdleTimeout = 0
	if cfg.DownloadDir, err = os.MkdirTemp("", "cb-downloads-"); err != nil {
		fmt.Fprintln(os.Stderr, "browsertest:", err)
		return 1
	}
	defer os.RemoveAll(cfg.DownloadDir)
	*mgr = browser.New(cfg, g, zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
	code := m.Run()
	(*mgr).Close()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left after the tests and Manager.Close:", err)
			code = 1
		}
	}
	return code
}

// Need skips the test when mgr finds no Chromium, or fails it when
// CLAWBRIDGE_REQUIRE_PROGRAMS=1 (tooltest.Missing).
func Need(t testing.TB, mgr *browser.Manager) {
	t.Helper()
	if _, err := mgr.BrowserPath(); err != nil {
		tooltest.Missing(t, "chromium not available: %v (apt-get install chromium, or scripts/install-deps.sh)", err)
	}
}
