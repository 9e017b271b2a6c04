package jail

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Each run gets a cgroup of its own, where the server can make one, for
// the two limits an rlimit cannot give:
//
//   - processes, when the server runs as root: the kernel never applies
//     RLIMIT_NPROC to processes of the host's uid 0 (copy_process exempts
//     INIT_USER), and the jail's user namespace maps its user to the
//     server's uid. pids.max does bind. For other users prlimit's
//     RLIMIT_NPROC does the job, counted per user namespace.
//   - memory for the whole run: RLIMIT_AS is per process, so a run that
//     forks N processes would get N times memory_mb. memory.max (cgroup
//     v2) or memory.limit_in_bytes (v1) holds all of them together,
//     including what they put in the jail's tmpfs mounts. Where no memory
//     cgroup can be made (a non-root server without a delegated subtree),
//     the limit is per process only: see MemoryPerRun.

var ErrNoProcessLimit = errors.New("jail: the server runs as root and no writable pids cgroup is available, so the jail's process limit cannot be enforced: run clawbridge as a non-root user, or give it a pids cgroup it can write (cgroup v1 /sys/fs/cgroup/pids or a delegated cgroup v2 subtree)")

// runCgroup is one run's cgroup: a directory per hierarchy (cgroup v1 has
// one per controller, v2 one for all).
type runCgroup struct {
	dirs   []string
	memory string // the directory holding the memory limit, if any
}

var cgroupSeq atomic.Int64

// newRunCgroup makes the cgroup of one run: at most pids tasks (0: no pids
// limit; failing to set one is an error) and at most memMB of memory
// together (0: none; where it cannot be set the run goes on with RLIMIT_AS
// alone). It returns nil when there is nothing to limit.
func newRunCgroup(pids, memMB int) (*runCgroup, error) {
	cg := &runCgroup{}
	name := fmt.Sprintf("clawbridge-jail-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	if pids > 0 {
		max := []setting{{"pids.max", itoa(pids), true}}
		if _, err := cg.limit("pids", name, max, max); err != nil {
			cg.remove()
			return nil, fmt.Errorf("%w (%v)", ErrNoProcessLimit, err)
		}
	}
	if memMB > 0 {
		bytes := strconv.FormatInt(int64(memMB)<<20, 10)
		// Swap is kept out too, so the limit is RAM, not RAM plus swap.
		v1 := []setting{{"memory.limit_in_bytes", bytes, true}, {"memory.memsw.limit_in_bytes", bytes, false}}
		v2 := []setting{{"memory.max", bytes, true}, {"memory.swap.max", "0", false}}
		if dir, err := cg.limit("memory", name, v1, v2); err == nil {
			cg.memory = dir
		}
	}
	if len(cg.dirs) == 0 {
		return nil, nil
	}
	return cg, nil
}

// setting is one control file to write; a required one must take the
// value, an optional one may be missing (no swap accounting).
type setting struct {
	file, value string
	required    bool
}

// limit makes (or, on cgroup v2, reuses) the run's directory in the
// hierarchy holding controller ctl and writes the settings of that cgroup
// version. A directory it made and could not set up is removed again.
func (c *runCgroup) limit(ctl, name string, v1, v2 []setting) (string, error) {
	base, err := cgroupBase(ctl)
	if err != nil {
		return "", err
	}
	control := filepath.Join(base, "cgroup.subtree_control")
	isV2 := exists(control) // v1 has no such file
	settings := v1
	if isV2 {
		settings = v2
	}
	dir := filepath.Join(base, name)
	made := !slices.Contains(c.dirs, dir)
	if made {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", err
		}
		c.dirs = append(c.dirs, dir)
	}
	if isV2 && !exists(filepath.Join(dir, settings[0].file)) {
		// cgroup v2 with ctl not yet enabled for our children.
		_ = os.WriteFile(control, []byte("+"+ctl), 0o644)
	}
	for _, s := range settings {
		p := filepath.Join(dir, s.file)
		if !s.required && !exists(p) {
			continue
		}
		if err := os.WriteFile(p, []byte(s.value), 0o644); err != nil && s.required {
			if made {
				os.Remove(dir)
				c.dirs = slices.DeleteFunc(c.dirs, func(d string) bool { return d == dir })
			}
			return "", err
		}
	}
	return dir, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// cgroupBase finds the directory of the server's own cgroup in a
// hierarchy that has controller ctl: cgroup v1's mount of it, or v2.
func cgroupBase(ctl string) (string, error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", err
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
			have, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
			if err != nil || !slices.Contains(strings.Fields(string(have)), ctl) {
				continue
			}
		case slices.Contains(strings.Split(parts[1], ","), ctl):
			dir = filepath.Join("/sys/fs/cgroup", ctl, parts[2])
		default:
			continue
		}
		if exists(filepath.Join(dir, "cgroup.procs")) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("no %s cgroup of this process", ctl)
}

// wrap makes cmd join the cgroup before it execs, so every process it
// starts is counted: a fixed sh script writes its own pid to each
// hierarchy's cgroup.procs and execs the original command (the count of
// procs files, the files and the command passed positionally), leaving no
// PWD of the server behind.
func (c *runCgroup) wrap(cmd *exec.Cmd) *exec.Cmd {
	args := []string{"sh", "-c", `n=$0; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; unset PWD OLDPWD n; exec "$@"`, itoa(len(c.dirs))}
	for _, d := range c.dirs {
		args = append(args, filepath.Join(d, "cgroup.procs"))
	}
	args = append(append(args, cmd.Path), cmd.Args[1:]...)
	return &exec.Cmd{Path: "/bin/sh", Args: args, Env: cmd.Env, ExtraFiles: cmd.ExtraFiles, Dir: "/"}
}

// oomKilled reports whether the kernel killed a process of the run at its
// memory limit (the oom_kill count of memory.events, v2, or
// memory.oom_control, v1).
func (c *runCgroup) oomKilled() bool {
	if c == nil || c.memory == "" {
		return false
	}
	for _, f := range []string{"memory.events", "memory.oom_control"} {
		b, err := os.ReadFile(filepath.Join(c.memory, f))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(line, "oom_kill "); ok && n != "0" {
				return true
			}
		}
	}
	return false
}

// remove deletes the cgroup once its last process has gone (the kernel
// finishes killing a PID namespace asynchronously).
func (c *runCgroup) remove() {
	for _, d := range c.dirs {
		for i := 0; i < 100; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// MemoryPerRun reports whether memory limits hold for a whole run here (a
// memory cgroup can be made) rather than per process (RLIMIT_AS only).
func MemoryPerRun() bool {
	cg, err := newRunCgroup(0, 64)
	if err != nil || cg == nil {
		return false
	}
	defer cg.remove()
	return cg.memory != ""
}
