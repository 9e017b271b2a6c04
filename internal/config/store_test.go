package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigStore_Validate: each bad store setting is refused naming the
// key at fault, and a password never appears in the message.
func TestConfigStore_Validate(t *testing.T) {
	t.Setenv("CB_TEST_STORE_PW", "pw-value")
	for _, c := range []struct {
		s    Store
		want string // "" = valid
	}{
		{Store{Driver: "sqlite"}, ""},
		{Store{Driver: "postgres", DSN: "postgres://cb@db:5432/cb?sslmode=disable", PasswordEnv: "CB_TEST_STORE_PW"}, ""},
		{Store{Driver: "mysql"}, "store.driver"},
		{Store{Driver: "sqlite", DSN: "postgres://cb@db/cb"}, "store.dsn"},
		{Store{Driver: "postgres"}, "store.dsn is required"},
		{Store{Driver: "postgres", DSN: "mysql://cb@db/cb"}, "store.dsn must be a URL"},
		{Store{Driver: "postgres", DSN: "postgres://cb:Hunter2pw@db/cb"}, "holds a password"},
		{Store{Driver: "postgres", DSN: "postgres://cb@db/cb?password=Hunter2pw"}, "holds a password"},
		{Store{Driver: "postgres", DSN: "postgres://cb@db/cb", PasswordEnv: "NOT-A-NAME"}, "store.password_env must name"},
		{Store{Driver: "postgres", DSN: "postgres://cb@db/cb", PasswordEnv: "CB_TEST_STORE_UNSET"}, "CB_TEST_STORE_UNSET, which is not set"},
	} {
		err := c.s.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.s, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: err %v, want %q", c.s, err, c.want)
		case err != nil && strings.Contains(err.Error(), "Hunter2pw"):
			t.Errorf("the password is in the message: %v", err)
		}
	}
	if got := (Store{Driver: "postgres", PasswordEnv: "CB_TEST_STORE_PW"}).Password(); got != "pw-value" {
		t.Errorf("Password() = %q", got)
	}
}

// TestConfigStore_FromFile: the store section decodes from YAML, defaults
// to sqlite, and a misspelled key in it is refused.
func TestConfigStore_FromFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.yaml")
	os.WriteFile(p, []byte("store:\n  driver: postgres\n  dsn: postgres://cb@127.0.0.1:5432/cb\n"), 0o600)
	c, err := Load(p)
	if err != nil || c.Store.Driver != "postgres" || c.Store.DSN != "postgres://cb@127.0.0.1:5432/cb" {
		t.Fatalf("%+v %v", c, err)
	}
	os.WriteFile(p, []byte("store:\n  dns: postgres://cb@h/cb\n"), 0o600)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "dns") {
		t.Fatalf("misspelled key: %v", err)
	}
	if Default().Store.Driver != "sqlite" {
		t.Fatal("default driver is not sqlite")
	}
}
