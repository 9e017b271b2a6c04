package pyrunner

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.python_runner` section: the limits of one run.
type Config struct {
	// Timeout is the wall-clock limit of a run (a call may ask for less).
	Timeout time.Duration `yaml:"timeout"`
	// CPUSeconds, MemoryMB, Processes and FileSizeMB are the jail's
	// rlimits (and pids and memory cgroup) for one run. Where the jail
	// has a memory cgroup MemoryMB holds for the whole run, its work dir
	// and /tmp (both in memory) included; elsewhere per process.
	CPUSeconds int `yaml:"cpu_seconds"`
	MemoryMB   int `yaml:"memory_mb"`
	Processes  int `yaml:"processes"`
	FileSizeMB int `yaml:"file_size_mb"`
	// WorkMB bounds the work directory, inputs included: in the jail it is
	// a tmpfs of that size (writes past it fail), on the host a watcher
	// stops the run; either way a run past it gets nothing copied out.
	WorkMB int `yaml:"work_mb"`
	// MaxOutputBytes is how much of stdout and of stderr is kept each.
	MaxOutputBytes int `yaml:"max_output_bytes"`
	// MaxInputMB bounds the input files copied in, together.
	MaxInputMB int `yaml:"max_input_mb"`
	// MaxFiles bounds how many produced files are copied out.
	MaxFiles int `yaml:"max_files"`
	// AllowUnsandboxed lets code run directly on the host (with the same
	// timeout, rlimits where prlimit exists, a scrubbed environment and a
	// temp work dir, but no namespaces) when the jail cannot be created on
	// this machine. Off: such a machine refuses to run code.
	AllowUnsandboxed bool `yaml:"allow_unsandboxed"`
}

// DefaultConfig fits data scripts: a minute, 1 GiB, 64 processes.
func DefaultConfig() Config {
	return Config{Timeout: 60 * time.Second, CPUSeconds: 60, MemoryMB: 1024, Processes: 64, FileSizeMB: 100,
		WorkMB: 500, MaxOutputBytes: 64 << 10, MaxInputMB: 100, MaxFiles: 100}
}

// Validate checks the section.
func (c *Config) Validate() error {
	return errors.Join(
		config.AtLeast("timeout", c.Timeout, time.Second),
		config.AtLeast("cpu_seconds", c.CPUSeconds, 1),
		config.AtLeast("memory_mb", c.MemoryMB, 64),
		config.AtLeast("processes", c.Processes, 1),
		config.AtLeast("file_size_mb", c.FileSizeMB, 1),
		config.AtLeast("work_mb", c.WorkMB, 1),
		config.AtLeast("max_output_bytes", c.MaxOutputBytes, 1024),
		config.AtLeast("max_input_mb", c.MaxInputMB, 1),
		config.AtLeast("max_files", c.MaxFiles, 1),
	)
}
