package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/clawbridge/clawbridge/internal/records"
	"time"
)

// Migration is one step of a component's schema (records.Migration: the
// records tools name it without linking the drivers).
type Migration = records.Migration

// ErrSchemaNewer is returned when the data dir was written by a newer
// binary: this one does not know the tables' shape and must not touch them.
var ErrSchemaNewer = errors.New("schema is newer than this binary")

const versionsDDL = `CREATE TABLE IF NOT EXISTS schema_versions (
	component TEXT PRIMARY KEY, version INTEGER NOT NULL, updated_at BIGINT NOT NULL)`

// migrateLock is the advisory lock key migrations take on PostgreSQL
// ("clawbrdg" in ASCII).
const migrateLock int64 = 0x636c617762726467

// MigrateVersions brings component's tables to the last step's version:
// each step newer than the recorded version runs once, in order, in one
// transaction with the new version number, recorded once even when
// several instances start together (on PostgreSQL they take an advisory
// lock in turn). A recorded version above the
// last step means a newer clawbridge wrote the store; that is refused with
// a message saying so, and nothing is changed. The SQL here and in the
// steps is written for SQLite and PostgreSQL alike ($n placeholders,
// ON CONFLICT upserts, BIGINT times in Unix seconds or milliseconds).
func (s *Store) MigrateVersions(component string, steps ...Migration) error {
	for i, st := range steps {
		if st.Version != i+1 {
			return fmt.Errorf("store: %s migration %d has version %d; versions go 1, 2, 3 in order", component, i, st.Version)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done[component] {
		return nil
	}
	err := s.Tx(context.Background(), func(tx *sql.Tx) error {
		if s.driver == Postgres {
			// Instances starting at once take turns: the lock is held to
			// the end of this transaction, so the second one sees the
			// first one's version and runs nothing.
			if _, err := tx.Exec(`SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
				return fmt.Errorf("store: lock for migration: %w", err)
			}
		}
		if _, err := tx.Exec(versionsDDL); err != nil {
			return fmt.Errorf("store: schema_versions: %w", err)
		}
		var have int
		switch err := tx.QueryRow(`SELECT version FROM schema_versions WHERE component = $1`, component).Scan(&have); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("store: read %s schema version: %w", component, err)
		}
		if have > len(steps) {
			where := "data_dir"
			if s.driver == Postgres {
				where = "store.dsn"
			}
			return fmt.Errorf("store: %s tables in %s are at version %d, this clawbridge knows up to %d: %w; run the newer clawbridge, or point %s elsewhere",
				component, s.path, have, len(steps), ErrSchemaNewer, where)
		}
		for _, st := range steps[have:] {
			for _, q := range st.Stmts {
				if _, err := tx.Exec(q); err != nil {
					return fmt.Errorf("store: migrate %s to version %d: %w", component, st.Version, err)
				}
			}
		}
		if have == len(steps) {
			return nil
		}
		_, err := tx.Exec(`INSERT INTO schema_versions (component, version, updated_at) VALUES ($1, $2, $3)
			ON CONFLICT (component) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`,
			component, len(steps), time.Now().Unix())
		return err
	})
	if err == nil {
		s.done[component] = true
	}
	return err
}
