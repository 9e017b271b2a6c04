package browser

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.uber.org/goleak"
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

// needProgram skips a test when a program is missing, unless CI requires
// every program (CLAWBRIDGE_REQUIRE_PROGRAMS=1).
func needProgram(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
			t.Fatalf("%s is required but not installed", name)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

func needBrowser(t testing.TB) {
	t.Helper()
	if _, err := testMgr.BrowserPath(); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}
