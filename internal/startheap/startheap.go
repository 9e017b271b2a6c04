// Package startheap holds the garbage collector back while the process
// starts. Package initialisation (excelize, jsonschema) and assembling the
// server allocate some 20 MB (25 MB while chroma's lexers and styles were
// parsed at init; format_converter now builds them on first use) that mostly
// stays live; collecting it on the way, from the runtime's first 4 MB goal
// up, took about a quarter of the time to the first tools/list. So the
// collector is off from this package's init until Done, bounded by a soft
// memory limit so that an unusual start (a huge tables file, say) still
// collects. A GOGC or GOMEMLIMIT set in the environment is left alone.
//
// Its init runs before the heavy ones: packages are initialised in import
// path order as their imports are ready, and this one needs only os and
// runtime/debug, so main imports it for that effect.
package startheap

import (
	"os"
	"runtime/debug"
	"sync"
	"time"
)

// startLimit is the soft limit while the collector is off.
const startLimit = 128 << 20

var (
	held        bool
	prevPercent int
	prevLimit   int64
	release     sync.Once
)

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	held = true
	prevPercent = debug.SetGCPercent(-1)
	prevLimit = debug.SetMemoryLimit(startLimit)
}

// Done gives the collector its normal settings back. Call it once the
// process has started (a server before it serves); later calls do nothing.
func Done() {
	release.Do(func() {
		if held {
			debug.SetGCPercent(prevPercent)
			debug.SetMemoryLimit(prevLimit)
		}
	})
}

// DoneAfter is Done, d from now. A server that has just been assembled is
// about to answer its client's initialize and first tools/list; giving the
// collector back at once would start a cycle over the whole start-up heap
// right then (its goal is still the runtime's first 4 MB), ~4 ms of a
// ~40 ms start. The soft limit still bounds the heap meanwhile.
func DoneAfter(d time.Duration) { time.AfterFunc(d, Done) }
