package browser

import (
	"errors"
	"fmt"
)

// Error codes; they match the tool package's codes so the tools can pass
// browser errors through unchanged.
const (
	CodeInvalid     = "invalid_argument"
	CodeNotFound    = "not_found"
	CodeDenied      = "permission_denied"
	CodeUnavailable = "unavailable"
	CodeTimeout     = "timeout"
	CodeFailed      = "failed"
)

// Error is a failure the caller can act on: a missing browser, a refused
// URL, a stale ref, a timeout.
type Error struct {
	Code    string
	Message string
	Hint    string
	Field   string
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

func errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

func invalid(field, hint, format string, args ...any) *Error {
	return &Error{Code: CodeInvalid, Field: field, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// AsError returns the browser error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// PDFOptions are print settings for HTMLToPDF.
type PDFOptions struct {
	PageSize  string // "A4" (default), "Letter", "A3", "A5", "Legal"
	Landscape bool
	MarginMM  float64 // all four margins; default 15
	// HeaderFooter prints page numbers in the footer.
	HeaderFooter bool
}
