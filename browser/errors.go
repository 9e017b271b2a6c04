package browser

import (
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Failures the caller can act on (a missing browser, a refused URL, a stale
// ref, a timeout) are *toolerr.Error, the tools' own error type, so the
// browser tools pass them through unchanged.

func errorf(code, hint, format string, args ...any) *toolerr.Error {
	return toolerr.Errorf(code, hint, format, args...)
}
