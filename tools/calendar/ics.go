package calendar

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"
)

// modelled are the VEVENT properties read into event fields; every other
// one is kept in Extra and written back on export.
var modelled = map[string]bool{"UID": true, "SUMMARY": true, "DESCRIPTION": true, "LOCATION": true, "DTSTART": true, "DTEND": true,
	"DURATION": true, "RRULE": true, "EXDATE": true, "RECURRENCE-ID": true, "STATUS": true, "TRANSP": true, "SEQUENCE": true,
	"DTSTAMP": true, "CREATED": true, "LAST-MODIFIED": true}

// windowsZones maps the Windows zone names Outlook and Exchange write as
// TZID to IANA zones (CLDR windowsZones, the common ones).
var windowsZones = map[string]string{
	"Pacific Standard Time": "America/Los_Angeles", "Mountain Standard Time": "America/Denver", "Central Standard Time": "America/Chicago",
	"Eastern Standard Time": "America/New_York", "Alaskan Standard Time": "America/Anchorage", "Hawaiian Standard Time": "Pacific/Honolulu",
	"Atlantic Standard Time": "America/Halifax", "GMT Standard Time": "Europe/London", "Greenwich Standard Time": "Atlantic/Reykjavik",
	"W. Europe Standard Time": "Europe/Berlin", "Romance Standard Time": "Europe/Paris", "Central Europe Standard Time": "Europe/Budapest",
	"Central European Standard Time": "Europe/Warsaw", "E. Europe Standard Time": "Europe/Chisinau", "FLE Standard Time": "Europe/Kiev",
	"GTB Standard Time": "Europe/Bucharest", "Russian Standard Time": "Europe/Moscow", "China Standard Time": "Asia/Shanghai",
	"Taipei Standard Time": "Asia/Taipei", "Tokyo Standard Time": "Asia/Tokyo", "Korea Standard Time": "Asia/Seoul",
	"Singapore Standard Time": "Asia/Singapore", "India Standard Time": "Asia/Kolkata", "AUS Eastern Standard Time": "Australia/Sydney",
	"New Zealand Standard Time": "Pacific/Auckland", "UTC": "UTC", "Coordinated Universal Time": "UTC",
}

// zones resolves the TZIDs of one file: IANA names, Windows names, and
// otherwise the file's own VTIMEZONE rules, matched to an IANA zone with
// the same offsets and changes (a series must repeat on a real wall clock).
type zones struct {
	defs  map[string]*vtimezone
	cache map[string]*time.Location
}

func (z *zones) resolve(tzid string) (*time.Location, error) {
	tzid = strings.Trim(tzid, `"`)
	if l, ok := z.cache[tzid]; ok {
		return l, nil
	}
	var loc *time.Location
	if name, ok := windowsZones[tzid]; ok {
		loc, _ = time.LoadLocation(name)
	} else if strings.Contains(tzid, "/") || tzid == "UTC" {
		loc, _ = time.LoadLocation(strings.TrimPrefix(tzid, "/"))
	}
	if loc == nil {
		if def, ok := z.defs[tzid]; ok {
			loc = def.match()
		}
	}
	if loc == nil {
		return nil, fmt.Errorf("time zone %q is neither an IANA nor a Windows zone name, and its VTIMEZONE matches no IANA zone", tzid)
	}
	z.cache[tzid] = loc
	return loc, nil
}

// vtimezone is a VTIMEZONE's observances.
type vtimezone struct{ obs []observance }

type observance struct {
	from, to int // offsets in seconds
	start    time.Time
	rule     *rrule.RRule
}

// offsetAt is the UTC offset the VTIMEZONE gives at instant t: the
// observance whose latest onset is at or before t.
func (v *vtimezone) offsetAt(t time.Time) int {
	best, off := time.Time{}, 0
	if len(v.obs) > 0 {
		off = v.obs[0].from
	}
	for _, o := range v.obs {
		wallT := t.Add(time.Duration(o.from) * time.Second) // the onset's wall time is in the old offset
		on := o.start
		if o.rule != nil {
			on = o.rule.Before(wallT, true)
		} else if on.After(wallT) {
			on = time.Time{}
		}
		if !on.IsZero() {
			inst := on.Add(-time.Duration(o.from) * time.Second)
			if best.IsZero() || inst.After(best) {
				best, off = inst, o.to
			}
		}
	}
	return off
}

// match finds an IANA zone (from the system's zone1970.tab) with this
// VTIMEZONE's offsets on every day of the last two and next two years.
func (v *vtimezone) match() *time.Location {
	f, err := os.Open("/usr/share/zoneinfo/zone1970.tab")
	if err != nil {
		return nil
	}
	defer f.Close()
	year := time.Now().Year()
	from, to := time.Date(year-2, 1, 1, 12, 0, 0, 0, time.UTC), time.Date(year+2, 1, 1, 12, 0, 0, 0, time.UTC)
	// The VTIMEZONE's changes in the span, found once: an offset per day
	// then costs a look-up, not a walk through the rules.
	type change struct {
		at  time.Time
		off int
	}
	changes := []change{{time.Time{}, v.offsetAt(from)}}
	for _, o := range v.obs {
		if o.rule == nil {
			continue
		}
		for _, on := range o.rule.Between(from.AddDate(0, 0, -1), to, true) {
			changes = append(changes, change{on.Add(-time.Duration(o.from) * time.Second), o.to})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].at.Before(changes[j].at) })
	var samples []time.Time
	var want []int
	ci := 0
	for t := from; t.Before(to); t = t.Add(24 * time.Hour) {
		for ci+1 < len(changes) && !changes[ci+1].at.After(t) {
			ci++
		}
		samples = append(samples, t)
		want = append(want, changes[ci].off)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 3 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		loc, err := time.LoadLocation(fields[2])
		if err != nil {
			continue
		}
		ok := true
		for i, t := range samples {
			if _, off := t.In(loc).Zone(); off != want[i] {
				ok = false
				break
			}
		}
		if ok {
			return loc
		}
	}
	return nil
}

func parseOffset(s string) (int, error) {
	s = strings.TrimSpace(s)
	if len(s) != 5 && len(s) != 7 || (s[0] != '+' && s[0] != '-') {
		return 0, fmt.Errorf("offset %q", s)
	}
	var h, m, sec int
	fmt.Sscanf(s[1:3], "%d", &h)
	fmt.Sscanf(s[3:5], "%d", &m)
	if len(s) == 7 {
		fmt.Sscanf(s[5:7], "%d", &sec)
	}
	off := h*3600 + m*60 + sec
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}

func readVTimezone(tz *ics.VTimezone) (string, *vtimezone) {
	id := ""
	if p := tz.GetProperty(ics.ComponentPropertyTzid); p != nil {
		id = strings.Trim(p.Value, `"`)
	}
	v := &vtimezone{}
	for _, sub := range tz.Components {
		var base *ics.ComponentBase
		switch c := sub.(type) {
		case *ics.Standard:
			base = &c.ComponentBase
		case *ics.Daylight:
			base = &c.ComponentBase
		default:
			continue
		}
		var o observance
		var err error
		if p := base.GetProperty(ics.ComponentProperty("TZOFFSETFROM")); p != nil {
			o.from, err = parseOffset(p.Value)
		}
		if p := base.GetProperty(ics.ComponentProperty("TZOFFSETTO")); p != nil && err == nil {
			o.to, err = parseOffset(p.Value)
		}
		if p := base.GetProperty(ics.ComponentPropertyDtStart); p != nil && err == nil {
			o.start, err = time.ParseInLocation("20060102T150405", p.Value, time.UTC)
		}
		if err != nil {
			continue
		}
		if p := base.GetProperty(ics.ComponentPropertyRrule); p != nil {
			if o.start.Year() < 1970 { // Outlook's 1601: the same yearly rule, far fewer years to step through
				o.start = o.start.AddDate(1970-o.start.Year(), 0, 0)
			}
			o.rule, _ = parseRule(p.Value, o.start)
		}
		v.obs = append(v.obs, o)
	}
	return id, v
}

// timeProp reads a DATE-TIME or DATE property: UTC (Z), with TZID, or
// floating (read in loc). all reports a DATE value.
func (z *zones) timeProp(p *ics.IANAProperty, value string, loc *time.Location) (t time.Time, all bool, tz string, err error) {
	if value == "" {
		value = p.Value
	}
	value = strings.TrimSpace(value)
	isDate := len(value) == 8
	if v := p.ICalParameters["VALUE"]; len(v) == 1 && strings.EqualFold(v[0], "DATE") {
		isDate = true
	}
	if isDate {
		d, err := time.Parse("20060102", value)
		return d, true, "", err
	}
	if strings.HasSuffix(value, "Z") {
		t, err := time.Parse("20060102T150405Z", value)
		return t.UTC(), false, "", err
	}
	zone := loc
	if ids := p.ICalParameters["TZID"]; len(ids) == 1 {
		if zone, err = z.resolve(ids[0]); err != nil {
			return time.Time{}, false, "", err
		}
		tz = zone.String()
	}
	w, err := time.ParseInLocation("20060102T150405", value, time.UTC)
	if err != nil {
		return time.Time{}, false, "", err
	}
	t, err = wall(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), zone)
	if err != nil { // a time in a DST gap: RFC 5545 says use the offset before the gap
		t = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, zone).UTC()
		err = nil
	}
	return t, false, tz, err
}

// parseICS reads the VEVENTs of an .ics file into events of calendar. Each
// problem names the event (UID or position) and the property.
func parseICS(r io.Reader, calendar string, loc *time.Location, now time.Time) ([]*event, error) {
	cal, err := ics.ParseCalendar(r)
	if err != nil {
		return nil, fmt.Errorf("not an iCalendar file: %v", err)
	}
	z := &zones{defs: map[string]*vtimezone{}, cache: map[string]*time.Location{}}
	for _, c := range cal.Components {
		if tz, ok := c.(*ics.VTimezone); ok {
			id, v := readVTimezone(tz)
			z.defs[id] = v
		}
	}
	var out []*event
	for i, ve := range cal.Events() {
		e, err := z.readEvent(ve, calendar, loc, now)
		if err != nil {
			name := fmt.Sprintf("VEVENT %d", i+1)
			if p := ve.GetProperty(ics.ComponentPropertyUniqueId); p != nil {
				name += " (UID " + p.Value + ")"
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func (z *zones) readEvent(ve *ics.VEvent, calendar string, loc *time.Location, now time.Time) (*event, error) {
	text := func(p ics.ComponentProperty) string {
		if v := ve.GetProperty(p); v != nil {
			return v.Value
		}
		return ""
	}
	e := &event{Calendar: calendar, UID: text(ics.ComponentPropertyUniqueId), Title: text(ics.ComponentPropertySummary),
		Description: text(ics.ComponentPropertyDescription), Location: text(ics.ComponentPropertyLocation),
		Status: strings.ToUpper(text(ics.ComponentPropertyStatus)), Transp: strings.ToUpper(text(ics.ComponentPropertyTransp)),
		RRule: strings.ReplaceAll(text(ics.ComponentPropertyRrule), " ", ""), Created: now.Unix(), Updated: now.Unix()}
	fmt.Sscanf(text(ics.ComponentPropertySequence), "%d", &e.Sequence)
	ds := ve.GetProperty(ics.ComponentPropertyDtStart)
	if ds == nil {
		return nil, fmt.Errorf("DTSTART is missing")
	}
	start, all, tz, err := z.timeProp(ds, "", loc)
	if err != nil {
		return nil, fmt.Errorf("DTSTART: %v", err)
	}
	e.Start, e.AllDay, e.TZ = start, all, tz
	switch {
	case ve.GetProperty(ics.ComponentPropertyDtEnd) != nil:
		end, _, _, err := z.timeProp(ve.GetProperty(ics.ComponentPropertyDtEnd), "", loc)
		if err != nil {
			return nil, fmt.Errorf("DTEND: %v", err)
		}
		e.End = end
	case text(ics.ComponentPropertyDuration) != "":
		d, err := parseDuration(text(ics.ComponentPropertyDuration))
		if err != nil {
			return nil, fmt.Errorf("DURATION: %v", err)
		}
		e.End = e.Start.Add(d)
	case all:
		e.End = e.Start.AddDate(0, 0, 1)
	default:
		e.End = e.Start
	}
	if e.End.Before(e.Start) {
		return nil, fmt.Errorf("DTEND is before DTSTART")
	}
	if e.RRule != "" {
		if _, err := parseRule(e.RRule, e.Start); err != nil {
			return nil, fmt.Errorf("RRULE %q: %v", e.RRule, err)
		}
	}
	for _, p := range ve.GetProperties(ics.ComponentPropertyExdate) {
		for _, v := range strings.Split(p.Value, ",") {
			t, _, _, err := z.timeProp(p, v, loc)
			if err != nil {
				return nil, fmt.Errorf("EXDATE %q: %v", v, err)
			}
			e.ExDates = append(e.ExDates, t)
		}
	}
	if p := ve.GetProperty(ics.ComponentPropertyRecurrenceId); p != nil {
		t, _, _, err := z.timeProp(p, "", loc)
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
			e.Extra = append(e.Extra, rawProp{Name: p.IANAToken, Params: p.ICalParameters, Value: p.Value})
		}
	}
	return e, nil
}

// contentUID is a stable UID for an event that came without one: the
// same event imported again gets the same UID, so it is not duplicated.
func contentUID(e *event) string {
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

// writeICS writes events as one VCALENDAR: UTC times as ...Z, zoned ones
// with TZID and a VTIMEZONE for each zone, all-day ones as DATE values,
// and the properties kept from an import.
func writeICS(w io.Writer, events []*event, now time.Time) error {
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
		loc, err := time.LoadLocation(n)
		if err != nil {
			return err
		}
		cal.Components = append(cal.Components, vtimezoneFor(loc, from, to))
	}
	for _, e := range events {
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
		cal.AddVEvent(ve)
	}
	return cal.SerializeTo(w)
}

func timeProp(ve *ics.VEvent, p ics.ComponentProperty, e *event, t time.Time) {
	switch {
	case e.AllDay:
		ve.AddProperty(p, t.Format("20060102"), ics.WithValue(string(ics.ValueDataTypeDate)))
	case e.TZ != "":
		loc, _ := time.LoadLocation(e.TZ)
		ve.AddProperty(p, t.In(loc).Format("20060102T150405"), ics.WithTZID(e.TZ))
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

func fmtOffset(s int) string {
	sign := '+'
	if s < 0 {
		sign, s = '-', -s
	}
	return fmt.Sprintf("%c%02d%02d", sign, s/3600, s/60%60)
}
