package config

import (
	"strings"
	"testing"
)

// TestToolSection_WrongTypeNamesKey: a value of the wrong type in a tool
// section is refused naming the tool and the key (yaml.v3 gives only the
// line), also for two keys on one line and for nested keys, without the
// value.
func TestToolSection_WrongTypeNamesKey(t *testing.T) {
	path := writeConfig(t, "tools:\n  typed:\n    wait: soon\n  flow: {max_mb: lots, wait: later}\n  nested:\n    inner:\n      depth: [1]\n")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for section, wants := range map[string][]string{
		"typed":  {"line 3: tools.typed.wait: cannot unmarshal"},
		"flow":   {"line 4: tools.flow.max_mb: cannot unmarshal", "line 4: tools.flow.wait: cannot unmarshal"},
		"nested": {"line 7: tools.nested.inner.depth: cannot unmarshal"},
	} {
		err := c.Section(section, &sectionWithCheck{MaxMB: 1})
		if err == nil {
			t.Errorf("tools.%s accepted", section)
			continue
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("tools.%s: %q does not say %q", section, err, want)
			}
		}
		for _, value := range []string{"soon", "lots", "later"} {
			if strings.Contains(err.Error(), value) {
				t.Errorf("tools.%s: the value %q leaked: %v", section, value, err)
			}
		}
	}
}
