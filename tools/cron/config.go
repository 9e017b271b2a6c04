package cron

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/zone"
)

// Config is the `tools.cron` section.
type Config struct {
	// Timezone is the IANA zone cron fields and phrases are read in
	// ("": the system's).
	Timezone string `yaml:"timezone"`
	// Tick is how often the scheduler looks for due jobs.
	Tick time.Duration `yaml:"tick"`
	// MissedAfter: a run whose time passed by more than this (the server was
	// down) is reported as missed instead of run late.
	MissedAfter time.Duration `yaml:"missed_after"`
	// Lease is how long one process holds a job while it runs it; another
	// process sharing the store takes the job over only after it expires.
	Lease time.Duration `yaml:"lease"`
	// MaxJobs bounds the jobs kept; History the runs kept per job.
	MaxJobs int `yaml:"max_jobs"`
	History int `yaml:"history"`
}

// DefaultConfig is the zero-config scheduler.
func DefaultConfig() Config {
	return Config{Tick: time.Second, MissedAfter: time.Minute, Lease: 15 * time.Minute, MaxJobs: 500, History: 200}
}

// Validate checks the section.
func (c *Config) Validate() error {
	_, zerr := zone.Load("timezone", c.Timezone)
	return errors.Join(zerr,
		config.AtLeast("tick", c.Tick, 10*time.Millisecond),
		config.AtLeast("missed_after", c.MissedAfter, c.Tick),
		config.AtLeast("lease", c.Lease, time.Second),
		config.AtLeast("max_jobs", c.MaxJobs, 1),
		config.AtLeast("history", c.History, 1))
}
