// Package testneed is the one policy for something a test needs that the
// machine lacks: skip, or fail under CLAWBRIDGE_REQUIRE_PROGRAMS=1. It
// imports nothing of the project, so the tests of the packages tools/tool
// builds on (internal/jail) can use it; tooltest wraps it for the rest.
package testneed

import (
	"os"
	"testing"
)

// Require reports whether CLAWBRIDGE_REQUIRE_PROGRAMS=1 is set: CI
// installs every program, font and service the tests use, so there a
// missing one fails the test instead of skipping it.
func Require() bool { return os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" }

// Missing handles something a test needs that this machine lacks (a
// program, a font, a data file, enough of something): it skips the test,
// or fails it when CLAWBRIDGE_REQUIRE_PROGRAMS=1.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if Require() {
		t.Fatalf("required (CLAWBRIDGE_REQUIRE_PROGRAMS=1) but missing: "+format, args...)
	}
	t.Skipf(format, args...)
}
