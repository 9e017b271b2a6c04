package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The trash keeps what a tool deletes, as the JSON of the rows, so that a
// delete can be undone: Trash moves a row there inside the tool's own
// transaction, Restore gives it back (and removes it from the trash) inside
// another. Components say what their rows are; the trash only keeps them.
var trashSteps = []Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS trash (
		component TEXT NOT NULL, item_id TEXT NOT NULL, kind TEXT NOT NULL,
		label TEXT NOT NULL, payload TEXT NOT NULL, deleted_at BIGINT NOT NULL,
		PRIMARY KEY (component, item_id))`,
}}}

// TrashItem is one deleted thing.
type TrashItem struct {
	Component string
	ID        string
	Kind      string // what it is within the component ("event", "job")
	Label     string // a short human name (an event's title)
	Payload   json.RawMessage
	DeletedAt time.Time
}

// ErrNotInTrash: nothing under that id was deleted (or it was restored).
var ErrNotInTrash = errors.New("not in the trash")

// MigrateTrash creates the trash table; components that trash call it.
func (s *Store) MigrateTrash() error { return s.MigrateVersions("trash", trashSteps...) }

// MigrateWithTrash applies a component's migrations and makes sure the
// trash it deletes into exists: what every personal-data tool needs.
func (s *Store) MigrateWithTrash(component string, steps ...Migration) error {
	if err := s.MigrateVersions(component, steps...); err != nil {
		return err
	}
	return s.MigrateTrash()
}

// Trash records row (marshalled to JSON) as deleted, in tx. Deleting the
// same id again replaces the earlier copy.
func Trash(tx *sql.Tx, component, kind, id, label string, row any) error {
	b, err := json.Marshal(row)
	if err != nil {
		return fmt.Errorf("store: trash %s %s: %w", component, id, err)
	}
	_, err = tx.Exec(`INSERT INTO trash (component, item_id, kind, label, payload, deleted_at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (component, item_id) DO UPDATE SET kind = excluded.kind, label = excluded.label, payload = excluded.payload, deleted_at = excluded.deleted_at`,
		component, id, kind, label, string(b), time.Now().UTC().UnixMilli())
	return err
}

// Restore takes id out of component's trash, in tx, and returns it.
func Restore(tx *sql.Tx, component, id string) (TrashItem, error) {
	it := TrashItem{Component: component, ID: id}
	var payload string
	var at int64
	err := tx.QueryRow(`SELECT kind, label, payload, deleted_at FROM trash WHERE component = $1 AND item_id = $2`, component, id).
		Scan(&it.Kind, &it.Label, &payload, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return it, ErrNotInTrash
	}
	if err != nil {
		return it, err
	}
	if _, err := tx.Exec(`DELETE FROM trash WHERE component = $1 AND item_id = $2`, component, id); err != nil {
		return it, err
	}
	it.Payload, it.DeletedAt = json.RawMessage(payload), time.UnixMilli(at).UTC()
	return it, nil
}

// TrashList lists component's trash, newest first.
func (s *Store) TrashList(component string) ([]TrashItem, error) {
	rows, err := s.read.Query(`SELECT item_id, kind, label, payload, deleted_at FROM trash WHERE component = $1 ORDER BY deleted_at DESC, item_id`, component)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TrashItem
	for rows.Next() {
		it := TrashItem{Component: component}
		var payload string
		var at int64
		if err := rows.Scan(&it.ID, &it.Kind, &it.Label, &payload, &at); err != nil {
			return nil, err
		}
		it.Payload, it.DeletedAt = json.RawMessage(payload), time.UnixMilli(at).UTC()
		out = append(out, it)
	}
	return out, rows.Err()
}
