package store

import (
	"context"
	"database/sql"
	"os"
	"testing"
)

// TestOpenMemory_OneDatabaseNoFile: the in-memory store the look-only
// commands use is one database across calls (tables made by Migrate are
// there for the next query) and writes no file.
func TestOpenMemory_OneDatabaseNoFile(t *testing.T) {
	t.Chdir(t.TempDir())
	st, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate("t", `CREATE TABLE IF NOT EXISTS kv(k TEXT PRIMARY KEY, v TEXT)`); err != nil {
		t.Fatal(err)
	}
	if err := st.Tx(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO kv VALUES ('a', 'b')`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := st.DB().QueryRow(`SELECT v FROM kv WHERE k = 'a'`).Scan(&v); err != nil || v != "b" {
		t.Fatalf("read back: %q %v", v, err)
	}
	if files, _ := os.ReadDir("."); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}
