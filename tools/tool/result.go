package tool

import (
	"errors"
	"fmt"

	"clawbridge/browser"
)

// Result is what a successful call returns.
type Result struct {
	// Summary is a short human sentence: what was done.
	Summary string
	// Data is the structured result for the model (a JSON object).
	Data any
	// Files are files the call produced, as absolute paths in the workspace.
	Files []File
	// Images are small images returned inline (screenshots, charts).
	Images []Image
}

// File is a produced file.
type File struct {
	Path string // absolute path
	MIME string
	Size int64
}

// Image is inline image content.
type Image struct {
	MIME string
	Data []byte
}

// Error is a tool failure the model can act on: bad input, a missing file, a
// refused operation, a missing external program. It reaches the client as an
// isError result, never as a protocol error.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	Field   string `json:"field,omitempty"`
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

// Error codes.
const (
	CodeInvalid     = "invalid_argument"
	CodeNotFound    = "not_found"
	CodeDenied      = "permission_denied"
	CodeExists      = "already_exists"
	CodeTooLarge    = "too_large"
	CodeUnavailable = "unavailable" // an external program or service is missing
	CodeTimeout     = "timeout"
	CodeFailed      = "failed"
	CodeConfirm     = "confirmation_required"
)

// Errorf builds a tool error with a code and hint.
func Errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Invalid is a bad-argument error naming the field.
func Invalid(field, message, hint string) *Error {
	return &Error{Code: CodeInvalid, Message: message, Hint: hint, Field: field}
}

// Missing is the error for an external program that is not installed.
func Missing(program, debianPackage string) *Error {
	return &Error{
		Code:    CodeUnavailable,
		Message: fmt.Sprintf("%s is not installed on the server", program),
		Hint:    fmt.Sprintf("install it with: apt-get install %s (clawbridge doctor lists every missing program)", debianPackage),
	}
}

// AsError returns the tool error inside err, if any. The browser library
// has its own error type (it cannot import this package); it carries the
// same fields and is converted here.
func AsError(err error) (*Error, bool) {
	var te *Error
	if errors.As(err, &te) {
		return te, true
	}
	var be *browser.Error
	if errors.As(err, &be) {
		return &Error{Code: be.Code, Message: be.Message, Hint: be.Hint, Field: be.Field}, true
	}
	return nil, false
}
