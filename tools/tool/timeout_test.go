package tool

import (
	"strings"
	"testing"
)

// TestTimeoutClass_ValidateRefusesUnknown: an action's class must be one the
// config maps to a duration; anything else is refused at registration.
func TestTimeoutClass_ValidateRefusesUnknown(t *testing.T) {
	for _, class := range []TimeoutClass{Fast, Normal, Slow} {
		tl := typed()
		tl.Actions[0].Timeout = class
		if err := tl.Validate(); err != nil {
			t.Errorf("%s: %v", class, err)
		}
	}
	for _, class := range []TimeoutClass{"", "medium", "Fast"} {
		tl := typed()
		tl.Actions[0].Timeout = class
		if err := tl.Validate(); err == nil || !strings.Contains(err.Error(), "timeout class") {
			t.Errorf("class %q accepted: %v", class, err)
		}
	}
}
