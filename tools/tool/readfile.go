package tool

import (
	"errors"
	"fmt"
	"os"

	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// ReadRegular reads the file at abs (already resolved in the sandbox) under
// sandbox.ReadRegular's rules — a regular file of at most max bytes, opened
// without blocking and without following a link put in after the check —
// and answers a refusal with a tool error that names field and shows rel,
// the path as the caller gave it (never the absolute host path).
func ReadRegular(field, rel, abs string, max int64) ([]byte, error) {
	data, err := sandbox.ReadRegular(abs, max)
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, sandbox.ErrNotRegular):
		// err says what it is instead ("a named pipe (FIFO)").
		return nil, Invalid(field, fmt.Sprintf("%s: %s is %v", field, rel, err), "give a file, not a directory, device or pipe")
	case errors.Is(err, sandbox.ErrTooLarge):
		return nil, &Error{Code: CodeTooLarge, Field: field, Message: fmt.Sprintf("%s: %s is too large: the limit is %s", field, rel, sizeText(max)), Hint: "give a smaller file"}
	}
	// A link put in after Resolve (O_NOFOLLOW: ELOOP), or no permission.
	return nil, inputError(field, rel, err)
}

// ReadInput reads the input file p that argument field gives: sb resolves
// it, ReadRegular reads it under max bytes. tooLarge, when not "", is the
// hint of the answer to a file over max (the setting that raises it). It
// returns the resolved path too.
func ReadInput(sb *sandbox.Sandbox, field, p string, max int64, tooLarge string) (string, []byte, error) {
	abs, err := sb.Resolve(p)
	if err != nil {
		return "", nil, PathError(field, p, err)
	}
	data, err := ReadRegular(field, p, abs, max)
	if te, ok := AsError(err); ok && te.Code == CodeTooLarge && tooLarge != "" {
		te.Hint = tooLarge
	}
	return abs, data, err
}

// StatInput is os.Stat for an input that may be a file or a folder (the
// tools that index or analyse a whole folder), failing as ReadRegular does.
func StatInput(field, rel, abs string) (os.FileInfo, error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, inputError(field, rel, err)
	}
	return info, nil
}

// inputError is the answer to an input that is missing or cannot be read.
func inputError(field, rel string, err error) *Error {
	if errors.Is(err, os.ErrNotExist) {
		return NotFoundf(field, "check the name with the file tool (action=list)", "%s does not exist", rel)
	}
	return &Error{Code: CodeDenied, Field: field, Message: fmt.Sprintf("%s: cannot read %s: %v", field, rel, errUnwrapPath(err))}
}

// sizeText says a byte count the way limits are set: in MB when it is a
// whole number of them.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// errUnwrapPath drops the absolute path an *os.PathError carries: errors
// name workspace paths as the caller gave them.
func errUnwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
