package config

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
)

// Store says where clawbridge keeps its state: the SQLite file in data_dir
// (one instance), or a PostgreSQL database several instances share. The
// password is never in the file: password_env names the variable that
// holds it.
type Store struct {
	Driver      string `yaml:"driver"`       // sqlite | postgres
	DSN         string `yaml:"dsn"`          // postgres://user@host:5432/db?sslmode=..., no password
	PasswordEnv string `yaml:"password_env"` // the environment variable holding the password
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate checks the store section; messages never repeat a password.
func (s Store) Validate() error {
	switch s.Driver {
	case "sqlite":
		if s.DSN != "" || s.PasswordEnv != "" {
			return fmt.Errorf("config: store.dsn and store.password_env are for store.driver: postgres; the sqlite store lives in data_dir")
		}
		return nil
	case "postgres":
	default:
		return fmt.Errorf("config: store.driver must be sqlite or postgres, not %q", s.Driver)
	}
	if s.DSN == "" {
		return fmt.Errorf("config: store.dsn is required with store.driver: postgres, e.g. postgres://clawbridge@db.internal:5432/clawbridge?sslmode=verify-full")
	}
	u, err := url.Parse(s.DSN)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
		return fmt.Errorf("config: store.dsn must be a URL such as postgres://user@host:5432/db?sslmode=disable")
	}
	if _, has := u.User.Password(); has || u.Query().Has("password") {
		return fmt.Errorf("config: store.dsn holds a password; remove it and name the environment variable that holds it in store.password_env")
	}
	if s.PasswordEnv != "" {
		if !envName.MatchString(s.PasswordEnv) {
			return fmt.Errorf("config: store.password_env must name an environment variable (letters, digits, _), not %q", s.PasswordEnv)
		}
		if os.Getenv(s.PasswordEnv) == "" {
			return fmt.Errorf("config: store.password_env names %s, which is not set or empty", s.PasswordEnv)
		}
	}
	return nil
}

// Password is the store's password from the environment ("" without one).
func (s Store) Password() string {
	if s.PasswordEnv == "" {
		return ""
	}
	return os.Getenv(s.PasswordEnv)
}
