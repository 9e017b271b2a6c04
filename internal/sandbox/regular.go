package sandbox

import (
	"errors"
	"fmt"
	"github.com/clawbridge/clawbridge/internal/platform"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is OpenRegular's refusal of anything but a regular file: a
// FIFO or a device would block the call or never end, a directory is not
// content.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is OpenRegular's refusal of a file over the caller's cap.
var ErrTooLarge = errors.New("file is too large")

// OpenRegular opens abs (a resolved workspace path) for reading, only if it
// is a regular file of at most max bytes (max <= 0: no cap). The checks are
// made on the opened file, so a path swapped for a FIFO after a Stat cannot
// pass them, and the open itself never blocks on a FIFO.
func OpenRegular(abs string, max int64) (*os.File, fs.FileInfo, error) {
	// abs is a real path (Resolve evaluated its links): a link there now was
	// put in after the check and is not followed.
	f, err := platform.OpenNoFollow(abs)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		what := "a special file"
		switch {
		case fi.IsDir():
			what = "a directory"
		case fi.Mode()&fs.ModeNamedPipe != 0:
			what = "a named pipe (FIFO)"
		case fi.Mode()&fs.ModeDevice != 0:
			what = "a device"
		case fi.Mode()&fs.ModeSocket != 0:
			what = "a socket"
		}
		return nil, nil, fmt.Errorf("%w: it is %s", ErrNotRegular, what)
	}
	if max > 0 && fi.Size() > max {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %d bytes, above the limit of %d", ErrTooLarge, fi.Size(), max)
	}
	// Reads of a regular file do not block anyway; clear the flag so the
	// file behaves as an ordinary one for the caller.
	if err := platform.SetBlocking(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadRegular reads the whole of abs under OpenRegular's rules. The read is
// capped too, so a file that grows after the check is not read past max.
func ReadRegular(abs string, max int64) ([]byte, error) {
	f, _, err := OpenRegular(abs, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(b)) > max {
		return nil, fmt.Errorf("%w: it grew past the limit of %d bytes while read", ErrTooLarge, max)
	}
	return b, nil
}
