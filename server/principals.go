package server

import (
	"bytes"
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
// when it moved on), and every change is written back only if the
// revision is still the one it was made on; otherwise the state is re-read
// and the change made again on it. So a change made through one instance
// is what the next request sees at any other. Connection, stdio and local
// sessions keep their state in memory only.

var principalSteps = []store.Migration{{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS principal_state (
	principal TEXT PRIMARY KEY, state TEXT NOT NULL, rev BIGINT NOT NULL, updated_at BIGINT NOT NULL)`}}}

// principalRetries bounds the re-runs of one change that keeps losing to
// writes from other instances.
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
// whether the view changed. For a principal, f runs on the latest stored
// state and what it changed is stored before this returns.
func (s *Server) exposureChange(sess *session, f func() bool) bool {
	if sess.kind != kindPrincipal {
		return f()
	}
	sess.stateMu.Lock()
	defer sess.stateMu.Unlock()
	for range principalRetries {
		if err := s.loadPrincipal(sess); err != nil {
			s.log.Warn().Err(err).Str("session", sess.key).Msg("principal state not read; the change stays on this instance")
			return f()
		}
		before, _ := sess.exp.MarshalState()
		changed := f()
		after, err := sess.exp.MarshalState()
		if err != nil || bytes.Equal(before, after) {
			return changed
		}
		ok, err := s.storePrincipal(sess, after)
		if err != nil {
			s.log.Warn().Err(err).Str("session", sess.key).Msg("principal state not stored; the change stays on this instance")
			return changed
		}
		if ok {
			return changed
		}
	}
	s.log.Warn().Str("session", sess.key).Msg("principal state changed by other instances on every try; this change stays on this instance")
	return false
}

// storePrincipal writes state as the revision after sess.rev, if that is
// still the stored one; false when another instance wrote first.
func (s *Server) storePrincipal(sess *session, state []byte) (bool, error) {
	now := time.Now().Unix()
	var res sql.Result
	var err error
	if sess.rev == 0 {
		res, err = s.deps.Store.DB().Exec(`INSERT INTO principal_state (principal, state, rev, updated_at) VALUES ($1, $2, 1, $3)
			ON CONFLICT (principal) DO NOTHING`, sess.key, string(state), now)
	} else {
		res, err = s.deps.Store.DB().Exec(`UPDATE principal_state SET state = $1, rev = rev + 1, updated_at = $2 WHERE principal = $3 AND rev = $4`,
			string(state), now, sess.key, sess.rev)
	}
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false, nil
	}
	sess.rev++
	return true, nil
}
