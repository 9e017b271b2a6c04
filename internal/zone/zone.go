// Package zone resolves the IANA time zone a tool computes local times in
// (days, "tomorrow", working hours, cron fields). Tools store instants in
// UTC and keep the zone's name beside them; this only names the zone.
package zone

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Load returns the named IANA zone; "" is the system's (System). key is
// the config key, for the message.
func Load(key, name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return System(), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%s: unknown IANA time zone %q (e.g. Asia/Shanghai, Europe/Berlin, UTC)", key, name)
	}
	return loc, nil
}

// System is the system's zone under its IANA name (from TZ, else the
// /etc/localtime link), so that what is stored and exported names a real
// zone rather than "Local"; time.Local when no name can be found.
func System() *time.Location {
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	if target, err := filepath.EvalSymlinks("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(target, "zoneinfo/"); ok {
			if loc, err := time.LoadLocation(name); err == nil {
				return loc
			}
		}
	}
	return time.Local
}

// Name is loc's IANA name as it is stored.
func Name(loc *time.Location) string { return loc.String() }
