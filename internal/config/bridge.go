package config

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"time"
)

// Bridge configures mcp_bridge: the user's other MCP servers that
// clawbridge starts (stdio) or reaches (HTTP) on their behalf.
type Bridge struct {
	Servers []BridgeServer `yaml:"servers"`
	// StartTimeout bounds starting a server and reading its manifest.
	StartTimeout time.Duration `yaml:"start_timeout"`
	// CallTimeout bounds one downstream call (a server may set its own).
	CallTimeout time.Duration `yaml:"call_timeout"`
	// IdleStop stops a stdio server after this long without a call.
	IdleStop time.Duration `yaml:"idle_stop"`
}

// BridgeServer is one downstream MCP server: a stdio command or an HTTP URL.
type BridgeServer struct {
	Name string `yaml:"name"`
	// stdio
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"`      // set as given (the entry names them, so they are passed)
	PassEnv []string          `yaml:"pass_env"` // names copied from clawbridge's environment
	Cwd     string            `yaml:"cwd"`
	// HTTP
	URL       string            `yaml:"url"`
	Transport string            `yaml:"transport"` // streamable (default) | sse
	Headers   map[string]string `yaml:"headers"`
	// TokenEnv names the environment variable holding a bearer token; the
	// token itself is never in the config, the logs or a result.
	TokenEnv string `yaml:"token_env"`

	// Level is the permission level of every call to this server.
	Level string `yaml:"level"` // read | write | high (default)
	// TrustAnnotations lets a tool's readOnlyHint lower its level to read.
	TrustAnnotations bool          `yaml:"trust_annotations"`
	Allow            []string      `yaml:"allow"` // tool names; empty: all
	Deny             []string      `yaml:"deny"`
	Intents          []string      `yaml:"intents"`  // routing hints: intent keys
	Keywords         []string      `yaml:"keywords"` // routing hints, any language
	Publish          string        `yaml:"publish"`  // tools (default) | bridge_only
	Timeout          time.Duration `yaml:"timeout"`  // per call; 0: bridge.call_timeout
}

// bridgeNameRE: the server name prefixes its tools as <server>__<tool>,
// so it is short, lower-case and has no "__" of its own.
var bridgeNameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]|_[a-z0-9])*$`)

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func defaultBridge() Bridge {
	return Bridge{StartTimeout: 30 * time.Second, CallTimeout: 2 * time.Minute, IdleStop: 10 * time.Minute}
}

// Validate checks the bridge section.
func (b *Bridge) Validate() error {
	if b.StartTimeout <= 0 || b.CallTimeout <= 0 || b.IdleStop <= 0 {
		return errors.New("config: bridge.start_timeout, call_timeout and idle_stop must be positive durations such as 30s")
	}
	seen := map[string]bool{}
	for i := range b.Servers {
		s := &b.Servers[i]
		at := fmt.Sprintf("bridge.servers[%d]", i)
		if !bridgeNameRE.MatchString(s.Name) || len(s.Name) > 32 {
			return fmt.Errorf("config: %s.name %q must be 1-32 lower-case letters, digits, '-' or single '_' (it prefixes the tools as <name>__<tool>)", at, s.Name)
		}
		if seen[s.Name] {
			return fmt.Errorf("config: %s: server name %q is used twice", at, s.Name)
		}
		seen[s.Name] = true
		at = "bridge.servers." + s.Name
		switch {
		case (s.Command == "") == (s.URL == ""):
			return fmt.Errorf("config: %s needs exactly one of command (stdio) or url (HTTP)", at)
		case s.Command != "" && (s.Transport != "" || len(s.Headers) > 0 || s.TokenEnv != ""):
			return fmt.Errorf("config: %s: transport, headers and token_env are for url servers", at)
		case s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0 || len(s.PassEnv) > 0 || s.Cwd != ""):
			return fmt.Errorf("config: %s: args, env, pass_env and cwd are for command servers", at)
		}
		if s.URL != "" {
			u, err := url.Parse(s.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("config: %s.url must be an http:// or https:// URL", at)
			}
			if u.User != nil {
				return fmt.Errorf("config: %s.url must not carry credentials; use token_env", at)
			}
		}
		switch s.Transport {
		case "":
			if s.URL != "" {
				s.Transport = "streamable"
			}
		case "streamable", "sse":
		default:
			return fmt.Errorf("config: %s.transport must be streamable or sse, not %q", at, s.Transport)
		}
		if s.TokenEnv != "" && !envNameRE.MatchString(s.TokenEnv) {
			return fmt.Errorf("config: %s.token_env must be an environment variable name, not %q", at, s.TokenEnv)
		}
		for _, n := range s.PassEnv {
			if !envNameRE.MatchString(n) {
				return fmt.Errorf("config: %s.pass_env: %q is not an environment variable name", at, n)
			}
		}
		for n := range s.Env {
			if !envNameRE.MatchString(n) {
				return fmt.Errorf("config: %s.env: %q is not an environment variable name", at, n)
			}
		}
		switch s.Level {
		case "":
			s.Level = "high"
		case "read", "write", "high":
		default:
			return fmt.Errorf("config: %s.level must be read, write or high, not %q", at, s.Level)
		}
		switch s.Publish {
		case "":
			s.Publish = "tools"
		case "tools", "bridge_only":
		default:
			return fmt.Errorf("config: %s.publish must be tools or bridge_only, not %q", at, s.Publish)
		}
		if s.Timeout < 0 {
			return fmt.Errorf("config: %s.timeout must not be negative", at)
		}
		if s.Timeout == 0 {
			s.Timeout = b.CallTimeout
		}
		s.Cwd = expandHome(s.Cwd)
	}
	return nil
}
