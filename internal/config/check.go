package config

import (
	"cmp"
	"fmt"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// AtLeast is the check a section's Validate method makes of one number:
// nil when v >= low, else "<key> must be at least <low>, got <v>".
// Section prefixes the section's path ("tools.mind_map: max_nodes ...").
// A value out of range is refused at start, never replaced by a default.
func AtLeast[T cmp.Ordered](key string, v, low T) error {
	if v >= low {
		return nil
	}
	return fmt.Errorf("%s must be at least %s, got %s", key, wording.Number(low), wording.Number(v))
}
