package convert

import (
	"testing"

	"clawbridge/tools/tooltest"
)

// TestConfig_SectionRefusesOutOfRange: a value out of range in
// tools.format_converter is refused at start (config's section problems, which stop
// the server and fail doctor), naming the key, instead of silently falling
// back to the default; a good value is accepted.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "format_converter", "max_mb: -1")
	New(d)
	tooltest.SectionRefused(t, d, "format_converter", "max_mb must be at least 1, got -1")

	d = tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "format_converter", "max_mb: 5")
	New(d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
}
