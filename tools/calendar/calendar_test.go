package calendar

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type rig struct {
	c *caltool
	t tool.Tool
	d *tool.Deps
}

// newRig is a calendar in zone tz whose clock reads now.
func newRig(t *testing.T, db *storetest.DB, tz string, now time.Time) *rig {
	t.Helper()
	c, tl, d := tooltest.Records(t, db, lifecycle, tz)
	c.now = func() time.Time { return now }
	return &rig{c: c, t: tl, d: d}
}

func (r *rig) call(t *testing.T, args map[string]any) (map[string]any, error) {
	t.Helper()
	res, err := tooltest.Run(t, r.t, args)
	if err != nil {
		return nil, err
	}
	m, _ := res.Data.(map[string]any)
	return m, nil
}

func (r *rig) must(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.MustRun(t, r.t, args)
}

func (r *rig) rows(t *testing.T) int {
	t.Helper()
	return tooltest.Count(t, r.d, `SELECT COUNT(*) FROM calendar_events`)
}

// starts lists the start of each event a query returns.
func starts(m map[string]any) []string {
	var out []string
	for _, e := range m["events"].([]map[string]any) {
		out = append(out, e["start"].(string))
	}
	return out
}

func fixture(t *testing.T, r *rig, name string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	raw := tooltest.ReadFile(t, filepath.Join(filepath.Dir(here), "..", "..", "fixtures", "calendar", name))
	tooltest.WriteFile(t, filepath.Join(r.d.Sandbox.Root(), name), raw)
	return name
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %v\n want %v", what, got, want)
	}
}

var mar2026 = time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC) // a Wednesday

func TestCalendarQuery_DayAndWeekWordsInTheZone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", time.Date(2026, 3, 4, 20, 0, 0, 0, time.UTC)) // already Thursday 04:00 in Shanghai
		r.must(t, map[string]any{"action": "create", "title": "dentist", "start": "2026-03-06T10:00", "duration_minutes": 45})
		r.must(t, map[string]any{"action": "create", "title": "standup", "start": "2026-03-09T09:30", "rrule": "FREQ=DAILY;COUNT=5"})
		eq(t, "tomorrow", starts(r.must(t, map[string]any{"action": "query", "from": "tomorrow"})), []string{"2026-03-06T10:00:00+08:00"})
		eq(t, "明天", starts(r.must(t, map[string]any{"action": "query", "from": "明天"})), []string{"2026-03-06T10:00:00+08:00"})
		eq(t, "next monday", starts(r.must(t, map[string]any{"action": "query", "from": "next monday"})), []string{"2026-03-09T09:30:00+08:00"})
		eq(t, "下周", len(starts(r.must(t, map[string]any{"action": "query", "from": "下周"}))), 5)
		eq(t, "this week", starts(r.must(t, map[string]any{"action": "query", "from": "this week"})), []string{"2026-03-06T10:00:00+08:00"})
		eq(t, "today", starts(r.must(t, map[string]any{"action": "query", "from": "today"})), []string(nil))
	})
}

// TestCalendarDST_: a series keeps its wall time across both changes, a
// local time the clocks skip is refused naming the field, and working
// hours on a DST day are still 09:00 to 18:00 local.
func TestCalendarDST_SeriesKeepWallTimeAndGapsAreRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "America/New_York", mar2026)
		r.must(t, map[string]any{"action": "create", "title": "gym", "start": "2026-03-06T07:00", "rrule": "FREQ=DAILY;COUNT=4"})
		got := r.must(t, map[string]any{"action": "query", "from": "2026-03-06", "to": "2026-03-10"})
		eq(t, "across spring-forward", starts(got), []string{"2026-03-06T07:00:00-05:00", "2026-03-07T07:00:00-05:00", "2026-03-08T07:00:00-04:00", "2026-03-09T07:00:00-04:00"})

		r.must(t, map[string]any{"action": "create", "title": "late", "start": "2026-10-31T01:30", "rrule": "FREQ=DAILY;COUNT=3", "calendar": "fall"})
		got = r.must(t, map[string]any{"action": "query", "from": "2026-10-31", "to": "2026-11-03", "calendars": []any{"fall"}})
		eq(t, "across fall-back", starts(got), []string{"2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"})

		_, err := r.call(t, map[string]any{"action": "create", "title": "x", "start": "2026-03-08T02:30"})
		te := tooltest.ToolError(t, err, tool.CodeInvalid)
		if te.Field != "start" || !strings.Contains(te.Message, "does not exist in America/New_York") {
			t.Fatalf("gap: %v", te)
		}

		slots := r.must(t, map[string]any{"action": "free_slots", "from": "2026-03-09", "duration_minutes": 60, "calendars": []any{"none"}})["slots"].([]map[string]any)
		eq(t, "DST-day working hours", []any{slots[0]["start"], slots[0]["end"], slots[0]["minutes"]}, []any{"2026-03-09T09:00:00-04:00", "2026-03-09T18:00:00-04:00", 540})
		// The fall-back day is 25 hours long; working hours are still 9.
		slots = r.must(t, map[string]any{"action": "free_slots", "from": "2026-11-02", "duration_minutes": 60, "calendars": []any{"none"}})["slots"].([]map[string]any)
		eq(t, "after fall-back", slots[0]["minutes"], 540)
	})
}

func TestCalendarFreeSlots_AcrossCalendarsWithinWorkingHours(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Europe/Berlin", mar2026)
		r.must(t, map[string]any{"action": "create", "title": "a", "start": "2026-03-05T08:00", "end": "2026-03-05T10:00", "calendar": "work"})
		r.must(t, map[string]any{"action": "create", "title": "b", "start": "2026-03-05T11:00", "end": "2026-03-05T11:30", "calendar": "home"})
		r.must(t, map[string]any{"action": "create", "title": "c", "start": "2026-03-05T11:15", "end": "2026-03-05T12:45", "calendar": "work"})
		r.must(t, map[string]any{"action": "create", "title": "lunch?", "start": "2026-03-05T13:00", "end": "2026-03-05T17:00", "calendar": "ideas"})
		slots := func(cals []any, minutes int, from, to string) []string {
			args := map[string]any{"action": "free_slots", "from": from, "to": to, "duration_minutes": minutes}
			if cals != nil {
				args["calendars"] = cals
			}
			var out []string
			for _, s := range r.must(t, args)["slots"].([]map[string]any) {
				out = append(out, s["start"].(string)[11:16]+"-"+s["end"].(string)[11:16])
			}
			return out
		}
		eq(t, "work+home", slots([]any{"work", "home"}, 30, "2026-03-05", "2026-03-05"), []string{"10:00-11:00", "12:45-18:00"})
		eq(t, "all calendars", slots(nil, 15, "2026-03-05", "2026-03-05"), []string{"10:00-11:00", "12:45-13:00", "17:00-18:00"})
		eq(t, "a 15-minute gap is too short for 30", slots(nil, 30, "2026-03-05", "2026-03-05"), []string{"10:00-11:00", "17:00-18:00"})
		eq(t, "60 minutes", slots(nil, 60, "2026-03-05T00:00", "2026-03-06T00:00"), []string{"10:00-11:00", "17:00-18:00"})
		// Saturday and Sunday are not working days by default.
		eq(t, "weekend", slots(nil, 30, "2026-03-07", "2026-03-08"), []string(nil))
	})
}

func TestCalendarRecurring_ExceptionsAndChangedOccurrences(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", mar2026)
		id := r.must(t, map[string]any{"action": "create", "title": "review", "start": "2026-03-09T15:00", "duration_minutes": 60,
			"rrule": "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6"})["id"].(string)
		r.must(t, map[string]any{"action": "delete", "id": id, "occurrence": "2026-03-11T15:00"})
		r.must(t, map[string]any{"action": "update", "id": id, "occurrence": "2026-03-16T15:00", "start": "2026-03-16T17:00", "title": "review (moved)"})
		got := r.must(t, map[string]any{"action": "query", "from": "2026-03-09", "to": "2026-03-30"})
		eq(t, "instances", starts(got), []string{"2026-03-09T15:00:00+08:00", "2026-03-16T17:00:00+08:00", "2026-03-18T15:00:00+08:00",
			"2026-03-23T15:00:00+08:00", "2026-03-25T15:00:00+08:00"})
		moved := got["events"].([]map[string]any)[1]
		eq(t, "moved occurrence", []any{moved["title"], moved["occurrence"]}, []any{"review (moved)", "2026-03-16T15:00:00+08:00"})
		// The series' own change leaves the moved occurrence as it is.
		r.must(t, map[string]any{"action": "update", "id": id, "location": "room 2"})
		got = r.must(t, map[string]any{"action": "query", "from": "2026-03-16", "to": "2026-03-17"})
		eq(t, "after series update", starts(got), []string{"2026-03-16T17:00:00+08:00"})

		_, err := r.call(t, map[string]any{"action": "delete", "id": id, "occurrence": "2026-03-10T15:00"})
		if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "occurrence" {
			t.Fatalf("a day that is not an occurrence: %v", te)
		}
	})
}

func TestCalendarTrash_DeleteAndRestoreASeriesWithItsChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "UTC", mar2026)
		id := r.must(t, map[string]any{"action": "create", "title": "yoga", "start": "2026-03-05T18:00", "rrule": "FREQ=WEEKLY;COUNT=3"})["id"].(string)
		r.must(t, map[string]any{"action": "update", "id": id, "occurrence": "2026-03-12T18:00", "start": "2026-03-12T19:00"})
		r.must(t, map[string]any{"action": "delete", "id": id})
		if n := r.rows(t); n != 0 {
			t.Fatalf("%d rows left after delete", n)
		}
		r.must(t, map[string]any{"action": "restore", "id": id})
		eq(t, "restored", starts(r.must(t, map[string]any{"action": "query", "from": "2026-03-01", "to": "2026-03-31"})),
			[]string{"2026-03-05T18:00:00Z", "2026-03-12T19:00:00Z", "2026-03-19T18:00:00Z"})
	})
}

func TestCalendarBadInput_NamesTheFieldAndWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", mar2026)
		id := r.must(t, map[string]any{"action": "create", "title": "keep", "start": "2026-03-05T10:00"})["id"].(string)
		tooltest.WriteFile(t, filepath.Join(r.d.Sandbox.Root(), "bad.ics"), []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260301T100000Z\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\n"+
			"BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:no start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
		for _, tc := range []struct {
			field string
			args  map[string]any
		}{
			{"title", map[string]any{"action": "create", "start": "2026-03-05T10:00"}},
			{"title", map[string]any{"action": "create", "title": " ", "start": "2026-03-05T10:00"}},
			{"start", map[string]any{"action": "create", "title": "x"}},
			{"start", map[string]any{"action": "create", "title": "x", "start": "next blursday"}},
			{"start", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "all_day": true}},
			{"end", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "end": "2026-03-05T09:00"}},
			{"end", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "end": "2026-03-05T11:00", "duration_minutes": 5}},
			{"duration_minutes", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "duration_minutes": 0}},
			{"timezone", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "timezone": "Mars/Olympus"}},
			{"rrule", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "rrule": "FREQ=SOMETIMES"}},
			{"exdates", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "exdates": []any{"2026-03-06T10:00"}}},
			{"calendar", map[string]any{"action": "create", "title": "x", "start": "2026-03-05T10:00", "calendar": " "}},
			{"id", map[string]any{"action": "update", "id": "enope", "title": "y"}},
			{"id", map[string]any{"action": "delete", "id": "enope"}},
			{"id", map[string]any{"action": "restore", "id": id}},
			{"occurrence", map[string]any{"action": "update", "id": id, "occurrence": "2026-03-05T10:00", "title": "y"}},
			{"end", map[string]any{"action": "update", "id": id, "end": "2026-03-05T09:00"}},
			{"from", map[string]any{"action": "query"}},
			{"from", map[string]any{"action": "query", "from": "someday"}},
			{"to", map[string]any{"action": "query", "from": "2026-03-05", "to": "2026-03-04"}},
			{"duration_minutes", map[string]any{"action": "free_slots", "from": "today"}},
			{"path", map[string]any{"action": "import_ics", "path": "missing.ics"}},
			{"path", map[string]any{"action": "import_ics", "path": "bad.ics"}},
		} {
			_, err := r.call(t, tc.args)
			if err == nil {
				t.Errorf("%v was accepted", tc.args)
				continue
			}
			te, ok := tool.AsError(err)
			if !ok || te.Field != tc.field {
				t.Errorf("%v: %v (field %q), want field %q", tc.args, err, te.Field, tc.field)
			}
		}
		if n := r.rows(t); n != 1 {
			t.Fatalf("%d rows after refused calls, want the 1 kept", n)
		}
		_, err := r.call(t, map[string]any{"action": "import_ics", "path": "../outside.ics"})
		tooltest.ToolError(t, err, tool.CodeDenied)
	})
}

// TestCalendarICS_OtherProgramsImport reads files Google Calendar and
// Exchange/Outlook wrote, checking each instant exactly, and imports each
// again to show nothing is added twice.
func TestCalendarICS_OtherProgramsImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", mar2026)
		imp := func(name, cal string) map[string]any {
			return r.must(t, map[string]any{"action": "import_ics", "path": fixture(t, r, name), "calendar": cal})
		}
		utc := func(from, to string, cal string) []map[string]any {
			ev := r.must(t, map[string]any{"action": "query", "from": from, "to": to, "calendars": []any{cal}})["events"].([]map[string]any)
			return ev
		}
		inUTC := func(s string) string {
			tm, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			return tm.UTC().Format("2006-01-02T15:04Z")
		}

		eq(t, "google import", imp("google_event.ics", "g")["added"], 1)
		ev := utc("2024-09-29T00:00:00Z", "2024-09-30T00:00:00Z", "g")
		if len(ev) != 1 || inUTC(ev[0]["start"].(string)) != "2024-09-29T12:45Z" || inUTC(ev[0]["end"].(string)) != "2024-09-29T13:45Z" ||
			ev[0]["title"] != "Test Event" || ev[0]["location"] != "GitHub" || !strings.Contains(ev[0]["description"].(string), `<a href="https://github.com/arran4/golang-ical/issues/97">Issue</a>`) {
			t.Fatalf("google event %v", ev)
		}

		eq(t, "google weekly import", imp("google_weekly_zurich.ics", "z")["added"], 1)
		// 14:00 Europe/Zurich: CEST (+02:00) until 30 Oct 2016, CET after.
		var got []string
		for _, e := range utc("2016-10-27T00:00:00Z", "2016-11-03T00:00:00Z", "z") {
			got = append(got, inUTC(e["start"].(string)))
		}
		eq(t, "weekly across Zurich's DST end", got, []string{"2016-10-28T12:00Z", "2016-10-31T13:00Z", "2016-11-01T13:00Z", "2016-11-02T13:00Z"})
		z := utc("2016-10-28T00:00:00Z", "2016-10-29T00:00:00Z", "z")[0]
		eq(t, "escaped newlines", z["location"], "Roadstar 16\n12764 Happyville\nDenmark")
		eq(t, "event zone", z["event_timezone"], "Europe/Zurich")

		eq(t, "exchange import", imp("exchange2010_pacific.ics", "x")["added"], 1)
		x := utc("2017-02-24T00:00:00Z", "2017-02-26T00:00:00Z", "x")
		if len(x) != 1 || inUTC(x[0]["start"].(string)) != "2017-02-24T20:00Z" || x[0]["event_timezone"] != "America/Los_Angeles" || x[0]["title"] != "Test 4" {
			t.Fatalf("exchange event (Pacific Standard Time = America/Los_Angeles, PST) %v", x)
		}

		eq(t, "CDO import", imp("exchange_cdo_daily_custom_tz.ics", "cdo")["added"], 1)
		cdo := utc("2015-07-01T00:00:00Z", "2015-08-01T00:00:00Z", "cdo")
		got = nil
		for _, e := range cdo {
			got = append(got, inUTC(e["start"].(string))[5:])
		}
		// 10:00 at +02:00 on weekdays from Fri 3 July to the UNTIL of 22 July 08:00Z.
		eq(t, "CDO weekday series", got, []string{"07-03T08:00Z", "07-06T08:00Z", "07-07T08:00Z", "07-08T08:00Z", "07-09T08:00Z", "07-10T08:00Z",
			"07-13T08:00Z", "07-14T08:00Z", "07-15T08:00Z", "07-16T08:00Z", "07-17T08:00Z", "07-20T08:00Z", "07-21T08:00Z", "07-22T08:00Z"})

		// A zone only its VTIMEZONE defines keeps its TZID and its own rules.
		eq(t, "CDO zone", cdo[0]["event_timezone"], "GMT +0100 (Standard) / GMT +0200 (Daylight)")

		before := r.rows(t)
		for name, cal := range map[string]string{"google_event.ics": "g", "google_weekly_zurich.ics": "z", "exchange2010_pacific.ics": "x", "exchange_cdo_daily_custom_tz.ics": "cdo"} {
			if m := imp(name, cal); m["added"] != 0 || m["updated"] != 1 {
				t.Errorf("%s imported again: %v", name, m)
			}
		}
		eq(t, "rows after importing again", r.rows(t), before)
	})
}

// comparable is an event without what a store gives it (id, times of
// writing).
func comparable(e *event) event {
	c := *e
	c.ID, c.Created, c.Updated = "", 0, 0
	if len(c.Extra) == 0 {
		c.Extra = nil
	}
	return c
}

// TestCalendarICS_RoundTrip: export then import into another store gives
// the same events, field for field — zoned, UTC and all-day times, a
// series with an exception and a changed occurrence, text with the
// characters RFC 5545 escapes, and the foreign properties of an imported
// Google event — and golang-ical reads the exported file with a VTIMEZONE
// for every zone used.
func TestCalendarICS_RoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a := newRig(t, db, "Asia/Shanghai", mar2026)
		a.must(t, map[string]any{"action": "create", "title": "会议; 预算, 第二季度", "start": "2026-03-05T10:00", "duration_minutes": 90,
			"description": "line one\nline two, with comma; and semicolon \\ backslash", "location": "北京"})
		a.must(t, map[string]any{"action": "create", "title": "utc call", "start": "2026-03-06T01:00:00Z", "timezone": "UTC"})
		a.must(t, map[string]any{"action": "create", "title": "trip", "start": "2026-03-20", "end": "2026-03-22", "all_day": true})
		id := a.must(t, map[string]any{"action": "create", "title": "standup", "start": "2026-03-09T09:00", "timezone": "America/New_York",
			"rrule": "FREQ=WEEKLY;BYDAY=MO,TU;UNTIL=20260331T235959Z"})["id"].(string)
		a.must(t, map[string]any{"action": "delete", "id": id, "occurrence": "2026-03-10T09:00"})
		a.must(t, map[string]any{"action": "update", "id": id, "occurrence": "2026-03-16T09:00", "start": "2026-03-16T11:00"})
		a.must(t, map[string]any{"action": "import_ics", "path": fixture(t, a, "google_weekly_zurich.ics"), "calendar": "z"})

		// One file per calendar: an .ics file is one calendar.
		files := map[string][]byte{}
		for _, name := range []string{"personal", "z"} {
			out := a.must(t, map[string]any{"action": "export_ics", "calendars": []any{name}, "output": name + ".ics"})
			raw := tooltest.ReadFile(t, filepath.Join(a.d.Sandbox.Root(), out["path"].(string)))
			files[name] = raw
		}
		raw := append(append([]byte{}, files["personal"]...), files["z"]...)
		cal, err := ics.ParseCalendar(strings.NewReader(string(files["personal"])))
		if err != nil {
			t.Fatalf("golang-ical cannot read the export: %v", err)
		}
		tzids := map[string]bool{}
		for _, c := range cal.Components {
			if tz, ok := c.(*ics.VTimezone); ok {
				tzids[tz.GetProperty(ics.ComponentPropertyTzid).Value] = true
			}
		}
		eq(t, "VTIMEZONEs", tzids, map[string]bool{"Asia/Shanghai": true, "America/New_York": true})
		eq(t, "exported VEVENTs", len(cal.Events()), 5)

		b := newRig(t, db, "Asia/Shanghai", mar2026)
		for name, data := range files {
			tooltest.WriteFile(t, filepath.Join(b.d.Sandbox.Root(), name+".ics"), data)
			b.must(t, map[string]any{"action": "import_ics", "path": name + ".ics", "calendar": name})
		}
		want, _ := allEvents(a.d.Store.Read(), nil)
		gotAll, _ := allEvents(b.d.Store.Read(), nil)
		got := map[string]event{}
		for _, e := range gotAll {
			got[e.Calendar+"|"+e.UID+"|"+e.RecurrenceID.String()] = comparable(e)
		}
		for _, e := range want {
			w := comparable(e)
			g, ok := got[e.Calendar+"|"+e.UID+"|"+e.RecurrenceID.String()]
			if !ok {
				t.Errorf("%s (%s) did not come back", e.Title, e.UID)
				continue
			}
			eq(t, "round trip of "+e.Title, g, w)
		}
		// The Zurich event's X-APPLE-STRUCTURED-LOCATION came through with its parameters.
		if !strings.Contains(string(raw), "X-APPLE-STRUCTURED-LOCATION;") || !strings.Contains(string(raw), "X-TITLE=") {
			t.Errorf("a foreign property was lost:\n%s", raw)
		}
		// Both calendars' query answers agree.
		for from, to := range map[string]string{"2026-03-01": "2026-04-01", "2016-10-27": "2016-11-30"} {
			qa := a.must(t, map[string]any{"action": "query", "from": from, "to": to})
			qb := b.must(t, map[string]any{"action": "query", "from": from, "to": to})
			eq(t, "query from "+from, starts(qb), starts(qa))
		}
	})
}

// TestCalendarCreate_ReadsWhatQueryReads: create, update and query read
// the same days and times (tomorrow 3pm, 明天下午3点, a weekday, ISO), in
// the calendar's zone, and the summary agrees in number ("1 event").
func TestCalendarCreate_ReadsWhatQueryReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		r := newRig(t, db, "Asia/Shanghai", time.Date(2026, 3, 4, 20, 0, 0, 0, time.UTC)) // Thursday 04:00 in Shanghai
		for _, c := range []struct{ start, want string }{
			{"tomorrow 3pm", "2026-03-06T15:00:00+08:00"},
			{"明天下午3点", "2026-03-06T15:00:00+08:00"},
			{"tomorrow at 9:30 am", "2026-03-06T09:30:00+08:00"},
			{"明天上午十点半", "2026-03-06T10:30:00+08:00"},
			{"后天晚上8点", "2026-03-07T20:00:00+08:00"},
			{"monday 14:00", "2026-03-09T14:00:00+08:00"},
			{"下周一上午9点", "2026-03-09T09:00:00+08:00"},
			{"周五 15点", "2026-03-06T15:00:00+08:00"},
			{"2026-03-10 3pm", "2026-03-10T15:00:00+08:00"},
			{"2026-03-10T16:00", "2026-03-10T16:00:00+08:00"},
			{"5pm", "2026-03-05T17:00:00+08:00"},
		} {
			m := r.must(t, map[string]any{"action": "create", "title": c.start, "start": c.start})
			if m["start"] != c.want {
				t.Errorf("create start %q = %v, want %s", c.start, m["start"], c.want)
			}
			// query from the same words starts at that instant.
			if got := starts(r.must(t, map[string]any{"action": "query", "from": c.start})); len(got) == 0 || got[0] != c.want {
				t.Errorf("query from %q starts with %v, want %s", c.start, got, c.want)
			}
		}
		res := tooltest.OK(t, r.t, map[string]any{"action": "query", "from": "2026-03-10"})
		if !strings.HasPrefix(res.Summary, "2 events ") {
			t.Errorf("summary %q", res.Summary)
		}
		res, err := tooltest.Run(t, r.t, map[string]any{"action": "query", "from": "后天"})
		if err != nil || !strings.HasPrefix(res.Summary, "1 event from 2026-03-07 00:00") {
			t.Errorf("query 后天: %v %q", err, res.Summary)
		}
		// An all-day event takes a day word; a timed one refuses a bare day.
		m := r.must(t, map[string]any{"action": "create", "title": "trip", "start": "tomorrow", "all_day": true, "end": "下周一"})
		eq(t, "all-day", []any{m["start"], m["end"]}, []any{"2026-03-06", "2026-03-09"}) // the last day, inclusive
		_, err = r.call(t, map[string]any{"action": "create", "title": "x", "start": "tomorrow"})
		if te, ok := tool.AsError(err); !ok || te.Field != "start" || !strings.Contains(te.Message, "add one (tomorrow 3pm") {
			t.Errorf("bare day for a timed event: %v", err)
		}
		for _, bad := range []string{"tomorrow 25pm", "明天下午", "tomorrow 7", "monitor 3pm"} {
			if _, err := r.call(t, map[string]any{"action": "create", "title": "x", "start": bad}); err == nil {
				t.Errorf("%q was accepted", bad)
			}
		}
	})
}
