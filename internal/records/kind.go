package records

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Kind is one kind of row a records tool keeps (a diary entry, a flashcard,
// an event, a cron job) and the skeleton its actions share: the store
// check, the answer to an unknown id, and the transactions that move a row
// to the trash and back. Written once so that an unknown id reads the same
// (not_found on the field id) in every records tool.
type Kind struct {
	Tool      string // the published tool, named when there is no store
	Component string // its store component: the trash section
	Item      string // what the trash calls the row ("entry", "job")
	Noun      string // what answers call it ("diary entry")
	Hint      string // where the ids are shown ("list shows the jobs and their ids")
}

// Store is what the skeleton needs of the shared store; tool.Records has it.
type Store interface {
	Tx(ctx context.Context, fn func(*sql.Tx) error) error
}

// NeedStore refuses an action that keeps rows when the process has no
// store (a listing-only build).
func (k Kind) NeedStore(st Store) error {
	if st == nil {
		return toolerr.Errorf(toolerr.CodeFailed, "", "%s needs the store, and this process has none", k.Tool)
	}
	return nil
}

// Unknown is the answer to an id no row has.
func (k Kind) Unknown(id string) error {
	return toolerr.NotFoundf("id", k.Hint, "no %s %q", k.Noun, id)
}

// Found turns a lookup's sql.ErrNoRows into the unknown-id answer.
func (k Kind) Found(id string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return k.Unknown(id)
	}
	return err
}

// Querier is what a lookup by id needs: a *sql.DB, or a *sql.Tx inside a
// transaction. An alias, so a tool's getter may spell the interface out.
type Querier = interface {
	QueryRow(string, ...any) *sql.Row
}

// Change runs fn on row id inside one transaction: the store check, the
// lookup (get answers sql.ErrNoRows when there is no such row), then fn.
func Change[T any](ctx context.Context, st Store, k Kind, id string, get func(Querier, string) (T, error), fn func(*sql.Tx, T) error) (T, error) {
	var row T
	if err := k.NeedStore(st); err != nil {
		return row, err
	}
	err := st.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if row, err = get(tx, id); err != nil {
			return k.Found(id, err)
		}
		return fn(tx, row)
	})
	return row, err
}

// Trash records row (what restore needs to put it back) as deleted under
// id, in tx; label is a short human name for the trash listing.
func (k Kind) Trash(tx *sql.Tx, id, label string, row any) error {
	return Trash(tx, k.Component, k.Item, id, label, row)
}

// Delete moves row id to the trash (as Trash) and runs deletes, each a
// statement taking id as its $1 (the rows that go with it, then its own),
// in tx.
func (k Kind) Delete(tx *sql.Tx, id, label string, row any, deletes ...string) error {
	if err := k.Trash(tx, id, label, row); err != nil {
		return err
	}
	for _, d := range deletes {
		if _, err := tx.Exec(d, id); err != nil {
			return err
		}
	}
	return nil
}

// Restore takes id out of the trash into row and calls put to write it
// back, in one transaction: a put that fails leaves it in the trash.
func (k Kind) Restore(ctx context.Context, st Store, id string, row any, put func(*sql.Tx) error) error {
	if err := k.NeedStore(st); err != nil {
		return err
	}
	return st.Tx(ctx, func(tx *sql.Tx) error {
		it, err := Restore(tx, k.Component, id)
		if errors.Is(err, ErrNotInTrash) {
			return toolerr.NotFoundf("id", "only what delete moved to the trash can be restored, under the id delete answered", "no deleted %s %q in the trash", k.Noun, id)
		}
		if err != nil {
			return err
		}
		if err := json.Unmarshal(it.Payload, row); err != nil {
			return fmt.Errorf("%s: trash item %s: %w", k.Component, id, err)
		}
		return put(tx)
	})
}

// NewID is a fresh row id: prefix and 16 hex digits.
func NewID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
