package ical

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"
)

// modelled are the VEVENT properties read into Event fields; every other
// one is kept in Extra and written back on export.
var modelled = map[string]bool{"UID": true, "SUMMARY": true, "DESCRIPTION": true, "LOCATION": true, "DTSTART": true, "DTEND": true,
	"DURATION": true, "RRULE": true, "RDATE": true, "EXDATE": true, "RECURRENCE-ID": true, "STATUS": true, "TRANSP": true, "SEQUENCE": true,
	"DTSTAMP": true, "CREATED": true, "LAST-MODIFIED": true}

// timeProp reads one value of a DATE-TIME or DATE property: UTC (Z), with
// TZID, or floating (read in loc). all reports a DATE value; tz is what
// Event.TZ stores for the zone ("" for UTC and dates; loc's name for a
// floating time, which keeps loc's Wall clock). A PERIOD value
// (start/end) is read as its start.
func (z *zones) timeProp(p *ics.IANAProperty, value string, loc *time.Location) (t time.Time, all bool, tz string, err error) {
	value = strings.TrimSpace(value)
	if i := strings.IndexByte(value, '/'); i >= 0 {
		value = value[:i]
	}
	if len(value) == 8 {
		d, err := time.Parse("20060102", value)
		return d, true, "", err
	}
	if strings.HasSuffix(value, "Z") {
		t, err := time.Parse("20060102T150405Z", value)
		return t.UTC(), false, "", err
	}
	zone := loc
	if loc != time.UTC {
		tz = loc.String()
	}
	if ids := p.ICalParameters["TZID"]; len(ids) == 1 {
		if zone, tz, err = z.resolve(ids[0]); err != nil {
			return time.Time{}, false, "", err
		}
	}
	w, err := time.ParseInLocation("20060102T150405", value, time.UTC)
	if err != nil {
		return time.Time{}, false, "", err
	}
	if t, err = Wall(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), zone); err != nil {
		t = beforeGap(w, zone)
	}
	return t, false, tz, nil
}

// Skipped is a VEVENT an import left out, and why.
type Skipped struct {
	Event  string `json:"event"`
	Reason string `json:"reason"`
}

// Parse reads the VEVENTs of an .ics file into events of calendar. A
// VEVENT that cannot be read (no DTSTART, a zone nothing defines, ...) is
// left out and listed in Skipped, naming it by UID or position.
func Parse(r io.Reader, calendar string, loc *time.Location, now time.Time) ([]*Event, []Skipped, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	cal, err := ics.ParseCalendar(strings.NewReader(upperNames(string(raw))))
	if err != nil {
		return nil, nil, fmt.Errorf("not an iCalendar file: %v", err)
	}
	z := &zones{defs: map[string]*ics.VTimezone{}, cache: map[string]resolved{}}
	for _, c := range cal.Components {
		if tz, ok := c.(*ics.VTimezone); ok {
			if p := tz.GetProperty(ics.ComponentPropertyTzid); p != nil {
				z.defs[strings.Trim(p.Value, `"`)] = tz
			}
		}
	}
	var out []*Event
	var skips []Skipped
	for i, ve := range cal.Events() {
		e, err := z.readEvent(ve, calendar, loc, now)
		if err != nil {
			name := fmt.Sprintf("VEVENT %d", i+1)
			if p := ve.GetProperty(ics.ComponentPropertyUniqueId); p != nil {
				name += " (UID " + p.Value + ")"
			}
			skips = append(skips, Skipped{Event: name, Reason: err.Error()})
			continue
		}
		out = append(out, e)
	}
	return out, skips, nil
}

func (z *zones) readEvent(ve *ics.VEvent, calendar string, loc *time.Location, now time.Time) (*Event, error) {
	text := func(p ics.ComponentProperty) string {
		if v := ve.GetProperty(p); v != nil {
			return v.Value
		}
		return ""
	}
	e := &Event{Calendar: calendar, UID: text(ics.ComponentPropertyUniqueId), Title: text(ics.ComponentPropertySummary),
		Description: text(ics.ComponentPropertyDescription), Location: text(ics.ComponentPropertyLocation),
		Status: strings.ToUpper(text(ics.ComponentPropertyStatus)), Transp: strings.ToUpper(text(ics.ComponentPropertyTransp)),
		RRule: strings.ReplaceAll(text(ics.ComponentPropertyRrule), " ", ""), Created: now.Unix(), Updated: now.Unix()}
	fmt.Sscanf(text(ics.ComponentPropertySequence), "%d", &e.Sequence)
	ds := ve.GetProperty(ics.ComponentPropertyDtStart)
	if ds == nil {
		return nil, fmt.Errorf("DTSTART is missing")
	}
	start, all, tz, err := z.timeProp(ds, ds.Value, loc)
	if err != nil {
		return nil, fmt.Errorf("DTSTART: %v", err)
	}
	e.Start, e.AllDay, e.TZ = start, all, tz
	// The Event's other times, when floating, are on its Wall clock.
	WallZone := e.WallZone(loc)
	if e.End, err = z.eventEnd(ve, e.Start, WallZone); err != nil {
		return nil, err
	}
	if e.End.Before(e.Start) {
		return nil, fmt.Errorf("DTEND is before DTSTART")
	}
	if all && e.End.Equal(e.Start) { // a date without a length is that day (RFC 5545 3.6.1)
		e.End = e.Start.AddDate(0, 0, 1)
	}
	var rule *rrule.RRule
	if e.RRule != "" {
		if rule, err = ParseRule(e.RRule, e.Start.In(WallZone)); err != nil {
			return nil, fmt.Errorf("RRULE %q: %v", e.RRule, err)
		}
	}
	if err := z.extraDates(ve, e, rule, loc, WallZone); err != nil {
		return nil, err
	}
	if p := ve.GetProperty(ics.ComponentPropertyRecurrenceId); p != nil {
		t, _, _, err := z.timeProp(p, p.Value, WallZone)
		if err != nil {
			return nil, fmt.Errorf("RECURRENCE-ID: %v", err)
		}
		e.RecurrenceID = t
	}
	if e.UID == "" { // RFC 5545 requires one; Exchange's CDO sometimes leaves it out
		e.UID = contentUID(e)
	}
	for _, p := range ve.Properties {
		if !modelled[strings.ToUpper(p.IANAToken)] {
			e.Extra = append(e.Extra, Prop{Name: p.IANAToken, Params: p.ICalParameters, Value: p.Value})
		}
	}
	return e, nil
}

// eventEnd is when the event starting at start ends: DTEND, or DTSTART
// plus DURATION, or start; floating times are on the wall clock.
func (z *zones) eventEnd(ve *ics.VEvent, start time.Time, wall *time.Location) (time.Time, error) {
	if p := ve.GetProperty(ics.ComponentPropertyDtEnd); p != nil {
		end, _, _, err := z.timeProp(p, p.Value, wall)
		if err != nil {
			return time.Time{}, fmt.Errorf("DTEND: %v", err)
		}
		return end, nil
	}
	if p := ve.GetProperty(ics.ComponentPropertyDuration); p != nil && p.Value != "" {
		d, err := parseDuration(p.Value)
		if err != nil {
			return time.Time{}, fmt.Errorf("DURATION: %v", err)
		}
		return start.Add(d), nil
	}
	return start, nil
}

// extraDates reads RDATE and EXDATE into e; an EXDATE given as a DATE in a
// timed event removes every instance of rule that day.
func (z *zones) extraDates(ve *ics.VEvent, e *Event, rule *rrule.RRule, loc, wall *time.Location) error {
	// A DATE in a timed Event means that day in the Event's zone.
	dayOf := func(d time.Time) (time.Time, time.Time) {
		s := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, wall)
		return s, time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, wall)
	}
	for _, p := range ve.GetProperties(ics.ComponentPropertyRdate) {
		for _, v := range listValues(p.Value) {
			t, isDate, _, err := z.timeProp(p, v, wall)
			if err != nil {
				return fmt.Errorf("RDATE %q: %v", v, err)
			}
			if isDate && !e.AllDay {
				t, _ = dayOf(t)
			}
			e.RDates = append(e.RDates, t.UTC())
		}
	}
	var dateExdates []time.Time
	for _, p := range ve.GetProperties(ics.ComponentPropertyExdate) {
		for _, v := range listValues(p.Value) {
			t, isDate, _, err := z.timeProp(p, v, wall)
			if err != nil {
				return fmt.Errorf("EXDATE %q: %v", v, err)
			}
			if isDate && !e.AllDay {
				dateExdates = append(dateExdates, t)
				continue
			}
			e.ExDates = append(e.ExDates, t)
		}
	}
	for _, d := range dateExdates { // every instance that day
		from, to := dayOf(d)
		got, err := SeriesInstants(e, rule, loc, from, to)
		if err != nil {
			return fmt.Errorf("EXDATE %s: %v", d.Format("20060102"), err)
		}
		e.ExDates = append(e.ExDates, got...)
	}
	return nil
}

// upperNames upper-cases each content line's name (and a BEGIN or END
// line's component): RFC 5545 3.1 makes them case-insensitive, and
// golang-ical matches them exactly ("BEGIN:vCalendar", "dtstart").
func upperNames(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if l == "" || l[0] == ' ' || l[0] == '\t' { // a folded line's rest
			continue
		}
		end := strings.IndexAny(l, ";:")
		if end < 0 {
			continue
		}
		name := strings.ToUpper(l[:end])
		if (name == "BEGIN" || name == "END") && l[end] == ':' {
			end = len(l)
		}
		lines[i] = strings.ToUpper(l[:end]) + l[end:]
	}
	return strings.Join(lines, "")
}

// listValues splits a comma list, dropping empty items (an empty RDATE
// adds nothing).
func listValues(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// contentUID is a stable UID for an Event that came without one: the
// same Event imported again gets the same UID, so it is not duplicated.
func contentUID(e *Event) string {
	h := sha256.Sum256([]byte(e.Title + "\x00" + e.Start.Format(time.RFC3339) + "\x00" + e.End.Format(time.RFC3339) + "\x00" + e.RRule))
	return hex.EncodeToString(h[:12]) + "@clawbridge.import"
}

// parseDuration reads an RFC 5545 duration (P1DT2H30M, PT45M, P2W).
func parseDuration(s string) (time.Duration, error) {
	orig := s
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	if !strings.HasPrefix(s, "P") {
		return 0, fmt.Errorf("%q is not a duration", orig)
	}
	s = s[1:]
	var d time.Duration
	inTime := false
	num := ""
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			num += string(r)
		case r == 'T':
			inTime = true
		default:
			var n int
			if _, err := fmt.Sscanf(num, "%d", &n); err != nil {
				return 0, fmt.Errorf("%q is not a duration", orig)
			}
			unit := map[rune]time.Duration{'W': 7 * 24 * time.Hour, 'D': 24 * time.Hour, 'H': time.Hour, 'M': time.Minute, 'S': time.Second}[r]
			if unit == 0 || (r == 'M' && !inTime) {
				return 0, fmt.Errorf("%q is not a duration", orig)
			}
			d += time.Duration(n) * unit
			num = ""
		}
	}
	if neg {
		d = -d
	}
	return d, nil
}

// Write writes events as one VCALENDAR: UTC times as ...Z, zoned ones
// with TZID and a VTIMEZONE for each zone, all-day ones as DATE values,
// and the properties kept from an import.
func Write(w io.Writer, events []*Event, now time.Time) error {
	cal := ics.NewCalendarFor("clawbridge")
	cal.SetMethod(ics.MethodPublish)
	cal.SetCalscale("GREGORIAN")
	zonesUsed := map[string]bool{}
	var from, to time.Time
	for _, e := range events {
		if e.TZ != "" {
			zonesUsed[e.TZ] = true
		}
		if from.IsZero() || e.Start.Before(from) {
			from = e.Start
		}
		if e.End.After(to) {
			to = e.End
		}
	}
	names := make([]string, 0, len(zonesUsed))
	for n := range zonesUsed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasPrefix(n, vtimezonePrefix) { // a file's own zone goes back as it came
			def, err := parseVTimezone(n)
			if err != nil {
				return err
			}
			cal.Components = append(cal.Components, def)
			continue
		}
		loc, err := time.LoadLocation(n)
		if err != nil {
			return err
		}
		cal.Components = append(cal.Components, vtimezoneFor(loc, from, to))
	}
	for _, e := range events {
		cal.AddVEvent(vevent(e, now))
	}
	// RFC 5545 3.1: lines end in CRLF (folded at 75 octets, golang-ical's default).
	return cal.SerializeTo(w, ics.WithNewLineWindows)
}

// vevent is e as a VEVENT stamped now.
func vevent(e *Event, now time.Time) *ics.VEvent {
	ve := ics.NewEvent(e.UID)
	ve.SetDtStampTime(now)
	if e.Created > 0 {
		ve.SetCreatedTime(time.Unix(e.Created, 0))
	}
	if e.Updated > 0 {
		ve.SetModifiedAt(time.Unix(e.Updated, 0))
	}
	ve.SetSummary(e.Title)
	if e.Description != "" {
		ve.SetDescription(e.Description)
	}
	if e.Location != "" {
		ve.SetLocation(e.Location)
	}
	timeProp(ve, ics.ComponentPropertyDtStart, e, e.Start)
	timeProp(ve, ics.ComponentPropertyDtEnd, e, e.End)
	if e.RRule != "" {
		ve.AddRrule(e.RRule)
	}
	for _, x := range e.RDates {
		timeProp(ve, ics.ComponentPropertyRdate, e, x)
	}
	for _, x := range e.ExDates {
		timeProp(ve, ics.ComponentPropertyExdate, e, x)
	}
	if !e.RecurrenceID.IsZero() {
		timeProp(ve, ics.ComponentPropertyRecurrenceId, e, e.RecurrenceID)
	}
	if e.Status != "" {
		ve.SetProperty(ics.ComponentPropertyStatus, e.Status)
	}
	if e.Transp != "" {
		ve.SetProperty(ics.ComponentPropertyTransp, e.Transp)
	}
	ve.SetSequence(e.Sequence)
	for _, p := range e.Extra {
		ve.Properties = append(ve.Properties, ics.IANAProperty{BaseProperty: ics.BaseProperty{IANAToken: p.Name, ICalParameters: p.Params, Value: p.Value}})
	}
	return ve
}

func timeProp(ve *ics.VEvent, p ics.ComponentProperty, e *Event, t time.Time) {
	switch {
	case e.AllDay:
		ve.AddProperty(p, t.Format("20060102"), ics.WithValue(string(ics.ValueDataTypeDate)))
	case e.TZ != "":
		loc, _ := LoadZone(e.TZ)
		ve.AddProperty(p, t.In(loc).Format("20060102T150405"), ics.WithTZID(ZoneLabel(e.TZ)))
	default:
		ve.AddProperty(p, t.UTC().Format("20060102T150405Z"))
	}
}

// vtimezoneFor describes loc's offsets over [from, to] as observances, one
// per change found (scanning by the hour), so other programs need not know
// the IANA name to read the times.
func vtimezoneFor(loc *time.Location, from, to time.Time) *ics.VTimezone {
	tz := ics.NewTimezone(loc.String())
	start := time.Date(from.In(loc).Year()-1, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(to.In(loc).Year()+1, 12, 31, 0, 0, 0, 0, time.UTC)
	name, off := start.In(loc).Zone()
	add := func(at time.Time, fromOff, toOff int, name string, dst bool) {
		var c *ics.ComponentBase
		if dst {
			d := &ics.Daylight{}
			tz.Components = append(tz.Components, d)
			c = &d.ComponentBase
		} else {
			s := tz.AddStandard()
			c = &s.ComponentBase
		}
		c.AddProperty(ics.ComponentPropertyDtStart, at.Add(time.Duration(fromOff)*time.Second).UTC().Format("20060102T150405"))
		c.AddProperty(ics.ComponentProperty("TZOFFSETFROM"), fmtOffset(fromOff))
		c.AddProperty(ics.ComponentProperty("TZOFFSETTO"), fmtOffset(toOff))
		c.AddProperty(ics.ComponentProperty("TZNAME"), name)
	}
	add(start, off, off, name, false)
	for t := start.Add(time.Hour); t.Before(end); t = t.Add(time.Hour) {
		n, o := t.In(loc).Zone()
		if o != off {
			// find the exact minute of the change
			at := t.Add(-time.Hour)
			for _, o2 := at.In(loc).Zone(); o2 == off; _, o2 = at.In(loc).Zone() {
				at = at.Add(time.Minute)
			}
			add(at, off, o, n, t.In(loc).IsDST())
			off = o
		}
	}
	return tz
}
