package cron

import (
	"fmt"
	"strings"
	"time"

	robfig "github.com/robfig/cron/v3"
)

// Kinds of schedule a job has.
const (
	kindCron  = "cron"  // five fields or a descriptor (@daily), in the zone
	kindEvery = "every" // @every <duration>, from the job's creation
	kindOnce  = "once"  // one RFC 3339 time
)

// schedule is a parsed job schedule: what it was written as, and its next
// time after a given instant.
type schedule struct {
	Spec  string // canonical: five fields, @every 30m, or RFC 3339 (UTC)
	Kind  string
	cron  robfig.Schedule
	every time.Duration
	at    time.Time
}

var parser = robfig.NewParser(robfig.Minute | robfig.Hour | robfig.Dom | robfig.Month | robfig.Dow | robfig.Descriptor)

// parseSpec reads a cron expression, @every duration or RFC 3339 time.
// Field errors name the field ("schedule").
func parseSpec(spec string) (*schedule, error) {
	spec = strings.Join(strings.Fields(spec), " ")
	switch {
	case spec == "":
		return nil, fmt.Errorf("empty schedule")
	case strings.HasPrefix(spec, "@every "):
		d, err := time.ParseDuration(strings.TrimPrefix(spec, "@every "))
		if err != nil {
			return nil, fmt.Errorf("@every needs a duration like 30s, 30m or 2h: %v", err)
		}
		if d < time.Second || d%time.Second != 0 {
			return nil, fmt.Errorf("@every needs whole seconds, at least 1s (got %s)", d)
		}
		return &schedule{Spec: "@every " + shortDuration(d), Kind: kindEvery, every: d}, nil
	case strings.HasPrefix(spec, "CRON_TZ=") || strings.HasPrefix(spec, "TZ="):
		return nil, fmt.Errorf("no time zone in the expression: jobs run in tools.cron.timezone")
	}
	if t, err := time.Parse(time.RFC3339, spec); err == nil {
		return &schedule{Spec: t.UTC().Format(time.RFC3339), Kind: kindOnce, at: t.UTC()}, nil
	}
	if len(strings.Fields(spec)) != 5 && !strings.HasPrefix(spec, "@") {
		return nil, fmt.Errorf("%q is not a schedule: give 5 cron fields (minute hour day-of-month month day-of-week), @every 30m, an RFC 3339 time, or a phrase", spec)
	}
	s, err := parser.Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("cron expression %q: %v", spec, err)
	}
	return &schedule{Spec: spec, Kind: kindCron, cron: s}, nil
}

// next is the first time strictly after t (in loc for cron fields), or the
// zero time when there is none (a one-off already past). anchor is the
// job's start, from which @every counts.
func (s *schedule) next(t, anchor time.Time, loc *time.Location) time.Time {
	switch s.Kind {
	case kindOnce:
		if s.at.After(t) {
			return s.at
		}
		return time.Time{}
	case kindEvery:
		if t.Before(anchor) {
			return anchor.Add(s.every)
		}
		n := t.Sub(anchor)/s.every + 1
		return anchor.Add(n * s.every).UTC()
	}
	// On a fall-back day a wall time happens twice; robfig would fire at
	// both. A cron time is a wall time, so the second one is skipped.
	prev := t.In(loc)
	n := s.cron.Next(prev)
	for !n.IsZero() && sameWall(n, prev) {
		n = s.cron.Next(n)
	}
	return n.UTC()
}

func sameWall(a, b time.Time) bool {
	return a.Year() == b.Year() && a.YearDay() == b.YearDay() && a.Hour() == b.Hour() && a.Minute() == b.Minute()
}

func shortDuration(d time.Duration) string {
	s := d.String()
	s = strings.Replace(s, "m0s", "m", 1)
	s = strings.Replace(s, "h0m", "h", 1)
	return s
}
