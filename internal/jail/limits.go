package jail

import "strconv"

// Limits bound what one run may use. bwrap sets no rlimits, so the jail
// runs the program through util-linux prlimit inside the jail; the process
// count is also enforced with a pids cgroup when the server runs as root
// (see cgroup.go). A zero field takes the default; a negative one lifts
// that limit.
type Limits struct {
	CPUSeconds int // CPU time (RLIMIT_CPU); the program gets SIGXCPU, then SIGKILL
	MemoryMB   int // address space (RLIMIT_AS)
	Processes  int // processes and threads (RLIMIT_NPROC, pids cgroup as root)
	FileSizeMB int // largest file written (RLIMIT_FSIZE); also the size of /tmp
}

// DefaultLimits fit a LibreOffice conversion of a large document.
var DefaultLimits = Limits{CPUSeconds: 120, MemoryMB: 4096, Processes: 256, FileSizeMB: 1024}

// prlimitPath is util-linux prlimit inside the jail (/usr is bound).
const prlimitPath = "/usr/bin/prlimit"

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
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
