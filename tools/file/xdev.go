package file

import (
	"errors"
	"syscall"
)

// isCrossDevice reports a rename that failed because source and destination
// are on different filesystems.
func isCrossDevice(err error) bool { return errors.Is(err, syscall.EXDEV) }
