package search

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.search` section.
type Config struct {
	// Backends in the order tried: a failing one falls back to the next.
	Backends   []string         `yaml:"backends"`
	DuckDuckGo DuckDuckGoConfig `yaml:"duckduckgo"`
	SearXNG    SearXNGConfig    `yaml:"searxng"`
	Brave      BraveConfig      `yaml:"brave"`
	Timeout    time.Duration    `yaml:"timeout"`
	// CacheTTL keeps answers briefly (0 turns the cache off).
	CacheTTL time.Duration `yaml:"cache_ttl"`
	// MinInterval between two requests to one backend.
	MinInterval time.Duration `yaml:"min_interval"`
	UserAgent   string        `yaml:"user_agent"`
}

// DuckDuckGoConfig: the HTML endpoint, no key.
type DuckDuckGoConfig struct {
	BaseURL string `yaml:"base_url"`
}

// SearXNGConfig: an instance with the JSON format enabled.
type SearXNGConfig struct {
	BaseURL string `yaml:"base_url"`
}

// BraveConfig: the Brave Search API; the key comes from the file or from
// the environment variable named by APIKeyEnv.
type BraveConfig struct {
	BaseURL   string `yaml:"base_url"`
	APIKey    string `yaml:"api_key"`
	APIKeyEnv string `yaml:"api_key_env"`
}

var backendNames = []string{"duckduckgo", "searxng", "brave"}

// DefaultConfig: DuckDuckGo only, which needs no key.
func DefaultConfig() Config {
	return Config{
		Backends:    []string{"duckduckgo"},
		DuckDuckGo:  DuckDuckGoConfig{BaseURL: "https://html.duckduckgo.com"},
		Brave:       BraveConfig{BaseURL: "https://api.search.brave.com", APIKeyEnv: "BRAVE_API_KEY"},
		Timeout:     10 * time.Second,
		CacheTTL:    5 * time.Minute,
		MinInterval: time.Second,
		UserAgent:   "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	}
}

// Validate refuses an unknown or repeated backend, an empty list, a backend
// listed without its base URL, and limits that cannot work.
func (c *Config) Validate() error {
	var errs []error
	if len(c.Backends) == 0 {
		errs = append(errs, errors.New("backends must name at least one of duckduckgo, searxng, brave"))
	}
	for i, b := range c.Backends {
		if !slices.Contains(backendNames, b) {
			errs = append(errs, fmt.Errorf("backends: unknown backend %q (one of duckduckgo, searxng, brave)", b))
		} else if slices.Index(c.Backends, b) != i {
			errs = append(errs, fmt.Errorf("backends: %q is listed twice", b))
		}
		if b == "searxng" && c.SearXNG.BaseURL == "" {
			errs = append(errs, errors.New("searxng.base_url is required when searxng is a backend"))
		}
	}
	errs = append(errs,
		config.AtLeast("timeout", c.Timeout, time.Millisecond),
		config.AtLeast("cache_ttl", c.CacheTTL, 0),
		config.AtLeast("min_interval", c.MinInterval, 0))
	return errors.Join(errs...)
}
