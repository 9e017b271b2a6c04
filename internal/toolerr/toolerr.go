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

// Errorf builds an error with a code and hint. The codes about an argument
// (invalid_argument, not_found, already_exists) have their own constructors,
// which take the field: the model is told which argument to change
// (TestArgumentErrorsNameAField holds every call site to that).
func Errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Invalid is a bad-argument error naming the field.
func Invalid(field, message, hint string) *Error {
	return &Error{Code: CodeInvalid, Message: message, Hint: hint, Field: field}
}

// Invalidf is Invalid with a formatted message, in Errorf's order.
func Invalidf(field, hint, format string, args ...any) *Error {
	return Invalid(field, fmt.Sprintf(format, args...), hint)
}

// NotFoundf is the error for an argument naming something that does not
// exist: a file, an id, a name.
func NotFoundf(field, hint, format string, args ...any) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, args...), Hint: hint, Field: field}
}

// Existsf is the error for an argument naming something that is already
// there: an output file, a name taken.
func Existsf(field, hint, format string, args ...any) *Error {
	return &Error{Code: CodeExists, Message: fmt.Sprintf(format, args...), Hint: hint, Field: field}
}

// As returns the error of this type inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
