package cli

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/config"
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

	a, err := newApp("", func(c *config.Config) { c.Confirm = "approve" })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "pg.txt"), []byte("x"), 0o600)
	ch := make(chan *mcp.CallToolResult, 1)
	go func() { ch <- a.srv.Call(context.Background(), "shell", map[string]any{"argv": []any{"rm", "pg.txt"}}) }()
	id := ""
	for i := 0; i < 200 && id == ""; i++ {
		out, err := runCLI(t, "approve")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "pg.txt") {
				id = strings.Fields(line)[0] // the call's own line; the preview's lines follow it
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if id == "" {
		t.Fatal("the waiting call is not listed")
	}
	var n int
	if err := db.Open(t).DB().QueryRow(`SELECT count(*) FROM pending_calls WHERE id = $1`, id).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the pending call is not in PostgreSQL: %d %v", n, err)
	}
	if out, err := runCLI(t, "approve", id); err != nil || !strings.Contains(out, "approved") {
		t.Fatalf("approve %s: %v %s", id, err, out)
	}
	if r := <-ch; r.IsError {
		t.Fatalf("approved call failed: %v", r.Content)
	}
	if _, err := os.Stat(filepath.Join(ws, "pg.txt")); !os.IsNotExist(err) {
		t.Fatal("the approved rm did not run")
	}
	if _, err := runCLI(t, "approve", id); err == nil {
		t.Fatal("an approval was accepted twice")
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "clawbridge.db")); !os.IsNotExist(err) {
		t.Fatal("a SQLite store was made in data_dir")
	}
}
