package config

import (
	"strings"
	"testing"
)

// TestWording_AtLeastPlainNumbers: a config number out of range is written
// in plain notation, never with an exponent.
func TestWording_AtLeastPlainNumbers(t *testing.T) {
	err := AtLeast("max_unzip_ratio", 0.0000005, 1e-6)
	if err == nil || err.Error() != "max_unzip_ratio must be at least 0.000001, got 0.0000005" {
		t.Errorf("%v", err)
	}
	if err := AtLeast("max_rows", -1000000, 0); err == nil || !strings.HasSuffix(err.Error(), "got -1000000") {
		t.Errorf("%v", err)
	}
}
