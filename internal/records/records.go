// Package records is what the components that keep rows in the store need
// of it without linking its database drivers: the shape of a schema
// migration and the trash that deletes go into (so a delete can be undone).
// Package store applies the migrations and lists the trash.
package records

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Migration is one step of a component's schema: its statements run in the
// transaction that records Version, so a step is applied whole or not at
// all. Versions start at 1 and go up by one.
type Migration struct {
	Version int
	Stmts   []string
}

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
