package education

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newRigIn(t *testing.T, zone string) *rig {
	t.Helper()
	return newRigAt(t, storetest.SQLite(t), zone, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
}

func topics(kv ...any) []any {
	var out []any
	for i := 0; i < len(kv); i += 2 {
		out = append(out, map[string]any{"name": kv[i], "minutes": kv[i+1]})
	}
	return out
}

// sessions flattens a plan to "date topic minutes part start" lines.
func sessions(t *testing.T, data map[string]any) []string {
	t.Helper()
	var out []string
	for _, d := range data["days"].([]planDay) {
		sum := 0
		for _, s := range d.Sessions {
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s %d %s %s", d.Date, s.Topic, s.Minutes, s.Start, s.Part)))
			sum += s.Minutes
		}
		if sum != d.Minutes || sum > data["daily_minutes"].(int) {
			t.Fatalf("%s: %d minutes, over the budget or not the day's total %d", d.Date, sum, d.Minutes)
		}
	}
	return out
}

// TestStudyPlan_BudgetOrderAndSplit: topics in order, no day over its
// budget, a long topic continued the next day as parts, sessions back to
// back from start_time in the zone; with split off a topic moves whole.
func TestStudyPlan_BudgetOrderAndSplit(t *testing.T) {
	r := newRig(t) // Asia/Shanghai, today 2024-05-01
	got := sessions(t, r.must(t, map[string]any{"action": "study_plan", "topics": topics("Algebra", 90, "Geometry", 30, "Probability", 45), "daily_minutes": 60}))
	want := []string{
		"2024-05-01 Algebra 60 2024-05-01T19:00:00+08:00 1/2",
		"2024-05-02 Algebra 30 2024-05-02T19:00:00+08:00 2/2",
		"2024-05-02 Geometry 30 2024-05-02T19:30:00+08:00",
		"2024-05-03 Probability 45 2024-05-03T19:00:00+08:00",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = sessions(t, r.must(t, map[string]any{"action": "study_plan", "topics": topics("A", 40, "B", 30, "C", 20), "daily_minutes": 60,
		"split": false, "start_date": "2024-06-07", "start_time": "08:30", "weekdays": []any{"mon", "fri"}}))
	want = []string{ // 06-07 is a Friday; B does not fit the 20 minutes left, so waits for Monday
		"2024-06-07 A 40 2024-06-07T08:30:00+08:00",
		"2024-06-10 B 30 2024-06-10T08:30:00+08:00",
		"2024-06-10 C 20 2024-06-10T09:00:00+08:00",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("split off: got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStudyPlanICS_DSTParsedBackWithGolangICal: a plan across New York's
// spring-forward keeps 19:00 local each day; the .ics, written through the
// calendar package and parsed back with golang-ical, has one event per
// session at those instants with the zone's TZID and a VTIMEZONE.
func TestStudyPlanICS_DSTParsedBackWithGolangICal(t *testing.T) {
	r := newRigIn(t, "America/New_York")
	res, err := tooltest.Run(t, r.t, map[string]any{"action": "study_plan", "topics": topics("Essay", 100, "Vocab", 20), "daily_minutes": 40,
		"start_date": "2025-03-08", "export_ics": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || !strings.HasSuffix(res.Files[0].Path, ".ics") {
		t.Fatalf("files %v", res.Files)
	}
	b := tooltest.ReadFile(t, res.Files[0].Path)
	cal, err := ics.ParseCalendar(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	ny, _ := time.LoadLocation("America/New_York")
	want := []struct {
		title      string
		start, end time.Time
	}{ // 03-08 is EST (−5), 03-09 on EDT (−4)
		{"Study: Essay (1/3)", time.Date(2025, 3, 8, 19, 0, 0, 0, ny), time.Date(2025, 3, 8, 19, 40, 0, 0, ny)},
		{"Study: Essay (2/3)", time.Date(2025, 3, 9, 19, 0, 0, 0, ny), time.Date(2025, 3, 9, 19, 40, 0, 0, ny)},
		{"Study: Essay (3/3)", time.Date(2025, 3, 10, 19, 0, 0, 0, ny), time.Date(2025, 3, 10, 19, 20, 0, 0, ny)},
		{"Study: Vocab", time.Date(2025, 3, 10, 19, 20, 0, 0, ny), time.Date(2025, 3, 10, 19, 40, 0, 0, ny)},
	}
	evs := cal.Events()
	if len(evs) != len(want) {
		t.Fatalf("%d events:\n%s", len(evs), b)
	}
	if got := want[1].start.Sub(want[0].start); got != 23*time.Hour {
		t.Fatalf("test premise: %v between the first two sessions", got)
	}
	uids := map[string]bool{}
	for i, e := range evs {
		st, err1 := e.GetStartAt()
		en, err2 := e.GetEndAt()
		if err1 != nil || err2 != nil || !st.Equal(want[i].start) || !en.Equal(want[i].end) || e.GetProperty(ics.ComponentPropertySummary).Value != want[i].title {
			t.Fatalf("event %d: %v–%v %q (%v %v), want %+v", i, st, en, e.GetProperty(ics.ComponentPropertySummary).Value, err1, err2, want[i])
		}
		if tz := e.GetProperty(ics.ComponentPropertyDtStart).ICalParameters["TZID"]; len(tz) != 1 || tz[0] != "America/New_York" {
			t.Fatalf("event %d TZID %v", i, tz)
		}
		uids[e.Id()] = true
	}
	if len(uids) != len(evs) {
		t.Fatal("UIDs repeat")
	}
	if !strings.Contains(string(b), "BEGIN:VTIMEZONE") || !strings.Contains(string(b), "TZOFFSETTO:-0400") {
		t.Fatalf("no VTIMEZONE with the DST offset:\n%s", b)
	}
	if res.Data.(map[string]any)["path"] == nil {
		t.Fatal("no path in the result")
	}
	// RFC 5545 3.1: content lines end in CRLF and are at most 75 octets.
	if !strings.HasSuffix(string(b), "\r\n") {
		t.Fatal("the file does not end in CRLF")
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n") {
		if strings.ContainsAny(line, "\r\n") || len(line) > 75 {
			t.Fatalf("line %d: %q (a bare LF or CR, or over 75 octets)", i+1, line)
		}
	}
}

// TestStudyPlanBadInput_NamesFieldWritesNothing.
func TestStudyPlanBadInput_NamesFieldWritesNothing(t *testing.T) {
	r := newRig(t)
	ok := topics("A", 30)
	for _, tc := range []struct {
		name  string
		args  map[string]any
		field string
	}{
		{"missing topics", map[string]any{}, "topics"},
		{"empty topics", map[string]any{"topics": []any{}}, "topics"},
		{"nameless", map[string]any{"topics": topics(" ", 30)}, "topics[0].name"},
		{"no minutes", map[string]any{"topics": []any{map[string]any{"name": "A"}}}, "minutes"},
		{"zero minutes", map[string]any{"topics": topics("A", 30, "B", 0)}, "topics[1].minutes"},
		{"budget", map[string]any{"topics": ok, "daily_minutes": 0}, "daily_minutes"},
		{"past midnight", map[string]any{"topics": ok, "daily_minutes": 120, "start_time": "23:00"}, "daily_minutes"},
		{"date", map[string]any{"topics": ok, "start_date": "2024-13-01"}, "start_date"},
		{"time", map[string]any{"topics": ok, "start_time": "7pm"}, "start_time"},
		{"weekday", map[string]any{"topics": ok, "weekdays": []any{"funday"}}, "weekdays"},
		{"days", map[string]any{"topics": ok, "days": 400}, "days"},
		{"does not fit", map[string]any{"topics": topics("A", 300), "daily_minutes": 60, "days": 4, "export_ics": true}, "days"},
		{"too big unsplit", map[string]any{"topics": topics("A", 90), "daily_minutes": 60, "split": false}, "topics[0].minutes"},
	} {
		tc.args["action"] = "study_plan"
		_, err := tooltest.Run(t, r.t, tc.args)
		if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Field+" "+te.Message, tc.field) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.field)
		}
	}
	if m, _ := os.ReadDir(r.d.Sandbox.Root() + "/outputs"); len(m) != 0 {
		t.Fatalf("files written: %v", m)
	}
}
