package calendar

import (
	"errors"
	"fmt"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/zone"
)

// Config is the `tools.calendar` section.
type Config struct {
	// Timezone is the IANA zone for days, "tomorrow", local times given
	// without an offset and working hours ("": the system's).
	Timezone string `yaml:"timezone"`
	// WorkStart and WorkEnd ("09:00", "18:00") bound free_slots each
	// working day; WorkDays are its days, 0 = Sunday.
	WorkStart string `yaml:"work_start"`
	WorkEnd   string `yaml:"work_end"`
	WorkDays  []int  `yaml:"work_days"`
	// Calendar is the one events go to when a call names none.
	Calendar string `yaml:"calendar"`
	// MaxOccurrences bounds the instances one query expands.
	MaxOccurrences int `yaml:"max_occurrences"`
	// MaxImportMB bounds an .ics file read by import_ics.
	MaxImportMB int `yaml:"max_import_mb"`
}

// DefaultConfig: Monday to Friday, 09:00 to 18:00.
func DefaultConfig() Config {
	return Config{WorkStart: "09:00", WorkEnd: "18:00", WorkDays: []int{1, 2, 3, 4, 5}, Calendar: "personal", MaxOccurrences: 5000, MaxImportMB: 20}
}

// Validate checks the section.
func (c *Config) Validate() error {
	_, zerr := zone.Load("timezone", c.Timezone)
	errs := []error{zerr, config.AtLeast("max_occurrences", c.MaxOccurrences, 1), config.AtLeast("max_import_mb", c.MaxImportMB, 1)}
	s, err1 := clock(c.WorkStart)
	e, err2 := clock(c.WorkEnd)
	switch {
	case err1 != nil:
		errs = append(errs, fmt.Errorf("work_start: %w", err1))
	case err2 != nil:
		errs = append(errs, fmt.Errorf("work_end: %w", err2))
	case e <= s:
		errs = append(errs, fmt.Errorf("work_end (%s) must be after work_start (%s)", c.WorkEnd, c.WorkStart))
	}
	for _, d := range c.WorkDays {
		if d < 0 || d > 6 {
			errs = append(errs, fmt.Errorf("work_days: %d is not a day (0 = Sunday ... 6 = Saturday)", d))
		}
	}
	if c.Calendar == "" {
		errs = append(errs, errors.New("calendar must not be empty"))
	}
	return errors.Join(errs...)
}

// clock reads "HH:MM" as a duration since midnight.
func clock(s string) (time.Duration, error) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}
