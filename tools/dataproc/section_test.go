package dataproc

import (
	"testing"

	"clawbridge/tools/tooltest"
)

// TestConfig_SectionRefusesOutOfRange: a value out of range in
// tools.data_processor is refused at start (config's section problems, which stop
// the server and fail doctor), naming the key, instead of silently falling
// back to the default; a good value is accepted.
func TestConfig_SectionRefusesOutOfRange(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "data_processor", "max_rows: -10")
	New(d)
	tooltest.SectionRefused(t, d, "data_processor", "max_rows must be at least 0, got -10")

	d = tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "data_processor", "max_rows: 10")
	New(d)
	if p := d.Config.SectionProblems(); len(p) != 0 {
		t.Fatalf("a good section refused: %v", p)
	}
}
