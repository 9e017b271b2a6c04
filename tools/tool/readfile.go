package tool

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// ReadRegular reads the file at abs (already resolved in the sandbox) when
// it is a regular file of at most max bytes. It opens without blocking and
// checks the opened file, so a FIFO or device put in its place never holds
// the call, and reads at most max+1 bytes, so a file that grows meanwhile
// is refused too. abs is the real path Sandbox.Resolve returned, so a
// symlink there now was put in after the check and is not followed. field
// names the argument in the error.
func ReadRegular(field, rel, abs string, max int64) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, &Error{Code: CodeNotFound, Field: field, Message: fmt.Sprintf("%s does not exist", rel), Hint: "check the name with the file tool (action=list)"}
		}
		return nil, Errorf(CodeDenied, "", "%s: cannot read %s: %v", field, rel, errUnwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, Invalid(field, fmt.Sprintf("%s is not a regular file", rel), "give a file, not a directory, device or pipe")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, Errorf(CodeFailed, "", "%s: reading %s: %v", field, rel, errUnwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, Errorf(CodeTooLarge, "give a smaller file", "%s: %s is larger than %d bytes", field, rel, max)
	}
	return data, nil
}

// errUnwrapPath drops the absolute path an *os.PathError carries: errors
// name workspace paths as the caller gave them.
func errUnwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
