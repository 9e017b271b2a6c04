// Package cron is the `cron` tool: reminders and scheduled jobs kept in the
// store. A job has a schedule — five cron fields (robfig/cron v3 parses
// them), "@every 30m", a one-off RFC 3339 time, or a phrase in Chinese or
// English ("每天早上八点", "every Monday at 9") that the tool turns into one
// of those and echoes back — a message, and optionally a tool call (tool,
// action, arguments) to run.
//
// The scheduler loop is this package's, the server runs it (tool.Attach):
// when a job fires, connected sessions get a notifications/message through
// the server's Host and the run is recorded (time, outcome, duration,
// error). Jobs survive restarts; runs missed while no server was up are
// recorded and reported once, never replayed. Two processes on one store
// run each scheduled time once: a run row per (job, scheduled time), the
// job's next time moved in the same transaction, and a lease row with an
// expiry while it runs. Calls to email and notify carry the idempotency key
// "cron:<job>:<scheduled time>". Adding a job whose call is `high` needs
// the user's confirmation then; its runs do not ask again.
//
// Cron fields and phrases are read in tools.cron.timezone (default: the
// system's); times are stored in UTC. It does not run shell commands of its
// own, catch up on missed runs, or call the cron tool itself.
package cron

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/internal/zone"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type crontool struct {
	cfg   Config
	st    tool.Records
	loc   *time.Location
	log   zerolog.Logger
	owner string // this process, in leases and runs
	now   func() time.Time
	host  tool.Host // set by Attach; nil outside a server
}

// New builds the cron tool from the tools.cron section.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.cron section over the defaults, then
// provisions; its Build keeps the tool's state, which the tests drive.
var lifecycle = tool.Stateful[Config, *crontool]{Name: "cron", Defaults: DefaultConfig, Provision: provision}

func provision(d *tool.Deps, cfg Config) (*crontool, tool.Tool, error) {
	loc, err := d.OpenRecords("cron", cfg.Timezone, migrations...)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	c := &crontool{cfg: cfg, st: d.Store, loc: loc, log: d.Log, owner: records.NewID("p"), now: func() time.Time { return time.Now().UTC() }}
	id := tool.Param{Name: "id", Type: tool.String, Required: true, Description: "The job id (from add or list)."}
	t := tool.Tool{
		Name:  "cron",
		Title: "Cron",
		Description: "Reminders and scheduled jobs: add one with a cron expression, @every interval, one-off time or a phrase " +
			"(每天早上八点, every Monday at 9), with a message and optionally a tool call to run; list with next run times, " +
			"pause, resume, remove, history of runs. Connected sessions are notified when a job fires.",
		Actions: []tool.Action{
			{Name: "add", Description: "Add a job (needs confirmation when its tool call is high-risk).", Level: tool.High, Timeout: tool.Fast, Handler: c.add, Params: []tool.Param{
				{Name: "schedule", Type: tool.String, Description: "5 cron fields (\"0 8 * * *\"), \"@every 30m\", or a one-off RFC 3339 time (\"2026-05-01T09:00:00+08:00\")."},
				{Name: "phrase", Type: tool.String, Description: "Instead of schedule: a phrase such as \"每天早上八点\", \"每周一上午9点\", \"every Monday at 9\", \"every 30 minutes\", \"tomorrow at 15:00\"."},
				{Name: "message", Type: tool.String, Required: true, Private: true, Description: "What the reminder says when it fires."},
				{Name: "name", Type: tool.String, Description: "A short name (default: the message's start)."},
				{Name: "tool", Type: tool.String, Description: "A tool to call when the job fires."},
				{Name: "tool_action", Type: tool.String, Description: "That tool's action."},
				{Name: "args", Type: tool.Object, Private: true, Description: "That tool's arguments."},
			}},
			{Name: "list", Description: "List jobs with their schedules and next run times.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: c.list,
				Params: []tool.Param{{Name: "count", Type: tool.Integer, Default: 3, Min: tool.Ptr(1), Max: tool.Ptr(20), Description: "Next run times shown per job."}}},
			{Name: "remove", Description: "Remove a job (to the trash; restore brings it back).", Level: tool.Write, Timeout: tool.Fast, Handler: c.remove, Params: []tool.Param{id}},
			{Name: "restore", Description: "Bring a removed job back from the trash.", Level: tool.Write, Timeout: tool.Fast, Handler: c.restore, Params: []tool.Param{id}},
			{Name: "pause", Description: "Pause a job.", Level: tool.Write, Timeout: tool.Fast, Handler: c.pause, Params: []tool.Param{id}},
			{Name: "resume", Description: "Resume a paused job from its next time after now (missed ones are not run).", Level: tool.Write, Timeout: tool.Fast, Handler: c.resume, Params: []tool.Param{id}},
			{Name: "history", Description: "Runs of one job or all: time, outcome, duration, error.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: c.history, Params: []tool.Param{
				{Name: "id", Type: tool.String, Description: "One job (default: all)."},
				{Name: "limit", Type: tool.Integer, Default: 50, Min: tool.Ptr(1), Max: tool.Ptr(500), Description: "Runs shown, newest first."},
			}},
			{Name: "export", Description: "Export every job as Markdown (the schedules and tool calls, to keep or re-add).", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: c.export},
		},
		Examples: []string{
			"remind me to stretch every hour",
			"set a reminder for 6pm to call mom",
			"run the backup every night at 2am",
			"remind me every Monday at 9 about the standup",
			"pause the daily job",
			"list my scheduled tasks",
			"每周五下午提醒我交周报",
			"设置一个定时任务每晚备份",
			"明天早上七点叫我起床",
			"每天早上八点提醒我喝水",
			"取消那个提醒",
		},

		CallLevel: c.callLevel,
		Attach: func(h tool.Host) func(context.Context) {
			c.host = h
			if c.st == nil {
				return nil
			}
			s := &scheduler{c: c, host: h}
			return s.loop
		},
	}
	return c, t, nil
}

// callLevel: add is Write unless its tool call is High (or cannot be
// judged yet); every other action keeps its level.
func (c *crontool) callLevel(call *tool.Call) tool.Level {
	if call.Action != "add" {
		return tool.High
	}
	name := strings.TrimSpace(call.Args.String("tool"))
	if name == "" {
		return tool.Write
	}
	if c.host == nil {
		return tool.High
	}
	l, err := c.host.Level(name, call.Args.String("tool_action"), call.Args.Object("args"))
	if err != nil {
		return tool.Write // add refuses the unknown tool before anything is stored
	}
	return l
}

// kind is what the records skeleton calls a cron job.
var kind = records.Kind{Tool: "cron", Component: "cron", Item: "job", Noun: "job", Hint: "list shows the jobs and their ids"}

func (c *crontool) needStore() error { return kind.NeedStore(c.st) }

func (c *crontool) add(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	message := strings.TrimSpace(a.String("message"))
	if message == "" {
		return nil, tool.Invalid("message", "message is empty", "say what the reminder should say")
	}
	field, err := a.ExactlyOne("give schedule (cron fields, @every 30m or an RFC 3339 time) or phrase (\"every day at 8\")", "schedule", "phrase")
	if err != nil {
		return nil, err
	}
	now := c.now()
	spec, phrase := a.String("schedule"), ""
	if field == "phrase" {
		phrase = strings.TrimSpace(a.String("phrase"))
		if spec, err = fromPhrase(phrase, now, c.loc); err != nil {
			return nil, tool.Invalid("phrase", err.Error(), "rephrase, or give schedule as cron fields")
		}
	}
	sch, err := parseSpec(spec)
	if err != nil {
		return nil, tool.Invalid(field, err.Error(), "e.g. \"0 8 * * *\" (08:00 daily), \"@every 30m\", \"2026-05-01T09:00:00+08:00\"")
	}
	next := sch.next(now, now, c.loc)
	if next.IsZero() {
		return nil, tool.Invalid(field, fmt.Sprintf("%s is in the past", sch.at.In(c.loc).Format(time.RFC3339)), "give a time after now")
	}
	j := &job{ID: records.NewID("j"), Spec: sch.Spec, Kind: sch.Kind, Phrase: phrase, Message: message, Level: string(tool.Write),
		Created: now.UnixMilli(), Anchor: now.Truncate(time.Second).UnixMilli(), NextRun: next.UnixMilli()}
	if sch.Kind == kindEvery {
		j.NextRun = sch.next(now, now.Truncate(time.Second), c.loc).UnixMilli()
	}
	j.Name = strings.TrimSpace(a.String("name"))
	if j.Name == "" {
		j.Name = clip(message, 40)
	}
	if t := strings.TrimSpace(a.String("tool")); t != "" {
		if t == "cron" {
			return nil, tool.Invalid("tool", "a job cannot call cron itself", "add the other job directly")
		}
		j.Tool, j.Action, j.Args = t, strings.TrimSpace(a.String("tool_action")), a.Object("args")
		if c.host == nil {
			return nil, tool.Errorf(tool.CodeFailed, "add the job through the server", "tool calls can only be scheduled where the scheduler runs")
		}
		l, err := c.host.Level(j.Tool, j.Action, j.Args)
		if err != nil {
			f := "tool"
			if strings.Contains(err.Error(), "action") {
				f = "tool_action"
			}
			return nil, tool.Invalid(f, err.Error(), "name a registered tool and one of its actions")
		}
		j.Level = string(l)
	} else if a.Has("tool_action") || a.Has("args") {
		return nil, tool.Invalid("tool", "tool_action and args need tool", "name the tool to call, or drop them for a plain reminder")
	}
	err = c.st.Tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRow(`SELECT COUNT(*) FROM cron_jobs`).Scan(&n); err != nil {
			return err
		}
		if n >= c.cfg.MaxJobs {
			return tool.Errorf(tool.CodeTooLarge, "remove jobs no longer needed, or raise tools.cron.max_jobs", "%d jobs already (tools.cron.max_jobs)", n)
		}
		return insertJob(tx, j)
	})
	if err != nil {
		return nil, err
	}
	view := c.view(j, 3)
	sum := fmt.Sprintf("Added job %s (%s): %s; next run %s.", j.ID, j.Name, describe(j), view["next_runs"].([]string)[0])
	if phrase != "" {
		sum = fmt.Sprintf("Read %q as %q. ", phrase, j.Spec) + sum
	}
	return &tool.Result{Summary: sum, Data: view}, nil
}

func describe(j *job) string {
	s := j.Spec
	if j.Kind == kindOnce {
		s = "once at " + s
	}
	if j.Tool != "" {
		s += ", calls " + j.Tool
		if j.Action != "" {
			s += " " + j.Action
		}
	}
	return s
}

// view is a job as the model sees it, with its next runs in the zone.
func (c *crontool) view(j *job, count int) map[string]any {
	v := map[string]any{"id": j.ID, "name": j.Name, "schedule": j.Spec, "kind": j.Kind, "message": j.Message,
		"paused": j.Paused, "timezone": zone.Name(c.loc)}
	if j.Phrase != "" {
		v["phrase"] = j.Phrase
	}
	if j.Tool != "" {
		v["tool"], v["tool_action"], v["args"], v["level"] = j.Tool, j.Action, j.Args, j.Level
	}
	next := []string{}
	if j.NextRun > 0 && !j.Paused {
		t := time.UnixMilli(j.NextRun).UTC()
		sch, err := parseSpec(j.Spec)
		for i := 0; i < count && !t.IsZero() && err == nil; i++ {
			next = append(next, t.In(c.loc).Format(time.RFC3339))
			t = sch.next(t, time.UnixMilli(j.Anchor).UTC(), c.loc)
		}
	}
	if len(next) == 0 {
		next = append(next, "none")
	}
	v["next_runs"] = next
	return v
}

// jobs is the store check, then every job.
func (c *crontool) jobs(ctx context.Context) ([]*job, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	return listJobs(ctx, c.st.Read())
}

func (c *crontool) list(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	jobs, err := c.jobs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, c.view(j, call.Args.Int("count", 3)))
	}
	return &tool.Result{Summary: fmt.Sprintf("%s (times in %s).", wording.Count(len(out), "job", "jobs"), zone.Name(c.loc)), Data: map[string]any{"jobs": out}}, nil
}

// change runs fn on job id inside one transaction.
func (c *crontool) change(ctx context.Context, id string, fn func(tx *sql.Tx, j *job) error) (*job, error) {
	return records.Change(ctx, c.st, kind, id, getJob, fn)
}

func (c *crontool) remove(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	j, err := c.change(ctx, call.Args.String("id"), func(tx *sql.Tx, j *job) error {
		return kind.Delete(tx, j.ID, j.Name, j, `DELETE FROM cron_jobs WHERE id = $1`)
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Removed job %s (%s) to the trash; restore with id %s.", j.ID, j.Name, j.ID), Data: map[string]any{"id": j.ID}}, nil
}

func (c *crontool) restore(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	var j job
	err := kind.Restore(ctx, c.st, call.Args.String("id"), &j, func(tx *sql.Tx) error {
		sch, err := parseSpec(j.Spec)
		if err != nil {
			return err
		}
		j.NextRun = msOrZero(sch.next(c.now(), time.UnixMilli(j.Anchor).UTC(), c.loc))
		return insertJob(tx, &j)
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Restored job %s (%s); runs missed while it was removed are not run.", j.ID, j.Name), Data: c.view(&j, 3)}, nil
}

func (c *crontool) pause(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	j, err := c.change(ctx, call.Args.String("id"), func(tx *sql.Tx, j *job) error {
		j.Paused = true
		_, err := tx.Exec(`UPDATE cron_jobs SET paused = 1 WHERE id = $1`, j.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Paused job %s (%s).", j.ID, j.Name), Data: c.view(j, 1)}, nil
}

func (c *crontool) resume(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	j, err := c.change(ctx, call.Args.String("id"), func(tx *sql.Tx, j *job) error {
		sch, err := parseSpec(j.Spec)
		if err != nil {
			return err
		}
		j.Paused = false
		if j.NextRun > 0 && j.NextRun <= c.now().UnixMilli() { // times passed while paused are skipped
			j.NextRun = msOrZero(sch.next(c.now(), time.UnixMilli(j.Anchor).UTC(), c.loc))
		}
		_, err = tx.Exec(`UPDATE cron_jobs SET paused = 0, next_run = $1 WHERE id = $2`, j.NextRun, j.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Resumed job %s (%s).", j.ID, j.Name), Data: c.view(j, 3)}, nil
}

func (c *crontool) history(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := c.needStore(); err != nil {
		return nil, err
	}
	id := call.Args.String("id")
	runs, err := listRuns(ctx, c.st.Read(), id, call.Args.Int("limit", 50))
	if err != nil {
		return nil, err
	}
	if id != "" && len(runs) == 0 { // no runs: is there such a job at all?
		if _, err := getJob(c.st.Read(), id); err != nil {
			return nil, kind.Found(id, err)
		}
	}
	out := make([]map[string]any, 0, len(runs))
	for _, r := range runs {
		m := map[string]any{"job": r.JobID, "scheduled": time.UnixMilli(r.Scheduled).In(c.loc).Format(time.RFC3339), "outcome": r.Outcome,
			"duration_ms": r.Duration, "reported": r.Reported}
		if r.Error != "" {
			m["error"] = r.Error
		}
		if r.Output != "" {
			m["output"] = r.Output
		}
		if r.Missed > 0 {
			m["missed"] = r.Missed
		}
		out = append(out, m)
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.", wording.Count(len(out), "run", "runs")), Data: map[string]any{"runs": out}}, nil
}

func (c *crontool) export(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	jobs, err := c.jobs(ctx)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# cron jobs (%s)\n\n| id | name | schedule | paused | message | tool call |\n| --- | --- | --- | --- | --- | --- |\n", zone.Name(c.loc))
	for _, j := range jobs {
		call := ""
		if j.Tool != "" {
			args, _ := jsonMarshal(j.Args)
			call = strings.TrimSpace(j.Tool + " " + j.Action + " " + string(args))
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %v | %s | %s |\n", j.ID, cell(j.Name), j.Spec, j.Paused, cell(j.Message), cell(call))
	}
	return &tool.Result{Summary: fmt.Sprintf("%s exported as Markdown.", wording.Count(len(jobs), "job", "jobs")), Data: map[string]any{"markdown": b.String(), "jobs": len(jobs)}}, nil
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", "").Replace(s)
}
