package jail

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// The kernel never applies RLIMIT_NPROC to processes of the host's uid 0,
// capabilities dropped or not (copy_process exempts INIT_USER), and the
// jail's user namespace maps its user to the server's uid. So when the
// server runs as root, the process limit is a pids cgroup: the jail's
// processes are put in a fresh child cgroup with pids.max set. For other
// users prlimit's RLIMIT_NPROC does the job, counted per user namespace.

var ErrNoProcessLimit = errors.New("jail: the server runs as root and no writable pids cgroup is available, so the jail's process limit cannot be enforced: run clawbridge as a non-root user, or give it a pids cgroup it can write (cgroup v1 /sys/fs/cgroup/pids or a delegated cgroup v2 subtree)")

type pidsCgroup struct{ dir string }

var cgroupSeq atomic.Int64

// newPidsCgroup makes a child of the server's own pids cgroup allowing at
// most max tasks.
func newPidsCgroup(max int) (*pidsCgroup, error) {
	base, err := pidsBase()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(base, fmt.Sprintf("clawbridge-jail-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoProcessLimit, err)
	}
	cg := &pidsCgroup{dir: dir}
	if _, err := os.Stat(filepath.Join(dir, "pids.max")); errors.Is(err, os.ErrNotExist) {
		// cgroup v2 with pids not yet enabled for our children.
		_ = os.WriteFile(filepath.Join(base, "cgroup.subtree_control"), []byte("+pids"), 0o644)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(itoa(max)), 0o644); err != nil {
		cg.remove()
		return nil, fmt.Errorf("%w (%v)", ErrNoProcessLimit, err)
	}
	return cg, nil
}

// pidsBase finds the directory of the server's own cgroup in a hierarchy
// that has the pids controller: cgroup v1's pids mount, or cgroup v2.
func pidsBase() (string, error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrNoProcessLimit, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir string
		switch {
		case parts[1] == "" && parts[0] == "0":
			dir = filepath.Join("/sys/fs/cgroup", parts[2])
			ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
			if err != nil || !strings.Contains(" "+string(ctl)+" ", " pids") {
				continue
			}
		case strings.Contains(","+parts[1]+",", ",pids,"):
			dir = filepath.Join("/sys/fs/cgroup/pids", parts[2])
		default:
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err == nil {
			return dir, nil
		}
	}
	return "", ErrNoProcessLimit
}

// wrap makes cmd join the cgroup before it execs, so every process it
// starts is counted: a fixed sh script writes its own pid to cgroup.procs
// and execs the original command (arguments passed positionally), leaving
// no PWD of the server behind.
func (c *pidsCgroup) wrap(cmd *exec.Cmd) *exec.Cmd {
	args := append([]string{"sh", "-c", `echo $$ > "$0" && unset PWD OLDPWD && exec "$@"`, filepath.Join(c.dir, "cgroup.procs"), cmd.Path}, cmd.Args[1:]...)
	return &exec.Cmd{Path: "/bin/sh", Args: args, Env: cmd.Env, ExtraFiles: cmd.ExtraFiles, Dir: "/"}
}

// remove deletes the cgroup once its last process has gone (the kernel
// finishes killing a PID namespace asynchronously).
func (c *pidsCgroup) remove() {
	for i := 0; i < 100; i++ {
		if err := os.Remove(c.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
