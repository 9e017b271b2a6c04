package browser

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.browser` section of the clawbridge config. Every field
// has a working default (DefaultConfig).
type Config struct {
	// Path is the Chromium executable; empty: look for chromium, chrome... on PATH.
	Path string `yaml:"path"`
	// Headless runs without a window (default true).
	Headless bool `yaml:"headless"`
	// IdleTimeout stops the browser after this long without a call (0: never).
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// NavigationTimeout bounds one navigation; ActionTimeout one page action.
	NavigationTimeout time.Duration `yaml:"navigation_timeout"`
	ActionTimeout     time.Duration `yaml:"action_timeout"`
	// AllowedOrigins, when not empty, are the only origins pages may request;
	// BlockedOrigins are always refused. Entries: "https://example.com",
	// "example.com" (any scheme and port), "*.example.com" (subdomains too).
	AllowedOrigins []string `yaml:"allowed_origins"`
	BlockedOrigins []string `yaml:"blocked_origins"`
	// AllowEvaluate enables the `evaluate` action (arbitrary JavaScript).
	AllowEvaluate bool `yaml:"allow_evaluate"`
	// Viewport is the page size in CSS pixels.
	ViewportWidth  int `yaml:"viewport_width"`
	ViewportHeight int `yaml:"viewport_height"`
	// SnapshotChars is the default character budget of one snapshot page.
	SnapshotChars int `yaml:"snapshot_chars"`
	// MaxTabs caps the tabs of one session.
	MaxTabs int `yaml:"max_tabs"`
	// DownloadDir receives downloads; default <workspace>/outputs/downloads.
	DownloadDir string `yaml:"download_dir"`
	// UserAgent overrides the browser's user agent; empty keeps Chromium's.
	UserAgent string `yaml:"user_agent"`
	// ExtraFlags are added to Chromium's command line ("--flag=value").
	ExtraFlags []string `yaml:"extra_flags"`
}

// DefaultConfig is the zero-config browser setup.
func DefaultConfig() Config {
	return Config{
		Headless:          true,
		IdleTimeout:       10 * time.Minute,
		NavigationTimeout: 30 * time.Second,
		ActionTimeout:     10 * time.Second,
		ViewportWidth:     1280,
		ViewportHeight:    800,
		SnapshotChars:     12000,
		MaxTabs:           8,
	}
}

// FromConfig reads the `tools.browser` section over the defaults and fills
// the download dir from the first workspace root.
func FromConfig(c *config.Config) (Config, error) {
	bc := DefaultConfig()
	if c == nil {
		return bc, nil
	}
	if err := c.Section("browser", &bc); err != nil { // runs bc.Validate
		return bc, err
	}
	if bc.DownloadDir == "" && len(c.Workspace) > 0 {
		bc.DownloadDir = filepath.Join(c.Workspace[0], "outputs", "downloads")
	}
	return bc, nil
}

// Validate fills zero values with defaults and checks the origin lists;
// config.Section calls it after decoding the section.
func (c *Config) Validate() error { return c.normalize() }

func (c *Config) normalize() error {
	d := DefaultConfig()
	positiveOr(&c.NavigationTimeout, d.NavigationTimeout)
	positiveOr(&c.ActionTimeout, d.ActionTimeout)
	positiveOr(&c.ViewportWidth, d.ViewportWidth)
	positiveOr(&c.ViewportHeight, d.ViewportHeight)
	positiveOr(&c.SnapshotChars, d.SnapshotChars)
	positiveOr(&c.MaxTabs, d.MaxTabs)
	if c.IdleTimeout < 0 {
		c.IdleTimeout = 0
	}
	if _, err := parseOrigins(c.AllowedOrigins); err != nil {
		return fmt.Errorf("browser allowed_origins: %w", err)
	}
	if _, err := parseOrigins(c.BlockedOrigins); err != nil {
		return fmt.Errorf("browser blocked_origins: %w", err)
	}
	return nil
}

// positiveOr sets *v to def when *v is zero or negative (unset in the file).
func positiveOr[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
