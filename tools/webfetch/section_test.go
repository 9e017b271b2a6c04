package webfetch

import (
	"strings"
	"testing"

	"clawbridge/tools/tooltest"
)

// TestConfig_SectionRefusesOutOfRange: a limit out of range in
// tools.web_fetch (a negative spacing between requests, a zero timeout) is
// refused when the tool is built, naming the key, instead of silently
// becoming the default.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"min_interval: -1s", "min_interval must be at least 0s, got -1s"},
		{"timeout: 0s", "timeout must be at least 1ms, got 0s"},
	} {
		d := tooltest.Deps(t)
		tooltest.ConfigSection(t, d, "web_fetch", tc.body)
		_, err := New(d, nil)
		if err == nil || !strings.Contains(err.Error(), "tools.web_fetch: "+tc.want) {
			t.Fatalf("%s: New = %v, want %q", tc.body, err, tc.want)
		}
		tooltest.SectionRefused(t, d, "web_fetch", tc.want)
	}
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "web_fetch", "min_interval: 0s\ntimeout: 5s")
	if _, err := New(d, nil); err != nil {
		t.Fatalf("good section: %v", err)
	}
}
