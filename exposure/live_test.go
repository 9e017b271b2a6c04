package exposure

import (
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The registered tools' own text, as the server passes it (tests only: the
// package itself never imports tools).
var (
	textsOnce sync.Once
	texts     []ToolText
)

func liveTexts(t testing.TB) []ToolText {
	t.Helper()
	textsOnce.Do(func() {
		all, err := tools.All(tooltest.Deps(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range all {
			texts = append(texts, ToolText{Name: tl.Name, Description: tl.Description, Examples: tl.Examples})
		}
	})
	if len(texts) == 0 {
		t.Fatal("no registered tool text")
	}
	return texts
}

// liveRouter is the router the server builds: embedded tables plus the
// registered tools' text.
func liveRouter(t testing.TB, cfg Config) *Router {
	t.Helper()
	cfg.Texts = liveTexts(t)
	r, err := NewRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var (
	liveDetOnce sync.Once
	liveDet     *Detector
)

// liveDetect detects with the detector of the default live router.
func liveDetect(t testing.TB, q string) Detection {
	t.Helper()
	liveDetOnce.Do(func() { liveDet = liveRouter(t, Config{}).Detector() })
	return liveDet.Detect(q)
}
