package email

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.email` section. The SMTP password is never in it:
// password_env names the environment variable that holds it.
type Config struct {
	Host string `yaml:"host"` // empty: drafts work, send answers that no server is configured
	Port int    `yaml:"port"` // default 587 (starttls) or 465 (tls)
	// Security is starttls (required, default) or tls (implicit TLS). There
	// is no plain-text mode: the password would cross the wire in clear.
	Security    string `yaml:"security"`
	Auth        string `yaml:"auth"` // plain (default) or login
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env"`
	From        string `yaml:"from"` // "Name <addr>"; the sender of every message
	// CAFile is a PEM bundle trusted besides the system roots (a company
	// relay with its own CA).
	CAFile string `yaml:"ca_file"`
	// AllowRecipients, when not empty, is the only addresses ("a@b.org")
	// and domains ("example.org", which includes its subdomains) mail may go to.
	AllowRecipients []string      `yaml:"allow_recipients"`
	Timeout         time.Duration `yaml:"timeout"`
	// MaxAttachmentMB bounds the attachments of one message together.
	MaxAttachmentMB int `yaml:"max_attachment_mb"`
}

// DefaultConfig sends nothing until a host is set.
func DefaultConfig() Config {
	return Config{Security: "starttls", Auth: "plain", Timeout: 30 * time.Second, MaxAttachmentMB: 20}
}

// Validate checks the section.
func (c *Config) Validate() error {
	var errs []error
	if c.Security != "starttls" && c.Security != "tls" {
		errs = append(errs, fmt.Errorf("security must be starttls or tls, got %q", c.Security))
	}
	if c.Auth != "plain" && c.Auth != "login" {
		errs = append(errs, fmt.Errorf("auth must be plain or login, got %q", c.Auth))
	}
	if c.Port < 0 || c.Port > 65535 {
		errs = append(errs, fmt.Errorf("port must be between 1 and 65535, got %d", c.Port))
	}
	if c.From != "" {
		if _, err := mail.ParseAddress(c.From); err != nil {
			errs = append(errs, fmt.Errorf("from: %v", err))
		}
	}
	if c.Host != "" && c.From == "" {
		errs = append(errs, errors.New("from is required when host is set"))
	}
	if c.Username != "" && c.PasswordEnv == "" {
		errs = append(errs, errors.New("password_env is required with username (the password comes from that environment variable, never from the file)"))
	}
	for _, a := range c.AllowRecipients {
		if strings.TrimSpace(a) == "" || strings.ContainsAny(a, " <>,") {
			errs = append(errs, fmt.Errorf("allow_recipients: %q is not an address or a domain", a))
		}
	}
	errs = append(errs, config.AtLeast("timeout", c.Timeout, time.Second), config.AtLeast("max_attachment_mb", c.MaxAttachmentMB, 1))
	return errors.Join(errs...)
}

func (c *Config) port() int {
	switch {
	case c.Port != 0:
		return c.Port
	case c.Security == "tls":
		return 465
	}
	return 587
}
