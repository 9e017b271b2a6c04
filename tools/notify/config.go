package notify

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.notify` section. No URL that carries a credential
// and no secret is ever in it: url_env, secret_env and header_envs name the
// environment variables that hold them.
type Config struct {
	Targets []Target `yaml:"targets"`
	// AllowRawURLs lets the model give a webhook URL instead of a target
	// name; it still passes the outbound guard.
	AllowRawURLs bool `yaml:"allow_raw_urls"`
	// MinInterval between two requests to one target (its rate limit).
	MinInterval time.Duration `yaml:"min_interval"`
	// Retries after an HTTP 429 or 5xx (never after another 4xx).
	Retries int `yaml:"retries"`
	// RetryWaitMax caps one wait, whatever Retry-After asks for.
	RetryWaitMax time.Duration `yaml:"retry_wait_max"`
	// MaxParts bounds how many messages one long text is split into.
	MaxParts int           `yaml:"max_parts"`
	Timeout  time.Duration `yaml:"timeout"`
}

// Target is one named destination.
type Target struct {
	Name string `yaml:"name"`
	Kind string `yaml:"kind"` // webhook, slack, feishu (also Lark), dingtalk, wecom, ntfy
	// URL is allowed for ntfy (the server) and webhook only; the others'
	// URLs carry their credential and come from URLEnv.
	URL    string `yaml:"url"`
	URLEnv string `yaml:"url_env"`
	// SecretEnv: the signing secret (feishu, dingtalk) or the access token
	// (ntfy, sent as a bearer token).
	SecretEnv string `yaml:"secret_env"`
	// ntfy
	Topic    string   `yaml:"topic"`
	Priority string   `yaml:"priority"` // 1-5 or min, low, default, high, max/urgent
	Tags     []string `yaml:"tags"`
	// webhook
	Headers      map[string]string `yaml:"headers"`
	HeaderEnvs   map[string]string `yaml:"header_envs"` // header name -> env var holding its value
	BodyTemplate string            `yaml:"body_template"`
	// MaxLength replaces the platform's limit, in the platform's unit
	// (characters or bytes, see the README); 0 keeps the platform's.
	MaxLength int `yaml:"max_length"`
}

// DefaultConfig has no targets: send answers that none is configured.
func DefaultConfig() Config {
	return Config{MinInterval: time.Second, Retries: 2, RetryWaitMax: 30 * time.Second, MaxParts: 10, Timeout: 15 * time.Second}
}

var (
	targetNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	envNameRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	ntfyPriority = map[string]string{"1": "1", "2": "2", "3": "3", "4": "4", "5": "5",
		"min": "1", "low": "2", "default": "3", "high": "4", "max": "5", "urgent": "5"}
)

// Validate checks the section.
func (c *Config) Validate() error {
	errs := []error{config.AtLeast("min_interval", c.MinInterval, 0), config.AtLeast("retries", c.Retries, 0),
		config.AtLeast("retry_wait_max", c.RetryWaitMax, 0), config.AtLeast("max_parts", c.MaxParts, 1),
		config.AtLeast("timeout", c.Timeout, time.Second)}
	seen := map[string]bool{}
	for i, t := range c.Targets {
		if err := t.validate(); err != nil {
			errs = append(errs, fmt.Errorf("targets[%d] (%s): %w", i, t.Name, err))
		}
		if seen[t.Name] {
			errs = append(errs, fmt.Errorf("targets[%d]: duplicate name %q", i, t.Name))
		}
		seen[t.Name] = true
	}
	return errors.Join(errs...)
}

func (t *Target) validate() error {
	var errs []error
	if !targetNameRE.MatchString(t.Name) {
		errs = append(errs, fmt.Errorf("name %q must be letters, digits, '-', '_' or '.'", t.Name))
	}
	p, ok := platforms[t.Kind]
	if !ok {
		return errors.Join(append(errs, fmt.Errorf("kind must be one of %s, got %q", kindList(), t.Kind))...)
	}
	switch {
	case t.URL != "" && t.URLEnv != "":
		errs = append(errs, errors.New("give url or url_env, not both"))
	case t.URL != "" && p.urlIsSecret:
		errs = append(errs, fmt.Errorf("a %s URL carries its credential: put it in an environment variable and name it in url_env", t.Kind))
	case t.URL == "" && t.URLEnv == "" && t.Kind != "ntfy":
		errs = append(errs, errors.New("url_env is required (the environment variable holding the webhook URL)"))
	case t.URL != "":
		if u, err := url.Parse(t.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			errs = append(errs, fmt.Errorf("url %q is not an http(s) URL", t.URL))
		}
	}
	for _, e := range []string{t.URLEnv, t.SecretEnv} {
		if e != "" && !envNameRE.MatchString(e) {
			errs = append(errs, fmt.Errorf("%q is not an environment variable name", e))
		}
	}
	for h, e := range t.HeaderEnvs {
		if !envNameRE.MatchString(e) {
			errs = append(errs, fmt.Errorf("header_envs[%s]: %q is not an environment variable name", h, e))
		}
	}
	if t.SecretEnv != "" && t.Kind != "feishu" && t.Kind != "dingtalk" && t.Kind != "ntfy" {
		errs = append(errs, fmt.Errorf("secret_env is for feishu, dingtalk and ntfy; a %s target has no secret (webhook: header_envs)", t.Kind))
	}
	if t.Kind == "ntfy" {
		if t.Topic == "" || strings.ContainsAny(t.Topic, "/?# ") {
			errs = append(errs, fmt.Errorf("ntfy needs topic (one path segment), got %q", t.Topic))
		}
		if _, ok := ntfyPriority[strings.ToLower(t.Priority)]; t.Priority != "" && !ok {
			errs = append(errs, fmt.Errorf("priority must be 1-5 or min, low, default, high, max, urgent; got %q", t.Priority))
		}
	} else if t.Topic != "" || t.Priority != "" || len(t.Tags) > 0 {
		errs = append(errs, errors.New("topic, priority and tags are for ntfy targets"))
	}
	if t.Kind == "webhook" {
		if _, err := parseBodyTemplate(t.BodyTemplate); err != nil {
			errs = append(errs, err)
		}
	} else if t.BodyTemplate != "" || len(t.Headers) > 0 || len(t.HeaderEnvs) > 0 {
		errs = append(errs, errors.New("body_template, headers and header_envs are for webhook targets"))
	}
	if t.MaxLength < 0 {
		errs = append(errs, fmt.Errorf("max_length must be at least 0, got %d", t.MaxLength))
	}
	return errors.Join(errs...)
}
