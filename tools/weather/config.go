package weather

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.weather` section: Open-Meteo's three services.
type Config struct {
	ForecastURL  string        `yaml:"forecast_url"`
	ArchiveURL   string        `yaml:"archive_url"`
	GeocodingURL string        `yaml:"geocoding_url"`
	Timeout      time.Duration `yaml:"timeout"`
	// CacheTTL keeps an answer per place and kind (default ten minutes).
	CacheTTL time.Duration `yaml:"cache_ttl"`
}

// DefaultConfig is Open-Meteo's free endpoints (no key).
func DefaultConfig() Config {
	return Config{
		ForecastURL:  "https://api.open-meteo.com",
		ArchiveURL:   "https://archive-api.open-meteo.com",
		GeocodingURL: "https://geocoding-api.open-meteo.com",
		Timeout:      10 * time.Second,
		CacheTTL:     10 * time.Minute,
	}
}

// Validate refuses an empty endpoint and a zero timeout.
func (c *Config) Validate() error {
	var errs []error
	for k, v := range map[string]string{"forecast_url": c.ForecastURL, "archive_url": c.ArchiveURL, "geocoding_url": c.GeocodingURL} {
		if v == "" {
			errs = append(errs, errors.New(k+" must not be empty"))
		}
	}
	errs = append(errs, config.AtLeast("timeout", c.Timeout, time.Millisecond), config.AtLeast("cache_ttl", c.CacheTTL, 0))
	return errors.Join(errs...)
}
