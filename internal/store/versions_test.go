package store

import (
	"context"
	"database/sql"
	"errors"
	"github.com/clawbridge/clawbridge/internal/records"
	"strings"
	"testing"
)

func version(t *testing.T, s *Store, component string) int {
	t.Helper()
	var v int
	if err := s.DB().QueryRow(`SELECT version FROM schema_versions WHERE component = $1`, component).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

var twoSteps = []Migration{
	{Version: 1, Stmts: []string{`CREATE TABLE widgets (id TEXT PRIMARY KEY)`}},
	{Version: 2, Stmts: []string{`ALTER TABLE widgets ADD COLUMN size INTEGER NOT NULL DEFAULT 0`}},
}

func TestMigrateVersions_AppliesEachStepOnceAcrossOpens(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	// Not idempotent statements: a second run would fail.
	if err := s.MigrateVersions("widgets", twoSteps[:1]...); err != nil {
		t.Fatal(err)
	}
	if v := version(t, s, "widgets"); v != 1 {
		t.Fatalf("version %d, want 1", v)
	}
	s.Close()
	s2 := open(t, dir)
	if err := s2.MigrateVersions("widgets", twoSteps...); err != nil {
		t.Fatal(err)
	}
	if v := version(t, s2, "widgets"); v != 2 {
		t.Fatalf("version %d, want 2", v)
	}
	if _, err := s2.DB().Exec(`INSERT INTO widgets (id, size) VALUES ($1, $2)`, "a", 3); err != nil {
		t.Fatal(err)
	}
	s2.Close()
	s3 := open(t, dir)
	if err := s3.MigrateVersions("widgets", twoSteps...); err != nil {
		t.Fatalf("reopening at the same version: %v", err)
	}
}

func TestMigrateVersions_FailedStepChangesNothing(t *testing.T) {
	s := open(t, t.TempDir())
	bad := []Migration{{Version: 1, Stmts: []string{`CREATE TABLE half (id TEXT)`, `CREATE TABLE broken (`}}}
	if err := s.MigrateVersions("half", bad...); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Fatalf("err = %v, want the failing version named", err)
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'half'`).Scan(&n)
	if n != 0 {
		t.Fatal("the first statement of a failed step was kept")
	}
	var v int // the whole transaction rolled back: no version row (nor its table, here the first migration)
	if err := s.DB().QueryRow(`SELECT version FROM schema_versions WHERE component = 'half'`).Scan(&v); err == nil {
		t.Fatalf("a version %d was recorded for a failed step", v)
	}
}

func TestMigrateVersions_OlderBinaryRefusesNewerSchema(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if err := s.MigrateVersions("widgets", twoSteps...); err != nil {
		t.Fatal(err)
	}
	s.Close()
	old := open(t, dir) // a binary that knows only version 1
	err := old.MigrateVersions("widgets", twoSteps[:1]...)
	if !errors.Is(err, ErrSchemaNewer) || !strings.Contains(err.Error(), "version 2") || !strings.Contains(err.Error(), "knows up to 1") {
		t.Fatalf("err = %v, want a refusal naming both versions", err)
	}
	if v := version(t, old, "widgets"); v != 2 {
		t.Fatalf("the refusal changed the version to %d", v)
	}
}

func TestMigrateVersions_StepsMustBeNumberedInOrder(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.MigrateVersions("x", Migration{Version: 2}); err == nil {
		t.Fatal("a first step numbered 2 was accepted")
	}
}

func TestTrash_RestoreGivesTheRowBackOnce(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.MigrateTrash(); err != nil {
		t.Fatal(err)
	}
	row := map[string]any{"title": "dentist", "n": 1}
	if err := s.Tx(context.Background(), func(tx *sql.Tx) error { return records.Trash(tx, "calendar", "event", "e1", "dentist", row) }); err != nil {
		t.Fatal(err)
	}
	list, err := s.TrashList("calendar")
	if err != nil || len(list) != 1 || list[0].Label != "dentist" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if other, _ := s.TrashList("cron"); len(other) != 0 {
		t.Fatal("another component sees calendar's trash")
	}
	var got TrashItem
	if err := s.Tx(context.Background(), func(tx *sql.Tx) (err error) { got, err = records.Restore(tx, "calendar", "e1"); return }); err != nil {
		t.Fatal(err)
	}
	if string(got.Payload) != `{"n":1,"title":"dentist"}` || got.Kind != "event" {
		t.Fatalf("restored %s %s", got.Kind, got.Payload)
	}
	err = s.Tx(context.Background(), func(tx *sql.Tx) error { _, err := records.Restore(tx, "calendar", "e1"); return err })
	if !errors.Is(err, records.ErrNotInTrash) {
		t.Fatalf("second restore: %v", err)
	}
}
