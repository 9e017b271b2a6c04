package browser

import (
	"testing"
	"time"
)

// TestConfig_ValidateFillsUnsetFromDefaults: a zero or negative limit in the
// file takes the default; a positive one stays.
func TestConfig_ValidateFillsUnsetFromDefaults(t *testing.T) {
	d := DefaultConfig()
	c := Config{NavigationTimeout: -time.Second, ActionTimeout: 0, ViewportWidth: 640, ViewportHeight: -1, SnapshotChars: 0, MaxTabs: 3, IdleTimeout: -time.Minute}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.NavigationTimeout != d.NavigationTimeout || c.ActionTimeout != d.ActionTimeout || c.ViewportHeight != d.ViewportHeight || c.SnapshotChars != d.SnapshotChars {
		t.Errorf("unset limits not defaulted: %+v", c)
	}
	if c.ViewportWidth != 640 || c.MaxTabs != 3 || c.IdleTimeout != 0 {
		t.Errorf("set limits changed: %+v", c)
	}
}
