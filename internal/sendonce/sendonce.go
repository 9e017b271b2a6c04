// Package sendonce records idempotency keys of messages that leave the
// machine (email, notify), so that a retried call sends once. A key is
// claimed in the store before anything is sent and its outcome is written
// after, both committed before the call goes on: a crash between the two
// leaves the key "sending", which a retry reports as "may have been sent"
// instead of sending again.
//
// It does not decide what a key is: tools derive one from the message's
// content when the caller gives none. A scheduled job (cron) passes its own
// key per scheduled time, e.g. "cron:<job id>:<scheduled time RFC 3339>",
// so every run sends once however often it is retried.
package sendonce

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
)

// State is where a key's send stands.
type State string

const (
	// Sending: claimed, outcome not yet written (in flight, or the process
	// died mid-send).
	Sending State = "sending"
	// Sent: the server accepted the message.
	Sent State = "sent"
	// Uncertain: the send broke after the message left (SMTP DATA begun, a
	// webhook request written with no answer): it may have been delivered.
	Uncertain State = "uncertain"
	// Failed: refused before anything was delivered; a retry may send.
	Failed State = "failed"
	// Partial: some parts of a split message were delivered; a retry
	// resumes after them.
	Partial State = "partial"
)

// Record is one key's row.
type Record struct {
	Key     string
	State   State
	Answer  string // the server's answer, or the error, as recorded
	Parts   int    // parts delivered (a split notify message)
	Created time.Time
	Updated time.Time
}

// Store keeps the records in the shared store.
type Store struct{ st db }

// db is what the log needs of the shared store (*store.Store, as the tools
// hold it through tools/tool.Records).
type db interface {
	MigrateVersions(component string, steps ...records.Migration) error
	Tx(ctx context.Context, fn func(*sql.Tx) error) error
}

// Open migrates the table.
func Open(st db) (*Store, error) {
	err := st.MigrateVersions("sendonce", records.Migration{Version: 1, Stmts: []string{
		`CREATE TABLE IF NOT EXISTS send_once (
			key TEXT PRIMARY KEY, state TEXT NOT NULL, answer TEXT NOT NULL,
			parts INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`}})
	return &Store{st: st}, err
}

// Key scopes a caller's key to one tool, so email and notify keys never
// meet.
func Key(tool, key string) string { return tool + ":" + key }

// Derive is a key from a message's content: the same message to the same
// recipients gives the same key.
func Derive(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "auto-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// Claim takes key for a send. fresh is true when the caller may send now:
// the key is new, or its last attempt failed before anything was delivered,
// or it stopped part-way through a split message (rec.Parts says how many
// went). Otherwise rec is the recorded outcome and nothing must be sent.
func (s *Store) Claim(ctx context.Context, key string) (rec Record, fresh bool, err error) {
	now := time.Now()
	err = s.st.Tx(ctx, func(tx *sql.Tx) error {
		// Insert-or-nothing, then a conditional take-over, each checked by
		// rows affected: two instances claiming one key at once never both
		// get fresh (the loser waits on the winner's row and sees it taken).
		res, e := tx.ExecContext(ctx, `INSERT INTO send_once(key, state, answer, parts, created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6)
			ON CONFLICT (key) DO NOTHING`, key, Sending, "", 0, now.UnixMilli(), now.UnixMilli())
		if e != nil {
			return e
		}
		if n, _ := res.RowsAffected(); n == 1 {
			rec, fresh = Record{Key: key, State: Sending, Created: now, Updated: now}, true
			return nil
		}
		if rec, e = read(ctx, tx, key); e != nil {
			return e
		}
		if rec.State != Failed && rec.State != Partial {
			return nil
		}
		res, e = tx.ExecContext(ctx, `UPDATE send_once SET state = $1, updated_at = $2 WHERE key = $3 AND state = $4`, Sending, now.UnixMilli(), key, rec.State)
		if e != nil {
			return e
		}
		if n, _ := res.RowsAffected(); n == 1 {
			fresh = true
			return nil
		}
		rec, e = read(ctx, tx, key) // another instance took it first
		return e
	})
	return rec, fresh, err
}

func read(ctx context.Context, tx *sql.Tx, key string) (Record, error) {
	rec := Record{Key: key}
	var created, updated int64
	err := tx.QueryRowContext(ctx, `SELECT state, answer, parts, created_at, updated_at FROM send_once WHERE key = $1`, key).
		Scan(&rec.State, &rec.Answer, &rec.Parts, &created, &updated)
	rec.Created, rec.Updated = time.UnixMilli(created), time.UnixMilli(updated)
	return rec, err
}

// Finish records the outcome of a claimed send. It runs even when ctx is
// done (the call was cancelled mid-send), so the outcome is never lost.
func (s *Store) Finish(ctx context.Context, key string, state State, answer string, parts int) error {
	ctx = context.WithoutCancel(ctx)
	return s.st.Tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE send_once SET state = $1, answer = $2, parts = $3, updated_at = $4 WHERE key = $5`,
			state, answer, parts, time.Now().UnixMilli(), key)
		return err
	})
}
