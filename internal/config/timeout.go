package config

import "time"

// TimeoutClass names how long a tool action may run. Each action declares
// one (tools/tool re-exports the type and its values); Limits.Timeout maps
// it to the duration configured under limits.
type TimeoutClass string

const (
	Fast   TimeoutClass = "fast"   // local lookups: limits.fast_timeout
	Normal TimeoutClass = "normal" // network and file work: limits.normal_timeout
	Slow   TimeoutClass = "slow"   // rendering, conversion, indexing: limits.slow_timeout
)

// Valid reports whether c is one of the three classes.
func (c TimeoutClass) Valid() bool { return c == Fast || c == Normal || c == Slow }

// Timeout is the configured duration of class c. The registry refuses
// actions with any other class (tool.Validate), so the fallback to the
// normal timeout is never reached by a registered tool.
func (l Limits) Timeout(c TimeoutClass) time.Duration {
	switch c {
	case Fast:
		return l.FastTimeout
	case Slow:
		return l.SlowTimeout
	default:
		return l.NormalTimeout
	}
}
