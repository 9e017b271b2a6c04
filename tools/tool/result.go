package tool

import (
	"fmt"

	"github.com/clawbridge/clawbridge/internal/toolerr"
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
// isError result, never as a protocol error. It is the leaf package
// toolerr's type, which the browser library and the tools' helper packages
// return too, so every layer speaks the same error.
type Error = toolerr.Error

// Error codes.
const (
	CodeInvalid     = toolerr.CodeInvalid
	CodeNotFound    = toolerr.CodeNotFound
	CodeDenied      = toolerr.CodeDenied
	CodeExists      = toolerr.CodeExists
	CodeTooLarge    = toolerr.CodeTooLarge
	CodeUnavailable = toolerr.CodeUnavailable // an external program or service is missing
	CodeTimeout     = toolerr.CodeTimeout
	CodeFailed      = toolerr.CodeFailed
	CodeConfirm     = toolerr.CodeConfirm
)

// Errorf builds a tool error with a code and hint.
func Errorf(code, hint, format string, args ...any) *Error {
	return toolerr.Errorf(code, hint, format, args...)
}

// Invalid is a bad-argument error naming the field.
func Invalid(field, message, hint string) *Error { return toolerr.Invalid(field, message, hint) }

// Invalidf is Invalid with a formatted message, in Errorf's order.
func Invalidf(field, hint, format string, args ...any) *Error {
	return toolerr.Invalidf(field, hint, format, args...)
}

// NotFoundf is the error for an argument naming something that does not exist.
func NotFoundf(field, hint, format string, args ...any) *Error {
	return toolerr.NotFoundf(field, hint, format, args...)
}

// Existsf is the error for an argument naming something that is already there.
func Existsf(field, hint, format string, args ...any) *Error {
	return toolerr.Existsf(field, hint, format, args...)
}

// Missing is the error for an external program that is not installed.
func Missing(program, debianPackage string) *Error {
	return &Error{
		Code:    CodeUnavailable,
		Message: fmt.Sprintf("%s is not installed on the server", program),
		Hint:    fmt.Sprintf("install it with: apt-get install %s (clawbridge doctor lists every missing program)", debianPackage),
	}
}

// AsError returns the tool error inside err, if any.
func AsError(err error) (*Error, bool) { return toolerr.As(err) }
