package cron

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// scheduler is the loop the server runs while it serves: each tick it
// takes the due jobs, one at a time under a lease, runs them and records
// the run; runs missed while no process was up are recorded and reported
// once, not run late.
type scheduler struct {
	c    *crontool
	host tool.Host
	wg   sync.WaitGroup // runs in flight
}

func (s *scheduler) loop(ctx context.Context) {
	t := time.NewTicker(s.c.cfg.Tick)
	defer t.Stop()
	defer s.wg.Wait()
	for {
		s.tick(ctx, s.c.now())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *scheduler) tick(ctx context.Context, now time.Time) {
	db := s.c.st.DB()
	if _, err := db.ExecContext(ctx, `UPDATE cron_runs SET outcome = 'interrupted', error = 'the process running it stopped'
		WHERE outcome = 'running' AND job_id NOT IN (SELECT job_id FROM cron_leases WHERE expires_at >= $1)`, now.UnixMilli()); err != nil && ctx.Err() == nil {
		s.c.log.Warn().Err(err).Msg("cron: marking interrupted runs")
	}
	rows, err := db.QueryContext(ctx, `SELECT id FROM cron_jobs WHERE paused = 0 AND next_run > 0 AND next_run <= $1 ORDER BY next_run, id`, now.UnixMilli())
	if err != nil {
		if ctx.Err() == nil {
			s.c.log.Warn().Err(err).Msg("cron: listing due jobs")
		}
		return
	}
	var due []string
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			due = append(due, id)
		}
	}
	rows.Close()
	for _, id := range due {
		if ctx.Err() != nil {
			return
		}
		if err := s.claim(ctx, id, now); err != nil {
			s.c.log.Warn().Err(err).Str("job", id).Msg("cron: claiming a due job")
		}
	}
	s.reportMissed(ctx)
}

// claim takes job id's due time in one transaction: the lease, the run row
// and the job's next time move together, so a second process sharing the
// store either sees the job already advanced or cannot take the lease.
func (s *scheduler) claim(ctx context.Context, id string, now time.Time) error {
	var (
		j       *job
		sched   time.Time
		runIt   bool
		missed  int
		claimed bool
	)
	err := s.c.st.Tx(ctx, func(tx *sql.Tx) error {
		ok, err := takeLease(tx, id, s.c.owner, now, now.Add(s.c.cfg.Lease))
		if err != nil || !ok {
			return err
		}
		if j, err = getJob(tx, id); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return dropLease(tx, id, s.c.owner)
			}
			return err
		}
		if j.Paused || j.NextRun == 0 || j.NextRun > now.UnixMilli() { // another process took it first
			return dropLease(tx, id, s.c.owner)
		}
		sch, err := parseSpec(j.Spec)
		if err != nil {
			return err
		}
		sched = time.UnixMilli(j.NextRun).UTC()
		anchor := time.UnixMilli(j.Anchor).UTC()
		next := sch.next(sched, anchor, s.c.loc)
		if now.Sub(sched) > s.c.cfg.MissedAfter {
			missed = 1
			for !next.IsZero() && !next.After(now) && missed < 100000 {
				missed++
				next = sch.next(next, anchor, s.c.loc)
			}
		} else {
			runIt = true
			for !next.IsZero() && !next.After(now) { // a tick that came late: never two runs at once
				next = sch.next(next, anchor, s.c.loc)
			}
		}
		if _, err := tx.Exec(`UPDATE cron_jobs SET next_run = $1 WHERE id = $2`, msOrZero(next), id); err != nil {
			return err
		}
		outcome := "running"
		if !runIt {
			outcome = "missed"
		}
		res, err := tx.Exec(`INSERT INTO cron_runs (job_id, scheduled_at, started_at, duration_ms, outcome, error, output, missed, reported, owner)
			VALUES ($1, $2, $3, 0, $4, '', '', $5, 0, $6) ON CONFLICT (job_id, scheduled_at) DO NOTHING`,
			id, sched.UnixMilli(), now.UnixMilli(), outcome, missed, s.c.owner)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			runIt = false // this scheduled time already has its run
		}
		claimed = true
		if !runIt {
			return dropLease(tx, id, s.c.owner)
		}
		return nil
	})
	if err != nil || !claimed || !runIt {
		return err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.execute(ctx, j, sched)
	}()
	return nil
}

// execute runs one claimed run, records its outcome, tells the sessions
// and gives the lease back.
func (s *scheduler) execute(ctx context.Context, j *job, sched time.Time) {
	start := s.c.now()
	outcome, output, errText := "ok", "", ""
	if j.Tool != "" {
		out, err := s.callTool(ctx, j, sched)
		output = clip(out, 2000)
		if err != nil {
			outcome, errText = "error", clip(err.Error(), 2000)
		}
	}
	dur := s.c.now().Sub(start)
	data := map[string]any{"event": "cron_fired", "job": j.ID, "name": j.Name, "message": j.Message,
		"scheduled": sched.In(s.c.loc).Format(time.RFC3339), "outcome": outcome}
	if output != "" {
		data["output"] = output
	}
	if errText != "" {
		data["error"] = errText
	}
	level := "info"
	if outcome != "ok" {
		level = "error"
	}
	reported := s.host.Notify(level, "cron", data)
	// The outcome is written even when the server is stopping: the run happened.
	wctx := context.WithoutCancel(ctx)
	err := s.c.st.Tx(wctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`UPDATE cron_runs SET outcome = $1, error = $2, output = $3, duration_ms = $4, reported = $5 WHERE job_id = $6 AND scheduled_at = $7`,
			outcome, errText, output, dur.Milliseconds(), records.Bit(reported), j.ID, sched.UnixMilli()); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM cron_runs WHERE job_id = $1 AND scheduled_at NOT IN
			(SELECT scheduled_at FROM cron_runs WHERE job_id = $1 ORDER BY scheduled_at DESC LIMIT `+strconv.Itoa(s.c.cfg.History)+`)`, j.ID); err != nil {
			return err
		}
		return dropLease(tx, j.ID, s.c.owner)
	})
	if err != nil {
		s.c.log.Warn().Err(err).Str("job", j.ID).Msg("cron: recording a run")
	}
	s.c.log.Info().Str("job", j.ID).Str("outcome", outcome).Dur("took", dur).Msg("cron job ran")
}

// callTool runs the job's tool call. Its level is checked again: a job
// added when its call was not High must not run it once it is.
func (s *scheduler) callTool(ctx context.Context, j *job, sched time.Time) (string, error) {
	level, err := s.host.Level(j.Tool, j.Action, j.Args)
	if err != nil {
		return "", err
	}
	if level == tool.High && j.Level != string(tool.High) {
		return "", fmt.Errorf("%s %s is now high-risk and was not confirmed when the job was added: remove the job and add it again", j.Tool, j.Action)
	}
	args := map[string]any{}
	for k, v := range j.Args {
		args[k] = v
	}
	if sendsOnce[j.Tool] {
		if _, given := args["idempotency_key"]; !given {
			args["idempotency_key"] = idempotencyKey(j.ID, sched)
		}
	}
	return s.host.Run(ctx, j.Tool, j.Action, args)
}

// sendsOnce are the tools taking an idempotency key (internal/sendonce).
var sendsOnce = map[string]bool{"email": true, "notify": true}

func idempotencyKey(jobID string, sched time.Time) string {
	return "cron:" + jobID + ":" + sched.UTC().Format(time.RFC3339)
}

// reportMissed tells the sessions, once, of runs missed while no server
// was up. A report is marked before it is sent (so two processes never
// both send it) and unmarked when no session was there to get it.
func (s *scheduler) reportMissed(ctx context.Context) {
	db := s.c.st.DB()
	rows, err := db.QueryContext(ctx, `SELECT r.job_id, r.scheduled_at, r.missed, j.name, j.message FROM cron_runs r JOIN cron_jobs j ON j.id = r.job_id
		WHERE r.outcome = 'missed' AND r.reported = 0 ORDER BY r.scheduled_at`)
	if err != nil {
		return
	}
	type miss struct {
		id, name, msg string
		at            int64
		n             int
	}
	var list []miss
	for rows.Next() {
		var m miss
		if rows.Scan(&m.id, &m.at, &m.n, &m.name, &m.msg) == nil {
			list = append(list, m)
		}
	}
	rows.Close()
	for _, m := range list {
		res, err := db.ExecContext(ctx, `UPDATE cron_runs SET reported = 1 WHERE job_id = $1 AND scheduled_at = $2 AND reported = 0`, m.id, m.at)
		if err != nil {
			return
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		at := time.UnixMilli(m.at).In(s.c.loc).Format(time.RFC3339)
		if !s.host.Notify("warning", "cron", map[string]any{"event": "cron_missed", "job": m.id, "name": m.name, "message": m.msg,
			"missed": m.n, "first_missed": at, "note": fmt.Sprintf("%d run(s) from %s were missed while clawbridge was not running; they are not run late", m.n, at)}) {
			db.ExecContext(context.WithoutCancel(ctx), `UPDATE cron_runs SET reported = 0 WHERE job_id = $1 AND scheduled_at = $2`, m.id, m.at)
		}
	}
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
