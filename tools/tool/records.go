package tool

import (
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/zone"
)

// OpenRecords sets up a tool that keeps a person's records in the store
// (cron, calendar, diary, finance, education): the IANA zone its
// `tools.<component>.timezone` setting names (the system's when empty), and
// the component's migrations with the trash it deletes into. Without a
// store (a listing-only build) only the zone is loaded.
func (d *Deps) OpenRecords(component, timezone string, steps ...records.Migration) (*time.Location, error) {
	loc, err := zone.Load("tools."+component+".timezone", timezone)
	if err != nil {
		return nil, err
	}
	if d.Store != nil {
		if err := d.Store.MigrateWithTrash(component, steps...); err != nil {
			return nil, err
		}
	}
	return loc, nil
}
