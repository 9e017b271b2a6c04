package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// TestApproveCLI_PostgresStore: with store.driver postgres (the password
// from store.password_env) the server and `clawbridge approve` meet in
// PostgreSQL: the waiting call is listed and approved from the command,
// runs once, and no SQLite file is made in data_dir.
func TestApproveCLI_PostgresStore(t *testing.T) {
	dir := cliEnv(t)
	db := storetest.Postgres(t)
	u, err := url.Parse(db.Config().DSN)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	u.User = url.User(u.User.Username())
	t.Setenv("CB_TEST_STORE_PW", pw)
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("store:\n  driver: postgres\n  dsn: \""+u.String()+"\"\n  password_env: CB_TEST_STORE_PW\n"), 0o600)

	a, ws := approvingApp(t, dir)
	call := startWaitingCall(t, a, ws, "pg.txt")
	var n int
	if err := db.Open(t).DB().QueryRow(`SELECT count(*) FROM pending_calls WHERE id = $1`, call.id).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the pending call is not in PostgreSQL: %d %v", n, err)
	}
	approveOnce(t, ws, call)
	if _, err := os.Stat(filepath.Join(dir, "data", "clawbridge.db")); !os.IsNotExist(err) {
		t.Fatal("a SQLite store was made in data_dir")
	}
}
