package calendar

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/ical"
	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The files here are other projects' test calendars (fixtures/calendar,
// SOURCES.md); where python icalendar and recurring-ical-events read them
// (testdata/occurrences.py) our occurrences are compared with theirs.

// second runs testdata/occurrences.py: the lines it prints.
func second(t *testing.T, args ...string) []string {
	t.Helper()
	py := "/usr/bin/python3" // Debian's, with python3-icalendar (a pyenv python3 on PATH has none)
	if exec.Command(py, "-c", "import icalendar, recurring_ical_events").Run() != nil {
		tooltest.Missing(t, "python3-icalendar and python3-recurring-ical-events not installed (scripts/install-deps.sh)")
	}
	_, here, _, _ := runtime.Caller(0)
	out, err := exec.Command(py, append([]string{filepath.Join(filepath.Dir(here), "testdata", "occurrences.py")}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("occurrences.py %v: %v\n%s", args, err, out)
	}
	return strings.Fields(string(out))
}

func fixturePath(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "fixtures", "calendar", name)
}

// utcStarts queries [from, to) (dates, UTC) and gives each start as
// occurrences.py prints it.
func utcStarts(t *testing.T, r *rig, cal, from, to string) []string {
	t.Helper()
	m := r.must(t, map[string]any{"action": "query", "from": from + "T00:00:00Z", "to": to + "T00:00:00Z", "calendars": []any{cal}})
	var out []string
	for _, e := range m["events"].([]map[string]any) {
		s := e["start"].(string)
		if e["all_day"] != true {
			tm, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			s = tm.UTC().Format("2006-01-02T15:04:05Z")
		}
		out = append(out, s)
	}
	return out
}

// importFixture imports the fixture name into calendar cal and checks that
// it added n events.
func importFixture(t *testing.T, r *rig, name, cal string, n int) {
	t.Helper()
	eq(t, "import", r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, name), "calendar": cal})["added"], n)
}

// startsLikePython is utcStarts, checked against python icalendar's
// reading of the fixture name.
func startsLikePython(t *testing.T, r *rig, name, cal, from, to string) []string {
	t.Helper()
	got := utcStarts(t, r, cal, from, to)
	eq(t, "against python icalendar", got, second(t, fixturePath(name), from, to))
	return got
}

// exportTo exports calendar cal and returns the file's path and bytes.
func exportTo(t *testing.T, r *rig, cal string) (string, []byte) {
	t.Helper()
	out := r.must(t, map[string]any{"action": "export_ics", "calendars": []any{cal}, "output": cal + ".ics", "overwrite": true})
	p := filepath.Join(r.d.Sandbox.Root(), out["path"].(string))
	raw := tooltest.ReadFile(t, p)
	return p, raw
}

// TestCalendarICS_VTimezoneRulesOfTheEventsYears: ical.net's US-Eastern
// VTIMEZONE (the US rules of 1987-2006) matches no IANA zone today; the
// file's own rules place a 1997 series, across that year's change, where
// python icalendar does. The export carries the VTIMEZONE, and python reads
// the export the same way.
func TestCalendarICS_VTimezoneRulesOfTheEventsYears(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", mar2026)
		name := "icalnet_daily_us_eastern.ics"
		importFixture(t, r, name, "e", 1)
		got := startsLikePython(t, r, name, "e", "1997-10-20", "1997-11-02")
		eq(t, "the EDT to EST change", got[2:4], []string{"1997-10-24T13:00:00Z", "1997-10-26T14:00:00Z"})
		ev := r.must(t, map[string]any{"action": "query", "from": "1997-09-02", "calendars": []any{"e"}})["events"].([]map[string]any)
		eq(t, "zone", ev[0]["event_timezone"], "US-Eastern")
		eq(t, "floating DTEND read in the event's zone", ev[0]["end"], "1997-09-02T22:00:00+08:00")

		p, raw := exportTo(t, r, "e")
		if !strings.Contains(string(raw), "TZID:US-Eastern\r\n") || !strings.Contains(string(raw), "DTSTART;TZID=US-Eastern:19970902T090000\r\n") {
			t.Fatalf("the export lost the zone:\n%s", raw)
		}
		eq(t, "python reads the export", second(t, p, "1997-10-20", "1997-11-02"), got)
	})
}

// TestCalendarICS_CustomZoneKeepsItsOwnOffsets: collective/icalendar's
// MyTimezone (+12, then +10 from 5 May 2024 08:00) was matched to
// Pacific/Fiji and read 2 h off; its own rules give python's instants,
// including the first of two 07:00:01 in the two-hour fold.
func TestCalendarICS_CustomZoneKeepsItsOwnOffsets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		name := "custom_zone_two_hour_fold.ics"
		importFixture(t, r, name, "c", 4)
		got := startsLikePython(t, r, name, "c", "2024-01-01", "2025-01-01")
		eq(t, "the four", got, []string{"2024-03-02T20:00:00Z", "2024-05-04T19:00:01Z", "2024-05-04T22:00:01Z", "2024-08-02T22:00:00Z"})
	})
}

// TestCalendarICS_RDateObservancesAndXLicLocation: collective/icalendar's
// Fiji VTIMEZONE gives most of its changes as RDATE lists. Its
// X-LIC-LOCATION names the IANA zone, which the import uses; without that
// line the zone is the file's own rules, which give python's offset at
// every 6 hours from 1995 to 2037.
func TestCalendarICS_RDateObservancesAndXLicLocation(t *testing.T) {
	name := "custom_fiji_rdate_observances.ics"
	raw := tooltest.ReadFile(t, fixturePath(name))
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, name), "calendar": "f"})
		ev := r.must(t, map[string]any{"action": "query", "from": "2014-08-28", "to": "2014-08-30", "calendars": []any{"f"}})["events"].([]map[string]any)
		if len(ev) != 1 || ev[0]["event_timezone"] != "Pacific/Fiji" || ev[0]["start"] != "2014-08-28T20:00:00Z" {
			t.Fatalf("X-LIC-LOCATION Pacific/Fiji: %v", ev)
		}

		noLic := strings.Replace(string(raw), "X-LIC-LOCATION:Pacific/Fiji\n", "", 1)
		tooltest.WriteFile(t, filepath.Join(r.d.Sandbox.Root(), "own.ics"), []byte(noLic))
		r.must(t, map[string]any{"action": "import_ics", "path": "own.ics", "calendar": "own"})
		ev = r.must(t, map[string]any{"action": "query", "from": "2014-08-28", "to": "2014-08-30", "calendars": []any{"own"}})["events"].([]map[string]any)
		if len(ev) != 1 || ev[0]["event_timezone"] != "custom_Pacific/Fiji" || ev[0]["start"] != "2014-08-28T20:00:00Z" {
			t.Fatalf("own rules: %v", ev)
		}
	})

	cal, _, err := ical.Parse(strings.NewReader(strings.Replace(string(raw), "X-LIC-LOCATION:Pacific/Fiji\n", "", 1)), "x", time.UTC, mar2026)
	if err != nil || len(cal) != 1 {
		t.Fatalf("%v %v", cal, err)
	}
	loc, err := ical.LoadZone(cal[0].TZ)
	if err != nil {
		t.Fatal(err)
	}
	lines := second(t, "--offsets", fixturePath(name), "custom_Pacific/Fiji", "1995", "2037")
	bad, summer := 0, 0
	for i := 0; i+1 < len(lines); i += 2 {
		unix, _ := strconv.ParseInt(lines[i], 10, 64)
		want, _ := strconv.Atoi(lines[i+1])
		_, off := time.Unix(unix, 0).In(loc).Zone()
		if off != want {
			if bad++; bad <= 5 {
				t.Errorf("%s: offset %d, python %d", time.Unix(unix, 0).UTC().Format(time.RFC3339), off, want)
			}
		}
		if want == 13*3600 {
			summer++
		}
	}
	if bad > 0 || summer == 0 {
		t.Fatalf("%d of %d instants differ from python; %d in summer time", bad, len(lines)/2, summer)
	}
}

// TestCalendarICS_GloballyUniqueTZIDs: Evolution's and Lightning's TZIDs
// carry a publisher prefix before the IANA name (RFC 5545 3.2.19).
func TestCalendarICS_GloballyUniqueTZIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		importFixture(t, r, "globally_unique_tzids.ics", "g", 3)
		ev := r.must(t, map[string]any{"action": "query", "from": "2020-04-26", "calendars": []any{"g"}})["events"].([]map[string]any)
		var got []string
		for _, e := range ev {
			got = append(got, e["start"].(string)+" "+e["event_timezone"].(string))
		}
		// 14:00 in each: CEST (+2), ART (-3), EDT (-4).
		eq(t, "starts", got, []string{"2020-04-26T12:00:00Z Europe/Berlin", "2020-04-26T17:00:00Z America/Argentina/Buenos_Aires", "2020-04-26T18:00:00Z America/New_York"})
	})
}

// TestCalendarQuery_RDatesAreOccurrences: Zimbra's monthly series with two
// RDATEs has the five instances ical.js's own test lists, as python.
func TestCalendarQuery_RDatesAreOccurrences(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Europe/Berlin", mar2026)
		name := "zimbra_rdates.ics"
		r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, name), "calendar": "z"})
		got := utcStarts(t, r, "z", "2012-01-01", "2013-01-01")
		eq(t, "against python", got, second(t, fixturePath(name), "2012-01-01", "2013-01-01"))
		eq(t, "ical.js's expected instances", got, []string{"2012-10-02T17:00:00Z", "2012-11-05T18:00:00Z", "2012-11-06T18:00:00Z", "2012-11-10T18:00:00Z", "2012-12-04T18:00:00Z"})
		// An RDATE instance is an occurrence to change or leave out.
		nov10 := r.must(t, map[string]any{"action": "query", "from": "2012-11-10", "calendars": []any{"z"}})["events"].([]map[string]any)[0]
		r.must(t, map[string]any{"action": "delete", "id": nov10["id"], "occurrence": nov10["occurrence"]})
		eq(t, "after leaving one out", len(utcStarts(t, r, "z", "2012-01-01", "2013-01-01")), 4)

		p, _ := exportTo(t, r, "z")
		eq(t, "python reads the export", second(t, p, "2012-01-01", "2013-01-01"), []string{"2012-10-02T17:00:00Z", "2012-11-05T18:00:00Z", "2012-11-06T18:00:00Z", "2012-12-04T18:00:00Z"})
	})
}

// TestCalendarQuery_AllDayEventsWithoutLength: Apple iCal 2.0 writes
// all-day events with DTEND equal to DTSTART; each is on its own day, as
// python reads them.
func TestCalendarQuery_AllDayEventsWithoutLength(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "America/Chicago", mar2026)
		name := "icalnet_ical2_allday.ics"
		r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, name), "calendar": "a"})
		eq(t, "July 2008 against python", utcStarts(t, r, "a", "2008-07-01", "2008-08-01"), second(t, fixturePath(name), "2008-07-01", "2008-08-01"))
		ev := r.must(t, map[string]any{"action": "query", "from": "2008-07-02", "calendars": []any{"a"}})["events"].([]map[string]any)
		if len(ev) != 1 || ev[0]["start"] != "2008-07-02" || ev[0]["end"] != "2008-07-02" {
			t.Fatalf("2 July: %v", ev)
		}
	})
}

// TestCalendarICS_ExdateAsDate: ical.js's sample leaves out 11 June with a
// DATE EXDATE in a series of UTC times; ical.js's test expects three
// instances. (recurring-ical-events 2.0.1 keeps the fourth: it compares a
// date with times.) The export names the instance left out, so python
// reads the export with the three.
func TestCalendarICS_ExdateAsDate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, "icaljs_exdate_as_date.ics"), "calendar": "x"})
		want := []string{"2024-06-09T03:00:00Z", "2024-06-10T03:00:00Z", "2024-06-12T03:00:00Z"}
		eq(t, "instances", utcStarts(t, r, "x", "2024-06-01", "2024-07-01"), want)
		p, raw := exportTo(t, r, "x")
		if !strings.Contains(string(raw), "EXDATE:20240611T030000Z\r\n") {
			t.Fatalf("exported EXDATE:\n%s", raw)
		}
		eq(t, "python reads the export", second(t, p, "2024-06-01", "2024-07-01"), want)
	})
}

// TestCalendarImport_SkipsEventsItCannotRead: collective/icalendar's file
// with two VEVENTs lacking DTSTART imports the third and names the two.
func TestCalendarImport_SkipsEventsItCannotRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		res := tooltest.OK(t, r.t, map[string]any{"action": "import_ics", "path": fixture(t, r, "events_without_dtstart.ics"), "calendar": "s"})
		m := res.Data.(map[string]any)
		eq(t, "imported", m["added"], 1)
		eq(t, "skipped", m["skipped"], []ical.Skipped{{Event: "VEVENT 2", Reason: "DTSTART is missing"}, {Event: "VEVENT 3", Reason: "DTSTART is missing"}})
		if !strings.Contains(res.Summary, "Skipped 2") {
			t.Errorf("summary %q does not say so", res.Summary)
		}
		// Its RDATE is a PERIOD in another zone: 12:00 Berlin (CEST).
		eq(t, "instances", append(utcStarts(t, r, "s", "2014-08-29", "2014-08-30"), utcStarts(t, r, "s", "2024-09-13", "2024-09-14")...),
			[]string{"2014-08-29T12:00:00Z", "2024-09-13T10:00:00Z"})
	})
}

// TestCalendarICS_ExportLinesAreCRLFAndFolded: RFC 5545 3.1: every line
// ends in CRLF and is at most 75 octets, folded ones too (long CJK text).
func TestCalendarICS_ExportLinesAreCRLFAndFolded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", mar2026)
		long := strings.Repeat("会议纪要，预算与进度；", 20) + strings.Repeat("word ", 40)
		r.must(t, map[string]any{"action": "create", "title": "长标题" + strings.Repeat("很长", 40), "start": "2026-03-05T10:00", "description": long, "calendar": "l"})
		_, raw := exportTo(t, r, "l")
		checkCRLF(t, raw)
	})
}

// checkCRLF fails unless every line ends in CRLF and is at most 75 octets.
func checkCRLF(t *testing.T, raw []byte) {
	t.Helper()
	if !strings.HasSuffix(string(raw), "\r\n") {
		t.Fatalf("the file does not end in CRLF")
	}
	folded := 0
	for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\r\n"), "\r\n") {
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("line %d has a bare CR or LF: %q", i+1, line)
		}
		if len(line) > 75 {
			t.Errorf("line %d is %d octets: %q", i+1, len(line), line)
		}
		if strings.HasPrefix(line, " ") {
			folded++
		}
	}
	if folded == 0 {
		t.Errorf("no folded line in a file with long text")
	}
}

// TestCalendarICS_NamesAreCaseInsensitive: RFC 5545 3.1; ical.net's
// Microsoft Events file writes BEGIN:vCalendar and vEvent.
func TestCalendarICS_NamesAreCaseInsensitive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		name := "icalnet_lowercase_components.ics"
		importFixture(t, r, name, "m", 1)
		startsLikePython(t, r, name, "m", "2007-01-01", "2008-01-01")
	})
}
