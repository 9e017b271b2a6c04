package jail

import (
	"strconv"
	"sync/atomic"
)

// Limits bound what one run may use. bwrap sets no rlimits, so the jail
// runs the program through util-linux prlimit inside the jail; the process
// count is also enforced with a pids cgroup when the server runs as root,
// and memory for the run as a whole with a memory cgroup where the server
// can make one (see cgroup.go). A zero field takes the default; a negative one lifts
// that limit.
type Limits struct {
	CPUSeconds int // CPU time (RLIMIT_CPU); the program gets SIGXCPU, then SIGKILL
	MemoryMB   int // address space of each process (RLIMIT_AS) and, with a memory cgroup, memory of the whole run
	Processes  int // processes and threads (RLIMIT_NPROC, pids cgroup as root)
	FileSizeMB int // largest file written (RLIMIT_FSIZE); also the size of /tmp
}

// BuiltinLimits fit a LibreOffice conversion of a large document; the
// config's `jail` section replaces them (SetDefaults).
var BuiltinLimits = Limits{CPUSeconds: 120, MemoryMB: 4096, Processes: 256, FileSizeMB: 1024}

var defaults atomic.Pointer[Limits]

// Defaults are the limits a Spec's zero fields take.
func Defaults() Limits {
	if l := defaults.Load(); l != nil {
		return *l
	}
	return BuiltinLimits
}

// SetDefaults replaces the defaults (from config, at startup); zero fields
// keep the built-in value.
func SetDefaults(l Limits) {
	l = l.over(BuiltinLimits)
	defaults.Store(&l)
}

// prlimitPath is util-linux prlimit inside the jail (/usr is bound).
const prlimitPath = "/usr/bin/prlimit"

func (l Limits) withDefaults() Limits { return l.over(Defaults()) }

// over fills l's zero fields from d.
func (l Limits) over(d Limits) Limits {
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	return Limits{
		CPUSeconds: pick(l.CPUSeconds, d.CPUSeconds),
		MemoryMB:   pick(l.MemoryMB, d.MemoryMB),
		Processes:  pick(l.Processes, d.Processes),
		FileSizeMB: pick(l.FileSizeMB, d.FileSizeMB),
	}
}

func (l Limits) prlimitArgs() []string {
	a := []string{"--core=0"}
	if l.CPUSeconds > 0 {
		// Soft limit first (SIGXCPU), hard a second later (SIGKILL).
		a = append(a, "--cpu="+itoa(l.CPUSeconds)+":"+itoa(l.CPUSeconds+1))
	}
	if l.MemoryMB > 0 {
		a = append(a, "--as="+strconv.FormatInt(int64(l.MemoryMB)<<20, 10))
	}
	if l.Processes > 0 {
		a = append(a, "--nproc="+itoa(l.Processes))
	}
	if l.FileSizeMB > 0 {
		a = append(a, "--fsize="+strconv.FormatInt(int64(l.FileSizeMB)<<20, 10))
	}
	return a
}
