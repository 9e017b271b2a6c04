package platform

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
)

// NewGroup does nothing on Windows: there are no process groups to kill
// as one, and the jail that needs them is Linux-only.
func NewGroup(cmd *exec.Cmd) {}

// KillGroup kills the process pid (Windows has no process groups).
func KillGroup(pid int) { Kill(pid) }

// Kill kills the process pid.
func Kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// Alive reports whether a process pid exists.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// CPUTimeSignal is empty: Windows has no CPU-time signal (and no jail).
var CPUTimeSignal = ""

// OpenNoFollow opens path for reading, refusing a link at its last element
// (Windows has no O_NOFOLLOW: the link is checked before and the opened file
// compared after, so a swap in between is caught).
func OpenNoFollow(path string) (*os.File, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("is a symbolic link")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if after, err := f.Stat(); err != nil || !os.SameFile(before, after) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("changed while being opened")}
	}
	return f, nil
}

// SetBlocking does nothing: OpenNoFollow's files block as usual on Windows.
func SetBlocking(f *os.File) error { return nil }
