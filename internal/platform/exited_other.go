//go:build !linux

package platform

// Exited reports whether the child process pid has ended. Without Linux's
// waitid(WNOWAIT) an exited child that is not reaped yet still counts as
// running; it counts as ended once its owner's Wait has collected it.
func Exited(pid int) bool { return !Alive(pid) }
