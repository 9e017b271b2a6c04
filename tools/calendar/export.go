package calendar

import (
	"io"
	"time"
)

// Event is a timed event another tool exports through this package's ICS
// writer (education_tool's study plans), so there is one writer.
type Event struct {
	UID, Title, Description string
	Start, End              time.Time
	// TZ is the IANA zone the times are written in (with its VTIMEZONE);
	// "" writes UTC.
	TZ string
}

// WriteICS writes events as one VCALENDAR, the same way export_ics does.
func WriteICS(w io.Writer, events []Event, now time.Time) error {
	evs := make([]*event, len(events))
	for i, e := range events {
		evs[i] = &event{UID: e.UID, Title: e.Title, Description: e.Description, Start: e.Start.UTC(), End: e.End.UTC(), TZ: e.TZ}
	}
	return writeICS(w, evs, now)
}
