package tool

import (
	"errors"
	"fmt"

	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// OutsideWorkspace is the one answer to a path parameter that leaves the
// workspace: permission_denied, naming the field.
func OutsideWorkspace(field, path string) *Error {
	return &Error{Code: CodeDenied, Field: field,
		Message: fmt.Sprintf("%s %q is outside the workspace", field, path),
		Hint:    "use a path inside the workspace (relative paths start at the workspace root)"}
}

// PathError turns a sandbox failure to resolve the path given in field into
// a tool error naming that field; errors that are already tool errors pass.
func PathError(field, path string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := AsError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, sandbox.ErrOutside):
		return OutsideWorkspace(field, path)
	case errors.Is(err, sandbox.ErrProtected):
		return &Error{Code: CodeDenied, Field: field, Message: fmt.Sprintf("%s %q is reserved for the server", field, path),
			Hint: "use a path inside the workspace, outside the server's data directory"}
	case errors.Is(err, sandbox.ErrNotRegular):
		return Invalidf(field, "give the path of an ordinary file",
			"%s %q is not a regular file (%v)", field, path, err)
	case errors.Is(err, sandbox.ErrTooLarge):
		return &Error{Code: CodeTooLarge, Field: field, Message: fmt.Sprintf("%s %q: %v", field, path, err),
			Hint: "use a smaller file, or raise the limit in the server's config"}
	}
	return Invalid(field, fmt.Sprintf("%s %q: %v", field, path, err), "")
}
