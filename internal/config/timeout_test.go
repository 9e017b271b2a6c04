package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTimeoutClass_FromLimits: each class takes its duration from limits,
// so the file changes what the pipeline enforces; there is no second table.
func TestTimeoutClass_FromLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("limits: {fast_timeout: 3s, slow_timeout: 1h}\n"), 0o600)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for class, want := range map[TimeoutClass]time.Duration{Fast: 3 * time.Second, Normal: 2 * time.Minute, Slow: time.Hour} {
		if got := c.Limits.Timeout(class); got != want {
			t.Errorf("%s: %v, want %v", class, got, want)
		}
		if !class.Valid() {
			t.Errorf("%s not valid", class)
		}
	}
	for _, bad := range []TimeoutClass{"", "FAST", "medium"} {
		if bad.Valid() {
			t.Errorf("%q valid", bad)
		}
	}
}

// TestTimeoutClass_MustBePositive: a zero or negative class timeout would
// fail every call at once; it is refused at load, naming the key.
func TestTimeoutClass_MustBePositive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	for _, key := range []string{"fast_timeout", "normal_timeout", "slow_timeout"} {
		os.WriteFile(path, []byte("limits: {"+key+": 0s}\n"), 0o600)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "limits."+key) {
			t.Errorf("%s 0 accepted: %v", key, err)
		}
	}
}
