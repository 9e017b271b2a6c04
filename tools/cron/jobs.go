package cron

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
)

// The cron tables. Times are Unix milliseconds in UTC; next_run 0 means
// none (a one-off that ran). A run row is keyed by job and scheduled time,
// so one scheduled time has at most one run whatever the processes.
var migrations = []records.Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS cron_jobs (
		id TEXT PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL, kind TEXT NOT NULL, phrase TEXT NOT NULL,
		message TEXT NOT NULL, tool TEXT NOT NULL, action TEXT NOT NULL, args TEXT NOT NULL, level TEXT NOT NULL,
		paused INTEGER NOT NULL, created_at BIGINT NOT NULL, anchor BIGINT NOT NULL, next_run BIGINT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS cron_runs (
		job_id TEXT NOT NULL, scheduled_at BIGINT NOT NULL, started_at BIGINT NOT NULL, duration_ms BIGINT NOT NULL,
		outcome TEXT NOT NULL, error TEXT NOT NULL, output TEXT NOT NULL, missed INTEGER NOT NULL, reported INTEGER NOT NULL,
		owner TEXT NOT NULL, PRIMARY KEY (job_id, scheduled_at))`,
	`CREATE TABLE IF NOT EXISTS cron_leases (job_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)`,
}}}

// job is one row of cron_jobs.
type job struct {
	ID      string         `json:"id"`
	Name    string         `json:"name"`
	Spec    string         `json:"spec"`
	Kind    string         `json:"kind"`
	Phrase  string         `json:"phrase,omitempty"`
	Message string         `json:"message"`
	Tool    string         `json:"tool,omitempty"`
	Action  string         `json:"action,omitempty"`
	Args    map[string]any `json:"args,omitempty"`
	Level   string         `json:"level"`
	Paused  bool           `json:"paused"`
	Created int64          `json:"created_at"`
	Anchor  int64          `json:"anchor"`
	NextRun int64          `json:"next_run"`
}

// run is one row of cron_runs.
type run struct {
	JobID     string
	Scheduled int64
	Started   int64
	Duration  int64
	Outcome   string // running, ok, error, missed, interrupted
	Error     string
	Output    string
	Missed    int
	Reported  bool
}

const jobCols = `id, name, spec, kind, phrase, message, tool, action, args, level, paused, created_at, anchor, next_run`

func scanJob(r records.Scanner) (*job, error) {
	j := &job{}
	var args string
	var paused int
	if err := r.Scan(&j.ID, &j.Name, &j.Spec, &j.Kind, &j.Phrase, &j.Message, &j.Tool, &j.Action, &args, &j.Level, &paused, &j.Created, &j.Anchor, &j.NextRun); err != nil {
		return nil, err
	}
	j.Paused = paused != 0
	if args != "" && args != "null" {
		if err := json.Unmarshal([]byte(args), &j.Args); err != nil {
			return nil, err
		}
	}
	return j, nil
}

func insertJob(tx *sql.Tx, j *job) error {
	args, err := json.Marshal(j.Args)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO cron_jobs (`+jobCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		j.ID, j.Name, j.Spec, j.Kind, j.Phrase, j.Message, j.Tool, j.Action, string(args), j.Level, records.Bit(j.Paused), j.Created, j.Anchor, j.NextRun)
	return err
}

func getJob(q records.Querier, id string) (*job, error) {
	return scanJob(q.QueryRow(`SELECT `+jobCols+` FROM cron_jobs WHERE id = $1`, id))
}

func listJobs(ctx context.Context, db *sql.DB) ([]*job, error) {
	rows, err := db.QueryContext(ctx, `SELECT `+jobCols+` FROM cron_jobs ORDER BY created_at, id`)
	return records.Collect(rows, err, scanJob)
}

func listRuns(ctx context.Context, db *sql.DB, jobID string, limit int) ([]run, error) {
	q := `SELECT job_id, scheduled_at, started_at, duration_ms, outcome, error, output, missed, reported FROM cron_runs`
	args := []any{}
	if jobID != "" {
		q += ` WHERE job_id = $1`
		args = append(args, jobID)
	}
	q += ` ORDER BY scheduled_at DESC, job_id LIMIT ` + strconv.Itoa(limit)
	rows, err := db.QueryContext(ctx, q, args...)
	return records.Collect(rows, err, func(r records.Scanner) (run, error) {
		var x run
		var rep int
		err := r.Scan(&x.JobID, &x.Scheduled, &x.Started, &x.Duration, &x.Outcome, &x.Error, &x.Output, &x.Missed, &rep)
		x.Reported = rep != 0
		return x, err
	})
}

// takeLease claims job for owner until expires, unless another owner holds
// an unexpired lease. It reports whether the lease is owner's.
func takeLease(tx *sql.Tx, jobID, owner string, now, expires time.Time) (bool, error) {
	res, err := tx.Exec(`INSERT INTO cron_leases (job_id, owner, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (job_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
		WHERE cron_leases.expires_at < $4 OR cron_leases.owner = excluded.owner`,
		jobID, owner, expires.UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func dropLease(tx *sql.Tx, jobID, owner string) error {
	_, err := tx.Exec(`DELETE FROM cron_leases WHERE job_id = $1 AND owner = $2`, jobID, owner)
	return err
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
