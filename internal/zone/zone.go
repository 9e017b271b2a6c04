// Package zone resolves the IANA time zone a tool computes local times in
// (days, "tomorrow", working hours, cron fields). Tools store instants in
// UTC and keep the zone's name beside them; this only names the zone.
package zone

import (
	"fmt"
	"time"
)

// Load returns the named IANA zone; "" is the system's (TZ, else
// /etc/localtime). key is the config key, for the message.
func Load(key, name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%s: unknown IANA time zone %q (e.g. Asia/Shanghai, Europe/Berlin, UTC)", key, name)
	}
	return loc, nil
}

// Name is loc's IANA name as it is stored ("Local" becomes the system's
// name where the system says it, else "Local").
func Name(loc *time.Location) string { return loc.String() }
