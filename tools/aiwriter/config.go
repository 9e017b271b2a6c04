package aiwriter

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Config is the `tools.ai_writer` section.
type Config struct {
	// Endpoint is an OpenAI-compatible chat-completions server, used when
	// the client offers no MCP sampling. Its key is never in the file:
	// api_key_env names the environment variable holding it.
	Endpoint Endpoint `yaml:"endpoint"`
	// MaxTokens bounds one model answer (one section of a draft).
	MaxTokens int `yaml:"max_tokens"`
	// ModelHints are the models asked for through sampling, in order of
	// preference (substrings of model names, e.g. "claude-sonnet").
	ModelHints []string `yaml:"model_hints"`
	// MaxSections bounds a draft's sections (one model call each).
	MaxSections int `yaml:"max_sections"`
	// MaxInputChars bounds the text given to continue, polish, summarise
	// and translate.
	MaxInputChars int `yaml:"max_input_chars"`
}

// Endpoint names a chat-completions server.
type Endpoint struct {
	BaseURL   string        `yaml:"base_url"` // e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1
	Model     string        `yaml:"model"`
	APIKeyEnv string        `yaml:"api_key_env"` // empty: no Authorization header (a local server)
	Stream    bool          `yaml:"stream"`      // stream the answer (server-sent events)
	Timeout   time.Duration `yaml:"timeout"`
}

// DefaultConfig asks only the client's model until an endpoint is set.
func DefaultConfig() Config {
	return Config{MaxTokens: 2048, MaxSections: 12, MaxInputChars: 100_000,
		Endpoint: Endpoint{Stream: true, Timeout: 2 * time.Minute}}
}

// Validate checks the section.
func (c *Config) Validate() error {
	errs := []error{
		config.AtLeast("max_tokens", c.MaxTokens, 16),
		config.AtLeast("max_sections", c.MaxSections, 1),
		config.AtLeast("max_input_chars", c.MaxInputChars, 1000),
		config.AtLeast("endpoint.timeout", c.Endpoint.Timeout, time.Second),
	}
	if e := c.Endpoint; e.BaseURL != "" {
		u, err := url.Parse(e.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("endpoint.base_url must be an http(s) URL such as https://api.openai.com/v1, got %q", e.BaseURL))
		}
		if e.Model == "" {
			errs = append(errs, errors.New("endpoint.model is required with endpoint.base_url"))
		}
	} else if e.Model != "" || e.APIKeyEnv != "" {
		errs = append(errs, errors.New("endpoint.base_url is required with endpoint.model or endpoint.api_key_env"))
	}
	return errors.Join(errs...)
}
