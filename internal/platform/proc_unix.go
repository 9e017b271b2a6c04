//go:build unix

package platform

import (
	"os"
	"os/exec"
	"syscall"
)

// NewGroup makes cmd the leader of a new process group, so KillGroup ends
// the children it leaves behind too.
func NewGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// KillGroup kills the process group led by pid.
func KillGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// Kill kills the process pid.
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }

// Alive reports whether a process pid exists (a zombie counts).
func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// CPUTimeSignal is how a process killed for exceeding its CPU time limit
// (RLIMIT_CPU) reports its signal.
var CPUTimeSignal = syscall.SIGXCPU.String()

// OpenNoFollow opens path for reading without following a link at its last
// element and without blocking on a FIFO; SetBlocking undoes the latter.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}

// SetBlocking clears the non-blocking flag OpenNoFollow set.
func SetBlocking(f *os.File) error { return syscall.SetNonblock(int(f.Fd()), false) }
