// Package toolerr is the one error type of clawbridge's tools: a code the
// model can branch on, a message, a hint saying what to do, and the field at
// fault. It is a leaf (it imports nothing of ours) so that the tool contract
// (tools/tool, which re-exports it), the browser library and the tools'
// helper packages all return the same type, and nothing converts between
// copies. It does not decide how an error reaches the client; the server does.
package toolerr

import (
	"errors"
	"fmt"
)

// Codes.
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

// Error is a failure the model can act on: bad input, a missing file, a
// refused operation, a missing external program.
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

// Errorf builds an error with a code and hint.
func Errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// On names the field the error is about and returns e: an error built
// with Errorf about an argument says which one.
func (e *Error) On(field string) *Error {
	e.Field = field
	return e
}

// Invalid is a bad-argument error naming the field.
func Invalid(field, message, hint string) *Error {
	return &Error{Code: CodeInvalid, Message: message, Hint: hint, Field: field}
}

// As returns the error of this type inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
