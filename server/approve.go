package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/clawbridge/clawbridge/internal/store"
)

// The `approve` confirmation policy: a high call that needs confirmation is
// stored as a pending call until a person approves or rejects it out of band
// (`clawbridge approve`, from any process on the same data dir, or the
// dashboard). The CLI's own `call` waits for the decision, bounded, polling
// the store; a call from an MCP client is answered at once with the id and
// the command, so no client hangs in silence (clients that send progress
// tokens do not necessarily show anyone the progress: headless Claude Code). The pending call stays open for pendingOpen: the same call
// (same session, arguments and preview) made again runs once if it was
// approved, is told if it was rejected, and is answered with the same id
// while it waits. A decision is single-use and bound to its pending call.

// Statuses of a pending call.
const (
	pendingWaiting  = "pending"
	pendingApproved = "approved"
	pendingRejected = "rejected"
	pendingExpired  = "expired" // not decided in time, or the caller went away
	pendingRan      = "ran"     // approved and taken by its call
	pendingTold     = "told"    // rejected, and the call made again was told so
)

// pendingOpen is how long an unanswered pending call stays open for a
// decision and the call made again; a waiting call waits at most the
// confirmer's wait (approve_timeout) of it.
const pendingOpen = 10 * time.Minute

var pendingSteps = []store.Migration{{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS pending_calls (
	id TEXT PRIMARY KEY, session TEXT NOT NULL, tool TEXT NOT NULL, action TEXT NOT NULL,
	preview TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL, status TEXT NOT NULL)`}},
	// call_hash binds a pending call to the call made again: its session,
	// arguments and the preview shown (shownHash).
	{Version: 2, Stmts: []string{`ALTER TABLE pending_calls ADD COLUMN call_hash TEXT NOT NULL DEFAULT ''`}}}

// pendingRetention bounds the table: decided calls are kept a day for the
// record, then deleted.
const pendingRetention = 24 * time.Hour

func migratePending(st *store.Store) error {
	return st.MigrateVersions("pending_calls", pendingSteps...)
}

// PendingCall is a call waiting for a person's decision, as listed by
// `clawbridge approve`.
type PendingCall struct {
	ID      string    `json:"id"`
	Session string    `json:"session"`
	Tool    string    `json:"tool"`
	Action  string    `json:"action,omitempty"`
	Preview string    `json:"preview"` // redacted tool, action and arguments
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// ListPending returns the calls still waiting in the store, oldest first.
func ListPending(ctx context.Context, st *store.Store) ([]PendingCall, error) {
	if err := migratePending(st); err != nil {
		return nil, err
	}
	rows, err := st.DB().QueryContext(ctx,
		`SELECT id, session, tool, action, preview, created, expires FROM pending_calls WHERE status = $1 AND expires >= $2 ORDER BY created`,
		pendingWaiting, time.Now().Unix())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PendingCall
	for rows.Next() {
		var p PendingCall
		var created, expires int64
		if err := rows.Scan(&p.ID, &p.Session, &p.Tool, &p.Action, &p.Preview, &created, &expires); err != nil {
			return nil, err
		}
		p.Created, p.Expires = time.Unix(created, 0), time.Unix(expires, 0)
		out = append(out, p)
	}
	return out, rows.Err()
}

// ErrNoPendingCall: the id names no call that is still waiting.
var ErrNoPendingCall = errors.New("no pending call with that id (it was decided already, expired, or never existed); run `clawbridge approve` to list the waiting ones")

// Decide approves or rejects the waiting call id. Only a waiting call that
// has not expired can be decided, and only once.
func Decide(ctx context.Context, st *store.Store, id string, approve bool) error {
	if err := migratePending(st); err != nil {
		return err
	}
	status := pendingRejected
	if approve {
		status = pendingApproved
	}
	res, err := st.DB().ExecContext(ctx, `UPDATE pending_calls SET status = $1 WHERE id = $2 AND status = $3 AND expires >= $4`,
		status, id, pendingWaiting, time.Now().Unix())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNoPendingCall
	}
	return nil
}

// propose stores a new pending call for the call hash and returns its id.
func (c *confirmer) propose(ctx context.Context, session, toolName, action, preview, hash string) (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:]) // short enough to type; 48 random bits, valid for minutes
	now := time.Now()
	err := c.st.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM pending_calls WHERE expires < $1`, now.Add(-pendingRetention).Unix()); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO pending_calls(id, session, tool, action, preview, created, expires, status, call_hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
			id, session, toolName, action, preview, now.Unix(), now.Add(max(c.wait, c.open)).Unix(), pendingWaiting, hash)
		return err
	})
	return id, err
}

// earlier finds the pending call of an earlier try of the same call (same
// hash: tool, arguments and the preview shown) that is still open, or was
// decided while open and not yet taken: its id and status ("" when there is
// none), newest first.
//
// It is not bound to the session that first made the call: the same
// person's clients often make the call again from another one (the
// Inspector CLI starts a server or a session per call; 2026-07-28 clients
// such as Claude Code have a fresh session per request), and everyone who
// can reach this server shares its one token anyway. Whoever makes it runs,
// once, exactly the call the person was shown and approved.
func (c *confirmer) earlier(ctx context.Context, hash string) (string, string, error) {
	var id, status string
	err := c.st.DB().QueryRowContext(ctx,
		`SELECT id, status FROM pending_calls WHERE call_hash = $1 AND call_hash <> '' AND expires >= $2
		 AND status IN ($3, $4, $5) ORDER BY created DESC LIMIT 1`,
		hash, time.Now().Unix(), pendingWaiting, pendingApproved, pendingRejected).Scan(&id, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	return id, status, err
}

// tell marks a rejection as told to the call made again, so that a later
// try asks anew.
func (c *confirmer) tell(ctx context.Context, id string) error {
	_, err := c.st.DB().ExecContext(ctx, `UPDATE pending_calls SET status = $1 WHERE id = $2 AND status = $3`, pendingTold, id, pendingRejected)
	return err
}

// decision is the outcome of waiting on a pending call.
type decision int

const (
	decidedRun decision = iota
	decidedReject
	decidedTimeout
)

// await polls the pending call until it is decided, the wait ends or ctx
// is done. An approval is taken (approved → ran) in one statement, so it
// lets exactly one run happen. tick is called on every poll.
func (c *confirmer) await(ctx context.Context, id string, tick func(waited time.Duration)) (decision, error) {
	start := time.Now()
	deadline := time.NewTimer(c.wait)
	defer deadline.Stop()
	poll := time.NewTicker(c.poll)
	defer poll.Stop()
	for {
		d, err := c.check(id)
		if err != nil || d != decidedTimeout {
			return d, err
		}
		select {
		case <-poll.C:
			tick(time.Since(start))
		case <-deadline.C:
			// The wait ends; the pending call stays open for a decision
			// and the call made again (earlier). A decision that came in
			// at the last moment still counts.
			return c.check(id)
		case <-ctx.Done():
			return decidedTimeout, ctx.Err()
		}
	}
}

// check reads the decision so far; decidedTimeout means still waiting.
// Polls only read; the one write takes an approval.
func (c *confirmer) check(id string) (decision, error) {
	var status string
	if err := c.st.DB().QueryRow(`SELECT status FROM pending_calls WHERE id = $1`, id).Scan(&status); err != nil {
		return decidedTimeout, fmt.Errorf("pending call %s: %w", id, err)
	}
	switch status {
	case pendingWaiting:
		return decidedTimeout, nil
	case pendingRejected:
		return decidedReject, nil
	case pendingApproved:
		res, err := c.st.DB().Exec(`UPDATE pending_calls SET status = $1 WHERE id = $2 AND status = $3`, pendingRan, id, pendingApproved)
		if err != nil {
			return decidedTimeout, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return decidedRun, nil
		}
	}
	return decidedTimeout, fmt.Errorf("pending call %s is %s", id, status)
}
