package store

import (
	"encoding/json"
	"github.com/clawbridge/clawbridge/internal/records"
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

// TrashItem is one deleted thing (records.TrashItem).
type TrashItem = records.TrashItem

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
