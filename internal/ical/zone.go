package ical

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	ics "github.com/arran4/golang-ical"
)

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

// An Event's zone (Event.TZ) is an IANA name, or, for a zone a file
// defines only by its VTIMEZONE, that VTIMEZONE's text: its own rules are
// the zone, so they are kept with the Event and written back on export.
const vtimezonePrefix = "BEGIN:VTIMEZONE"

// ianaZone loads an IANA zone by name; "Local" and "" are not names.
func ianaZone(name string) *time.Location {
	if name == "" || name == "Local" {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return loc
}

// zones resolves the TZIDs of one file.
type zones struct {
	defs  map[string]*ics.VTimezone
	cache map[string]resolved
}

type resolved struct {
	loc *time.Location
	tz  string // what Event.TZ stores
	err error
}

// resolve finds the zone a TZID names: an IANA name, a Windows name, a
// globally unique TZID ("/freeassociation.sourceforge.net/Europe/Berlin")
// ending in an IANA name, a VTIMEZONE whose X-LIC-LOCATION is an IANA
// name, and otherwise the VTIMEZONE's own rules.
func (z *zones) resolve(tzid string) (*time.Location, string, error) {
	tzid = strings.Trim(tzid, `"`)
	if r, ok := z.cache[tzid]; ok {
		return r.loc, r.tz, r.err
	}
	r := z.find(tzid)
	z.cache[tzid] = r
	return r.loc, r.tz, r.err
}

func (z *zones) find(tzid string) resolved {
	iana := func(name string) (resolved, bool) {
		if loc := ianaZone(name); loc != nil {
			return resolved{loc: loc, tz: loc.String()}, true
		}
		return resolved{}, false
	}
	if r, ok := iana(tzid); ok {
		return r
	}
	if r, ok := iana(windowsZones[tzid]); ok {
		return r
	}
	if strings.HasPrefix(tzid, "/") { // RFC 5545 3.2.19: a prefix naming the publisher
		parts := strings.Split(strings.Trim(tzid, "/"), "/")
		for i := range parts {
			if r, ok := iana(strings.Join(parts[i:], "/")); ok {
				return r
			}
		}
	}
	def, ok := z.defs[tzid]
	if !ok {
		return resolved{err: fmt.Errorf("time zone %q is not an IANA or Windows zone name and the file has no VTIMEZONE for it", tzid)}
	}
	if p := def.GetProperty(ics.ComponentProperty("X-LIC-LOCATION")); p != nil {
		if r, ok := iana(strings.TrimSpace(p.Value)); ok {
			return r
		}
	}
	var b strings.Builder
	if err := def.SerializeTo(&b, &ics.SerializationConfiguration{MaxLength: 75, PropertyMaxLength: 75, NewLine: "\r\n"}); err != nil {
		return resolved{err: fmt.Errorf("VTIMEZONE %q: %v", tzid, err)}
	}
	loc, err := LoadZone(b.String())
	if err != nil {
		return resolved{err: err}
	}
	return resolved{loc: loc, tz: b.String()}
}

// ZoneLabel is how an Event's zone is named: the IANA name or the TZID.
func ZoneLabel(tz string) string {
	if !strings.HasPrefix(tz, vtimezonePrefix) {
		return tz
	}
	if def, err := parseVTimezone(tz); err == nil {
		if p := def.GetProperty(ics.ComponentPropertyTzid); p != nil {
			return strings.Trim(p.Value, `"`)
		}
	}
	return "VTIMEZONE"
}

// zoneCache holds the locations built from VTIMEZONE texts, so a query
// does not rebuild them; it is cleared when large (texts come from files).
var zoneCache = struct {
	sync.Mutex
	m map[string]*time.Location
}{m: map[string]*time.Location{}}

// LoadZone is the location Event.TZ names.
func LoadZone(tz string) (*time.Location, error) {
	if !strings.HasPrefix(tz, vtimezonePrefix) {
		if loc := ianaZone(tz); loc != nil {
			return loc, nil
		}
		return nil, fmt.Errorf("unknown time zone %q", tz)
	}
	zoneCache.Lock()
	loc, ok := zoneCache.m[tz]
	zoneCache.Unlock()
	if ok {
		return loc, nil
	}
	def, err := parseVTimezone(tz)
	if err != nil {
		return nil, err
	}
	if loc, err = zoneFromRules(def); err != nil {
		return nil, err
	}
	zoneCache.Lock()
	if len(zoneCache.m) > 256 {
		zoneCache.m = map[string]*time.Location{}
	}
	zoneCache.m[tz] = loc
	zoneCache.Unlock()
	return loc, nil
}

func parseVTimezone(text string) (*ics.VTimezone, error) {
	cal, err := ics.ParseCalendar(strings.NewReader("BEGIN:VCALENDAR\r\n" + text + "END:VCALENDAR\r\n"))
	if err != nil {
		return nil, err
	}
	for _, c := range cal.Components {
		if tz, ok := c.(*ics.VTimezone); ok {
			return tz, nil
		}
	}
	return nil, fmt.Errorf("no VTIMEZONE")
}

// A VTIMEZONE's changes are listed up to this year (open rules) and at
// most maxChanges of them, so a hostile rule cannot run for ever.
const (
	lastRuleYear = 2200
	maxChanges   = 10000
)

type change struct {
	at   time.Time // instant
	off  int       // offset after it, seconds
	dst  bool
	name string
}

// zoneFromRules builds the location a VTIMEZONE describes: every onset of
// every STANDARD and DAYLIGHT observance (its DTSTART, RRULE and RDATEs),
// in order, each switching to that observance's offset.
func zoneFromRules(def *ics.VTimezone) (*time.Location, error) {
	zc := &zoneChanges{}
	if p := def.GetProperty(ics.ComponentPropertyTzid); p != nil {
		zc.tzid = strings.Trim(p.Value, `"`)
	}
	for _, sub := range def.Components {
		var err error
		switch c := sub.(type) {
		case *ics.Standard:
			err = zc.observance(&c.ComponentBase, false)
		case *ics.Daylight:
			err = zc.observance(&c.ComponentBase, true)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(zc.changes) == 0 {
		return nil, fmt.Errorf("VTIMEZONE %q has no STANDARD or DAYLIGHT observance", zc.tzid)
	}
	sort.SliceStable(zc.changes, func(i, j int) bool { return zc.changes[i].at.Before(zc.changes[j].at) })
	return time.LoadLocationFromTZData(zc.tzid, tzif(zc.first, zc.changes))
}

// zoneChanges gathers the offset changes of a VTIMEZONE's observances and
// the offset before the earliest one.
type zoneChanges struct {
	tzid    string
	changes []change
	first   int // offset before firstAt
	firstAt time.Time
}

// add notes a change at at to offset to, coming from offset from.
func (zc *zoneChanges) add(at time.Time, from, to int, dst bool, name string) error {
	if len(zc.changes) >= maxChanges {
		return fmt.Errorf("VTIMEZONE %q changes its offset more than %d times", zc.tzid, maxChanges)
	}
	zc.changes = append(zc.changes, change{at: at, off: to, dst: dst, name: name})
	if zc.firstAt.IsZero() || at.Before(zc.firstAt) {
		zc.first, zc.firstAt = from, at
	}
	return nil
}

// observance adds the changes of one STANDARD or DAYLIGHT block: its
// DTSTART, each RRULE occurrence (until lastRuleYear) and each RDATE.
func (zc *zoneChanges) observance(base *ics.ComponentBase, dst bool) error {
	tzid := zc.tzid
	prop := func(name string) string {
		if p := base.GetProperty(ics.ComponentProperty(name)); p != nil {
			return strings.TrimSpace(p.Value)
		}
		return ""
	}
	from, err := parseOffset(prop("TZOFFSETFROM"))
	if err != nil {
		return fmt.Errorf("VTIMEZONE %q: TZOFFSETFROM: %v", tzid, err)
	}
	to, err := parseOffset(prop("TZOFFSETTO"))
	if err != nil {
		return fmt.Errorf("VTIMEZONE %q: TZOFFSETTO: %v", tzid, err)
	}
	name := prop("TZNAME")
	if name == "" {
		name = fmtOffset(to)
	}
	ds := base.GetProperty(ics.ComponentPropertyDtStart)
	if ds == nil {
		return fmt.Errorf("VTIMEZONE %q: an observance has no DTSTART", tzid)
	}
	start, err := onset(ds.Value, from)
	if err != nil {
		return fmt.Errorf("VTIMEZONE %q: DTSTART: %v", tzid, err)
	}
	if err := zc.add(start, from, to, dst, name); err != nil {
		return err
	}
	for _, p := range base.GetProperties(ics.ComponentPropertyRrule) {
		wallStart := start.Add(time.Duration(from) * time.Second)
		r, err := ParseRule(p.Value, wallStart)
		if err != nil {
			return fmt.Errorf("VTIMEZONE %q: RRULE %q: %v", tzid, p.Value, err)
		}
		next := r.Iterator()
		for t, ok := next(); ok && t.Year() <= lastRuleYear; t, ok = next() {
			if err := zc.add(t.Add(-time.Duration(from)*time.Second), from, to, dst, name); err != nil {
				return err
			}
		}
	}
	for _, p := range base.GetProperties(ics.ComponentPropertyRdate) {
		for _, v := range strings.Split(p.Value, ",") {
			at, err := onset(v, from)
			if err != nil {
				return fmt.Errorf("VTIMEZONE %q: RDATE %q: %v", tzid, v, err)
			}
			if err := zc.add(at, from, to, dst, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// onset reads an observance's onset: a wall time in the offset from
// before it (or UTC with Z); of a PERIOD, its start.
func onset(v string, from int) (time.Time, error) {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '/'); i >= 0 {
		v = v[:i]
	}
	if strings.HasSuffix(v, "Z") {
		return time.Parse("20060102T150405Z", v)
	}
	layout := "20060102T150405"
	if len(v) == 8 {
		layout = "20060102"
	}
	w, err := time.Parse(layout, v)
	return w.Add(-time.Duration(from) * time.Second), err
}

// tzif encodes the changes as TZif version 2 data (RFC 8536), which Go
// reads into a Location: type 0 is the offset before the first change.
func tzif(first int, changes []change) []byte {
	types := []tzType{{first, false, fmtOffset(first)}}
	var chars []byte
	nameAt := map[string]int{}
	charIndex := func(name string) int {
		if i, ok := nameAt[name]; ok {
			return i
		}
		if len(chars)+len(name)+1 > 255 { // desigidx is one byte
			name = ""
			if i, ok := nameAt[name]; ok {
				return i
			}
		}
		nameAt[name] = len(chars)
		chars = append(append(chars, name...), 0)
		return nameAt[name]
	}
	var times []int64
	var idx []byte
	for i, c := range changes {
		if i+1 < len(changes) && changes[i+1].at.Equal(c.at) {
			continue // two onsets at one instant: the later listed wins
		}
		ti := typeIndex(&types, c)
		times = append(times, c.at.Unix())
		idx = append(idx, byte(ti))
	}
	var b bytes.Buffer
	header := func(timecnt, typecnt, charcnt int) {
		b.WriteString("TZif2")
		b.Write(make([]byte, 15))
		for _, n := range []int{0, 0, 0, timecnt, typecnt, charcnt} { // isutcnt, isstdcnt, leapcnt, ...
			binary.Write(&b, binary.BigEndian, uint32(n))
		}
	}
	header(0, 0, 0) // an empty version 1 block: readers of version 2 skip it
	var desig []int
	for _, t := range types {
		desig = append(desig, charIndex(t.name))
	}
	header(len(times), len(types), len(chars))
	for _, t := range times {
		binary.Write(&b, binary.BigEndian, t)
	}
	b.Write(idx)
	for i, t := range types {
		binary.Write(&b, binary.BigEndian, int32(t.off))
		if t.dst {
			b.WriteByte(1)
		} else {
			b.WriteByte(0)
		}
		b.WriteByte(byte(desig[i]))
	}
	b.Write(chars)
	b.WriteString("\n\n")
	return b.Bytes()
}

// tzType is a TZif local time type.
type tzType struct {
	off  int
	dst  bool
	name string
}

// typeIndex is the index in types of c's local time type, added when new.
// The index is one byte: past 256 types one with the same offset serves.
func typeIndex(types *[]tzType, c change) int {
	want := tzType{c.off, c.dst, c.name}
	for j, t := range *types {
		if t == want {
			return j
		}
	}
	if len(*types) == 256 {
		for j, t := range *types {
			if t.off == c.off {
				return j
			}
		}
	}
	*types = append(*types, want)
	return len(*types) - 1
}

func parseOffset(s string) (int, error) {
	s = strings.TrimSpace(s)
	if len(s) != 5 && len(s) != 7 || (s[0] != '+' && s[0] != '-') {
		return 0, fmt.Errorf("%q is not a UTC offset (+HHMM)", s)
	}
	var h, m, sec int
	for i, p := range []*int{&h, &m, &sec}[:(len(s)-1)/2] {
		d := s[1+2*i : 3+2*i]
		if d[0] < '0' || d[0] > '9' || d[1] < '0' || d[1] > '9' {
			return 0, fmt.Errorf("%q is not a UTC offset (+HHMM)", s)
		}
		*p = int(d[0]-'0')*10 + int(d[1]-'0')
	}
	off := h*3600 + m*60 + sec
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}

func fmtOffset(s int) string {
	sign := '+'
	if s < 0 {
		sign, s = '-', -s
	}
	return fmt.Sprintf("%c%02d%02d", sign, s/3600, s/60%60)
}
