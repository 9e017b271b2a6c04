package cron

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// fakeHost records what the scheduler asks of the server.
type fakeHost struct {
	mu        sync.Mutex
	notes     []map[string]any
	calls     []map[string]any
	levels    map[string]tool.Level // "tool action" -> level
	connected bool
}

func (h *fakeHost) Notify(level, logger string, data map[string]any) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.connected {
		h.notes = append(h.notes, data)
	}
	return h.connected
}

func (h *fakeHost) Run(ctx context.Context, name, action string, args map[string]any) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, map[string]any{"tool": name, "action": action, "args": args})
	return "ran " + name, nil
}

func (h *fakeHost) Level(name, action string, args map[string]any) (tool.Level, error) {
	l, ok := h.levels[name+" "+action]
	if !ok {
		return "", fmt.Errorf("no tool %q", name)
	}
	return l, nil
}

func (h *fakeHost) events(kind string) []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]any
	for _, n := range h.notes {
		if n["event"] == kind {
			out = append(out, n)
		}
	}
	return out
}

// rig is a cron tool on a store, with a clock the test moves.
type rig struct {
	c    *crontool
	t    tool.Tool
	host *fakeHost
	at   time.Time
	mu   sync.Mutex
}

// start is where the clock of most tests begins: Wednesday 2026-03-04 10:00 UTC.
var start = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

func newRig(t *testing.T, d *tool.Deps, start time.Time) *rig {
	t.Helper()
	c, tl, err := lifecycle.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{c: c, t: tl, at: start, host: &fakeHost{connected: true, levels: map[string]tool.Level{
		"notify send": tool.High, "weather current": tool.Read, "email send": tool.High}}}
	c.now = func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.at }
	tl.Attach(r.host)
	return r
}

func (r *rig) set(t time.Time) { r.mu.Lock(); r.at = t; r.mu.Unlock() }

func (r *rig) call(t *testing.T, args map[string]any) (*tool.Result, error) {
	t.Helper()
	return tooltest.Run(t, r.t, args)
}

func (r *rig) mustCall(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.MustRun(t, r.t, args)
}

// tick runs one scheduler pass and waits for the runs it started.
func (r *rig) tick(t *testing.T) {
	s := &scheduler{c: r.c, host: r.host}
	s.tick(t.Context(), r.c.now())
	s.wg.Wait()
}

func TestCronPhrase_ZhAndEnBecomeSchedules(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, sh) // a Wednesday
	for _, tc := range []struct{ in, want string }{
		{"每天早上八点", "0 8 * * *"},
		{"每天晚上九点半", "30 21 * * *"},
		{"每天下午3点15分", "15 15 * * *"},
		{"每天中午十二点", "0 12 * * *"},
		{"每周一上午9点", "0 9 * * 1"},
		{"每星期日晚上8点", "0 20 * * 0"},
		{"每个工作日早上七点二十", "20 7 * * 1-5"},
		{"每30分钟", "@every 30m"},
		{"每小时", "@every 1h"},
		{"每隔两小时", "@every 2h"},
		{"明天下午三点", "2026-03-05T15:00:00+08:00"},
		{"10分钟后", "2026-03-04T10:10:00+08:00"},
		{"every day at 8", "0 8 * * *"},
		{"every day at 8:30pm", "30 20 * * *"},
		{"every Monday at 9", "0 9 * * 1"},
		{"every weekday at 9:15", "15 9 * * 1-5"},
		{"every friday evening at 6", "0 18 * * 5"},
		{"every 30 minutes", "@every 30m"},
		{"every hour", "@every 1h"},
		{"at 7am every day", "0 7 * * *"},
		{"tomorrow at 15:00", "2026-03-05T15:00:00+08:00"},
		{"in 2 hours", "2026-03-04T12:00:00+08:00"},
		{"every day at noon", "0 12 * * *"},
	} {
		got, err := fromPhrase(tc.in, now, sh)
		if err != nil || got != tc.want {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
			continue
		}
		if _, err := parseSpec(got); err != nil {
			t.Errorf("%q gave %q, which does not parse: %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"每天二十五点", "every funday at 9", "at some point", "每天", "today at 9", "every day at 13pm", "明天下午"} {
		if got, err := fromPhrase(bad, now, sh); err == nil {
			t.Errorf("%q was read as %q; want an error", bad, got)
		}
	}
}

func TestCronSpec_ParsesEveryFormAndNamesBadOnes(t *testing.T) {
	for _, ok := range []string{"0 8 * * *", "*/5 * * * 1-5", "@daily", "@every 90s", "@every 1h30m", "2026-05-01T09:00:00+08:00"} {
		if _, err := parseSpec(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0 8 * *", "61 * * * *", "@every 0s", "@every 1.5s", "@every banana", "CRON_TZ=UTC 0 8 * * *", "0 0 8 * * *", "2026-13-01T00:00:00Z"} {
		if _, err := parseSpec(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestCronDST_: cron fields are wall-clock times in the zone, across both
// daylight-saving changes: 02:30 does not exist on the spring-forward day
// (that day has no run at 02:30), 01:30 happens twice on the fall-back day
// (one run), and 08:00 stays 08:00 local on both sides.
func TestCronDST_WallClockAcrossTransitions(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	next := func(spec string, from time.Time, n int) []string {
		s, err := parseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		at := from
		for range n {
			at = s.next(at, from, ny)
			out = append(out, at.In(ny).Format("2006-01-02 15:04 MST"))
		}
		return out
	}
	eq := func(got []string, want ...string) {
		t.Helper()
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("got  %v\nwant %v", got, want)
		}
	}
	spring := time.Date(2026, 3, 7, 12, 0, 0, 0, ny) // DST starts 2026-03-08 02:00
	eq(next("0 8 * * *", spring, 3), "2026-03-08 08:00 EDT", "2026-03-09 08:00 EDT", "2026-03-10 08:00 EDT")
	// robfig skips a wall time that does not exist that day.
	eq(next("30 2 * * *", spring, 2), "2026-03-09 02:30 EDT", "2026-03-10 02:30 EDT")
	fall := time.Date(2026, 10, 31, 12, 0, 0, 0, ny) // DST ends 2026-11-01 02:00
	eq(next("30 1 * * *", fall, 2), "2026-11-01 01:30 EDT", "2026-11-02 01:30 EST")
	eq(next("0 8 * * *", fall, 2), "2026-11-01 08:00 EST", "2026-11-02 08:00 EST")
	// @every is elapsed time, not wall time: 1h steps cross the change evenly.
	s, _ := parseSpec("@every 1h")
	at := time.Date(2026, 11, 1, 0, 30, 0, 0, ny)
	a := s.next(at, at, ny)
	b := s.next(a, at, ny)
	if b.Sub(a) != time.Hour || a.In(ny).Format("15:04 MST") != "01:30 EDT" || b.In(ny).Format("15:04 MST") != "01:30 EST" {
		t.Errorf("@every 1h across fall-back: %s, %s", a.In(ny), b.In(ny))
	}
	// A phrase's one-off on the spring-forward day at a time that does not exist moves on.
	got, err := dayAt(time.Date(2026, 3, 7, 12, 0, 0, 0, ny), ny, 1, 2, 30)
	if err != nil || got != "2026-03-08T03:30:00-04:00" {
		t.Errorf("tomorrow at 2:30 across spring-forward = %s, %v", got, err)
	}
}

func TestCronAdd_BadInputNamesTheFieldAndWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		for _, tc := range []struct {
			field string
			args  map[string]any
		}{
			{"message", map[string]any{"action": "add", "schedule": "0 8 * * *"}},
			{"message", map[string]any{"action": "add", "schedule": "0 8 * * *", "message": "  "}},
			{"schedule", map[string]any{"action": "add", "message": "x"}},
			{"schedule", map[string]any{"action": "add", "message": "x", "schedule": "0 8 * *"}},
			{"schedule", map[string]any{"action": "add", "message": "x", "schedule": "0 8 * *", "phrase": "every day at 8"}},
			{"schedule", map[string]any{"action": "add", "message": "x", "schedule": "2020-01-01T00:00:00Z"}},
			{"phrase", map[string]any{"action": "add", "message": "x", "phrase": "whenever"}},
			{"tool", map[string]any{"action": "add", "message": "x", "schedule": "@every 1m", "tool": "nosuch"}},
			{"tool", map[string]any{"action": "add", "message": "x", "schedule": "@every 1m", "tool": "cron"}},
			{"tool", map[string]any{"action": "add", "message": "x", "schedule": "@every 1m", "tool_action": "send"}},
			{"id", map[string]any{"action": "pause", "id": "jnope"}},
			{"id", map[string]any{"action": "remove", "id": "jnope"}},
			{"id", map[string]any{"action": "restore", "id": "jnope"}},
		} {
			_, err := r.call(t, tc.args)
			want := tool.CodeInvalid
			if tc.field == "id" { // an id no job has
				want = tool.CodeNotFound
			}
			te := tooltest.ToolError(t, err, want)
			if te.Field != tc.field {
				t.Errorf("%v: field %q, want %q (%v)", tc.args, te.Field, tc.field, te)
			}
		}
		if n := tooltest.Count(t, d, `SELECT COUNT(*) FROM cron_jobs`); n != 0 {
			t.Fatalf("%d jobs written by refused calls", n)
		}
	})
}

func TestCronAdd_LevelIsHighOnlyForAHighToolCall(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, time.Now())
		for _, tc := range []struct {
			args map[string]any
			want tool.Level
		}{
			{map[string]any{"message": "x", "schedule": "@every 1m"}, tool.Write},
			{map[string]any{"message": "x", "schedule": "@every 1m", "tool": "weather", "tool_action": "current"}, tool.Read},
			{map[string]any{"message": "x", "schedule": "@every 1m", "tool": "notify", "tool_action": "send", "args": map[string]any{"text": "hi"}}, tool.High},
		} {
			if got := r.t.LevelOf(tool.NewCall("add", tc.args)); got != tc.want {
				t.Errorf("%v: level %s, want %s", tc.args, got, tc.want)
			}
		}
		if got := r.t.LevelOf(tool.NewCall("list", nil)); got != tool.Read {
			t.Errorf("list: %s", got)
		}
	})
}

func TestCronScheduler_FiresRecordsAndPassesTheIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		add := r.mustCall(t, map[string]any{"action": "add", "schedule": "@every 1m", "message": "stretch", "tool": "notify", "tool_action": "send", "args": map[string]any{"text": "stand up"}})
		id := add["id"].(string)
		if nr := add["next_runs"].([]string); nr[0] != "2026-03-04T10:01:00Z" || nr[1] != "2026-03-04T10:02:00Z" {
			t.Fatalf("next runs %v", nr)
		}
		r.tick(t) // not due
		if len(r.host.calls) != 0 {
			t.Fatal("ran before its time")
		}
		r.set(start.Add(time.Minute + 200*time.Millisecond))
		r.tick(t)
		r.tick(t) // the same scheduled time again: nothing more
		if len(r.host.calls) != 1 {
			t.Fatalf("%d calls, want 1", len(r.host.calls))
		}
		args := r.host.calls[0]["args"].(map[string]any)
		if args["idempotency_key"] != "cron:"+id+":2026-03-04T10:01:00Z" || args["text"] != "stand up" {
			t.Fatalf("call args %v", args)
		}
		fired := r.host.events("cron_fired")
		if len(fired) != 1 || fired[0]["message"] != "stretch" || fired[0]["outcome"] != "ok" {
			t.Fatalf("notifications %v", r.host.notes)
		}
		h := r.mustCall(t, map[string]any{"action": "history", "id": id})["runs"].([]map[string]any)
		if len(h) != 1 || h[0]["outcome"] != "ok" || h[0]["scheduled"] != "2026-03-04T10:01:00Z" {
			t.Fatalf("history %v", h)
		}
		if n := tooltest.Count(t, d, `SELECT COUNT(*) FROM cron_leases`); n != 0 {
			t.Fatalf("%d leases left after the run", n)
		}
	})
}

func TestCronScheduler_PauseResumeSkipsTimesPassedWhilePaused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		id := r.mustCall(t, map[string]any{"action": "add", "schedule": "*/5 * * * *", "message": "m"})["id"].(string)
		r.mustCall(t, map[string]any{"action": "pause", "id": id})
		r.set(start.Add(12 * time.Minute))
		r.tick(t)
		if n := len(r.host.events("cron_fired")); n != 0 {
			t.Fatal("a paused job fired")
		}
		v := r.mustCall(t, map[string]any{"action": "resume", "id": id})
		if v["next_runs"].([]string)[0] != "2026-03-04T10:15:00Z" {
			t.Fatalf("resumed next %v", v["next_runs"])
		}
		r.tick(t)
		if len(r.host.events("cron_fired")) != 0 || len(r.host.events("cron_missed")) != 0 {
			t.Fatalf("resume replayed paused times: %v", r.host.notes)
		}
	})
}

// TestCronRestart_MissedRunsReportedOnceNotReplayed: a job whose times
// passed while no process ran is recorded as one missed run with the
// count, reported to the first connected session once, and goes on from
// the next time after now.
func TestCronRestart_MissedRunsReportedOnceNotReplayed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		id := r.mustCall(t, map[string]any{"action": "add", "schedule": "*/10 * * * *", "message": "m", "tool": "weather", "tool_action": "current"})["id"].(string)

		// "Restart" an hour later: a new tool on the same store, no session yet.
		r2 := newRig(t, d, start.Add(time.Hour+5*time.Minute))
		r2.host.connected = false
		r2.tick(t)
		r2.tick(t)
		if len(r2.host.calls) != 0 {
			t.Fatalf("missed runs were replayed: %v", r2.host.calls)
		}
		r2.host.connected = true
		r2.tick(t)
		r2.tick(t)
		m := r2.host.events("cron_missed")
		if len(m) != 1 || m[0]["missed"] != 6 || m[0]["first_missed"] != "2026-03-04T10:10:00Z" {
			t.Fatalf("missed reports %v", r2.host.notes)
		}
		jobs := r2.mustCall(t, map[string]any{"action": "list"})["jobs"].([]map[string]any)
		if len(jobs) != 1 || jobs[0]["id"] != id || jobs[0]["next_runs"].([]string)[0] != "2026-03-04T11:10:00Z" {
			t.Fatalf("after restart %v", jobs)
		}
	})
}

// TestCronLease_TwoProcessesRunEachTimeOnce: two schedulers on one store
// (as two server processes sharing a data dir), ticking together many
// times, run each scheduled time once between them.
func TestCronLease_TwoProcessesRunEachTimeOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		a := newRig(t, d, start)
		a.mustCall(t, map[string]any{"action": "add", "schedule": "@every 1m", "message": "m", "tool": "weather", "tool_action": "current"})
		d2 := *d
		d2.Store = db.Open(t) // the second process's own handle
		b := newRig(t, &d2, start)
		for i := 1; i <= 5; i++ {
			at := start.Add(time.Duration(i)*time.Minute + time.Second)
			a.set(at)
			b.set(at)
			var wg sync.WaitGroup
			for _, r := range []*rig{a, b, a, b} {
				wg.Add(1)
				go func() { defer wg.Done(); r.tick(t) }()
			}
			wg.Wait()
		}
		if n := len(a.host.calls) + len(b.host.calls); n != 5 {
			t.Fatalf("%d runs for 5 scheduled times (a %d, b %d)", n, len(a.host.calls), len(b.host.calls))
		}
		if n := tooltest.Count(t, d, `SELECT COUNT(*) FROM cron_runs WHERE outcome = 'ok'`); n != 5 {
			t.Fatalf("%d ok runs recorded", n)
		}
	})
}

func TestCronLease_HeldLeaseBlocksUntilItExpires(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		id := r.mustCall(t, map[string]any{"action": "add", "schedule": "@every 1m", "message": "m"})["id"].(string)
		// Another process holds the job (it died while running it).
		if _, err := d.Store.DB().Exec(`INSERT INTO cron_leases (job_id, owner, expires_at) VALUES ($1, 'other', $2)`, id, start.Add(3*time.Minute).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		r.set(start.Add(time.Minute + time.Second))
		r.tick(t)
		if len(r.host.events("cron_fired")) != 0 {
			t.Fatal("ran under another process's lease")
		}
		r.set(start.Add(3*time.Minute + 2*time.Second)) // expired; the 10:01 time is now missed, 10:03 due
		r.tick(t)
		if len(r.host.events("cron_fired")) != 0 || len(r.host.events("cron_missed")) != 1 {
			t.Fatalf("after expiry: %v", r.host.notes)
		}
	})
}

func TestCronOnce_RunsOnceThenHasNoNextRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		r.mustCall(t, map[string]any{"action": "add", "schedule": "2026-03-04T18:30:00+08:00", "message": "call mum"})
		r.set(start.Add(30*time.Minute + time.Second))
		r.tick(t)
		r.set(start.Add(2 * time.Hour))
		r.tick(t)
		if n := len(r.host.events("cron_fired")); n != 1 {
			t.Fatalf("fired %d times", n)
		}
		jobs := r.mustCall(t, map[string]any{"action": "list"})["jobs"].([]map[string]any)
		if jobs[0]["next_runs"].([]string)[0] != "none" {
			t.Fatalf("a one-off still has a next run: %v", jobs[0]["next_runs"])
		}
	})
}

func TestCronTrash_RemoveAndRestore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.DepsOn(t, db)
		r := newRig(t, d, start)
		id := r.mustCall(t, map[string]any{"action": "add", "phrase": "every Monday at 9", "message": "standup"})["id"].(string)
		r.mustCall(t, map[string]any{"action": "remove", "id": id})
		if n := tooltest.Count(t, d, `SELECT COUNT(*) FROM cron_jobs`); n != 0 {
			t.Fatal("remove kept the job")
		}
		v := r.mustCall(t, map[string]any{"action": "restore", "id": id})
		if v["schedule"] != "0 9 * * 1" || v["message"] != "standup" || v["next_runs"].([]string)[0] != "2026-03-09T09:00:00Z" {
			t.Fatalf("restored %v", v)
		}
		md := r.mustCall(t, map[string]any{"action": "export"})["markdown"].(string)
		if !strings.Contains(md, "`0 9 * * 1`") || !strings.Contains(md, "standup") {
			t.Fatalf("export:\n%s", md)
		}
	})
}
