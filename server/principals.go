package server

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"time"

	"clawbridge/internal/store"
)

// A stateless (2026-07-28) principal has no connection to keep state on,
// and behind a load balancer each request may reach another instance. Its
// exposure state (mode, tier, intents, pins, counts, history: what the view
// is built from) is therefore kept in the store, one row per principal with
// a revision number: every request first reads the revision (and the state
// when it moved on), and every change is made on the stored state with its
// row locked and written in the same transaction. So a change made through
// one instance is what the next request sees at any other, and changes
// racing through several instances are all kept. Connection, stdio and local
// sessions keep their state in memory only.

var principalSteps = []store.Migration{{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS principal_state (
	principal TEXT PRIMARY KEY, state TEXT NOT NULL, rev BIGINT NOT NULL, updated_at BIGINT NOT NULL)`}}}

// principalRetries bounds the re-runs of a principal's first change that
// keeps losing the insert of its row.
const principalRetries = 5

// syncPrincipal brings a principal's state up to the stored one.
func (s *Server) syncPrincipal(sess *session) {
	sess.stateMu.Lock()
	defer sess.stateMu.Unlock()
	if err := s.loadPrincipal(sess); err != nil {
		s.log.Warn().Err(err).Str("session", sess.key).Msg("principal state not read; using this instance's copy")
	}
}

// loadPrincipal reads the stored revision, and the state when it is not
// the one sess holds (stateMu held). A view changed elsewhere is announced
// on the principal's listen streams here.
func (s *Server) loadPrincipal(sess *session) error {
	var rev int64
	var state string
	err := s.deps.Store.Read().QueryRow(`SELECT rev, CASE WHEN rev = $2 THEN '' ELSE state END FROM principal_state WHERE principal = $1`,
		sess.key, sess.rev).Scan(&rev, &state)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && rev == sess.rev) {
		return nil
	}
	if err != nil {
		return err
	}
	changed, err := sess.exp.LoadState([]byte(state))
	if err != nil {
		return err
	}
	sess.rev = rev
	if changed {
		s.notifyListChanged(sess.key)
	}
	return nil
}

// exposureChange runs f, a change of sess's exposure state that reports
// whether the view changed. For a principal, f runs on the stored state
// with its row locked (FOR UPDATE on PostgreSQL; SQLite's write lock), and
// what it changed is written in the same transaction: changes racing
// through several instances apply one after the other, none lost.
func (s *Server) exposureChange(sess *session, f func() bool) bool {
	if sess.kind != kindPrincipal {
		return f()
	}
	sess.stateMu.Lock()
	defer sess.stateMu.Unlock()
	st := s.deps.Store
	for range principalRetries {
		var changed, raced bool
		err := st.Tx(context.Background(), func(tx *sql.Tx) error {
			var rev int64
			var state string
			err := tx.QueryRow(`SELECT rev, state FROM principal_state WHERE principal = $1`+st.ForUpdate(), sess.key).Scan(&rev, &state)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return err
			case rev != sess.rev:
				if _, err := sess.exp.LoadState([]byte(state)); err != nil {
					return err
				}
				sess.rev = rev
			}
			before, _ := sess.exp.MarshalState()
			changed = f()
			after, err := sess.exp.MarshalState()
			if err != nil || bytes.Equal(before, after) {
				return err
			}
			now := time.Now().Unix()
			if sess.rev == 0 {
				// No row to lock yet: of two first writes, one inserts; the
				// other undoes its change and makes it again on that row.
				res, err := tx.Exec(`INSERT INTO principal_state (principal, state, rev, updated_at) VALUES ($1, $2, 1, $3)
					ON CONFLICT (principal) DO NOTHING`, sess.key, string(after), now)
				if err != nil {
					return err
				}
				if n, _ := res.RowsAffected(); n != 1 {
					raced = true
					_, err := sess.exp.LoadState(before)
					return err
				}
			} else if _, err := tx.Exec(`UPDATE principal_state SET state = $1, rev = rev + 1, updated_at = $2 WHERE principal = $3`,
				string(after), now, sess.key); err != nil {
				return err
			}
			sess.rev++
			return nil
		})
		if err != nil {
			s.log.Warn().Err(err).Str("session", sess.key).Msg("principal state not stored; the change stays on this instance")
			return changed
		}
		if !raced {
			return changed
		}
	}
	s.log.Warn().Str("session", sess.key).Msg("principal state: its first write kept racing; the change was not made")
	return false
}
