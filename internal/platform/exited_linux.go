package platform

import "golang.org/x/sys/unix"

// Exited reports whether the child process pid has ended. It looks without
// reaping (WNOWAIT), so the owner's own Wait still collects it.
func Exited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	if err != nil {
		return true // ECHILD: already reaped
	}
	return info.Signo != 0 // SIGCHLD: it has exited; 0: still running
}
