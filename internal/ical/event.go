// Package ical is the calendar's iCalendar (.ics) codec: it reads VEVENTs
// into events, with the zones files name or define themselves, and writes
// events back as one VCALENDAR. The calendar tool imports and exports with
// it, and the education tool writes its study plans with it, so there is
// one writer.
package ical

import "time"

// event is one row: a single event, a recurring series, or one changed
// occurrence of a series.
type Event struct {
	ID          string    `json:"id"`
	UID         string    `json:"uid"`
	Calendar    string    `json:"calendar"`
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Location    string    `json:"location,omitempty"`
	Start       time.Time `json:"start"` // UTC; for an all-day event, the date at 00:00 UTC
	End         time.Time `json:"end"`   // exclusive; all-day: the day after the last
	AllDay      bool      `json:"all_day"`
	// TZ is the zone whose Wall clock the event keeps (recurrences follow
	// it across DST): an IANA name, or the VTIMEZONE of a zone an imported
	// file defined itself (zone.go); "" for UTC times and all-day dates.
	TZ           string      `json:"tz,omitempty"`
	RRule        string      `json:"rrule,omitempty"`
	RDates       []time.Time `json:"rdates,omitempty"`
	ExDates      []time.Time `json:"exdates,omitempty"`
	RecurrenceID time.Time   `json:"recurrence_id,omitzero"`
	Status       string      `json:"status,omitempty"`
	Transp       string      `json:"transp,omitempty"`
	Sequence     int         `json:"sequence"`
	Extra        []Prop      `json:"extra,omitempty"`
	Created      int64       `json:"created_at"`
	Updated      int64       `json:"updated_at"`
}

// rawProp is a VEVENT property kept as it came.
type Prop struct {
	Name   string              `json:"name"`
	Params map[string][]string `json:"params,omitempty"`
	Value  string              `json:"value"`
}
