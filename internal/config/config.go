// Package config loads clawbridge's configuration: built-in defaults, then the
// YAML file, then CLAWBRIDGE_* environment variables, then flags (applied by
// the caller). Every field has a working default so zero-config runs.
package config

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is the whole configuration.
type Config struct {
	Workspace []string `yaml:"workspace"` // workspace roots; the first is the default
	DataDir   string   `yaml:"data_dir"`
	LogFile   string   `yaml:"log_file"` // empty: stderr
	LogLevel  string   `yaml:"log_level"`
	// ShutdownGrace is how long calls in flight may run on after SIGTERM or
	// SIGINT before they are cancelled and the process exits.
	ShutdownGrace time.Duration `yaml:"shutdown_grace"`

	HTTP    HTTP   `yaml:"http"`
	Confirm string `yaml:"confirm"` // elicit | approve | token | auto | deny
	// ApproveTimeout is how long a call waits for `clawbridge approve`
	// (policy approve, and elicit where the client cannot be asked) when
	// the call is `clawbridge call`'s; MCP clients are answered at once.
	ApproveTimeout time.Duration `yaml:"approve_timeout"`
	Limits         Limits        `yaml:"limits"`
	Network        Network       `yaml:"network"`
	Exposure       Exposure      `yaml:"exposure"`
	Shell          Shell         `yaml:"shell"`
	System         System        `yaml:"system"`
	Jail           Jail          `yaml:"jail"`
	Bridge         Bridge        `yaml:"bridge"` // downstream MCP servers (bridge.go)
	Store          Store         `yaml:"store"`  // where shared state lives (store.go)

	// Tools holds the sections of tools that own their config, by tool name.
	// A tool decodes its own section with Section.
	Tools map[string]yaml.Node `yaml:"tools"`

	// TrustClientRoots lets a stdio client's MCP roots replace Workspace
	// instead of narrowing it (workspace.trust_client_roots, workspace.go).
	TrustClientRoots bool `yaml:"-"`

	// Path is the file this config was read from, if any.
	Path string `yaml:"-"`

	fromEnv   map[string]envValue // key → the CLAWBRIDGE_* variable that set it
	sections  *sectionLog         // the tool sections read so far (sections.go)
	toolLines map[string]int      // line of each key under tools, for messages
}

// HTTP configures the HTTP transports.
type HTTP struct {
	Addr           string        `yaml:"addr"`
	Token          string        `yaml:"token"`
	AllowedOrigins []string      `yaml:"allowed_origins"` // scheme://host:port, matched with the port
	AllowedHosts   []string      `yaml:"allowed_hosts"`
	MaxBodyBytes   int64         `yaml:"max_body_bytes"` // also the cap on one stdio line
	SessionIdleTTL time.Duration `yaml:"session_idle_ttl"`
	MaxSessions    int           `yaml:"max_sessions"` // live SSE and streamable sessions
	// Instance names this instance among several behind a load balancer:
	// its streamable session ids start with "mcp-session-<instance>-", so
	// the balancer can send a session's requests to the instance that made it.
	Instance string `yaml:"instance"`
	// Slow clients: the request headers and the body must each arrive
	// within these; an idle keep-alive connection is closed after IdleTimeout.
	ReadHeaderTimeout time.Duration `yaml:"read_header_timeout"`
	BodyTimeout       time.Duration `yaml:"body_timeout"`
	IdleTimeout       time.Duration `yaml:"idle_timeout"`
}

// validInstance says whether name may be http.instance: 1 to 32 lower-case
// letters and digits, nothing a load balancer's pattern on the session id
// would need to escape, and no "-", so one name's prefix never matches another's.
func validInstance(name string) bool {
	if len(name) < 1 || len(name) > 32 {
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// Limits configures the call pipeline.
type Limits struct {
	ConcurrentCalls int           `yaml:"concurrent_calls"` // per session
	ResultChars     int           `yaml:"result_chars"`     // text the model sees
	LoopRepeats     int           `yaml:"loop_repeats"`     // identical calls in a row before refusing
	FastTimeout     time.Duration `yaml:"fast_timeout"`
	NormalTimeout   time.Duration `yaml:"normal_timeout"`
	SlowTimeout     time.Duration `yaml:"slow_timeout"`
	// ImageMB caps one workspace image a document embeds (doc_generator,
	// ppt_generator, format_converter).
	ImageMB int `yaml:"image_mb"`
}

// Network configures the outbound guard.
type Network struct {
	// AllowHosts lists host names, IPs or CIDRs that may be reached even
	// though they are private or loopback (fixture servers, a LAN service).
	AllowHosts []string `yaml:"allow_hosts"`
}

// Exposure configures progressive tool exposure.
type Exposure struct {
	Mode              string   `yaml:"mode"` // auto | tiered | full | search
	RecommendedAt     float64  `yaml:"recommended_at"`
	ExtendedAt        float64  `yaml:"extended_at"`
	Core              []string `yaml:"core"`
	FailuresToUpgrade int      `yaml:"failures_to_upgrade"`
	// NarrowAfterCalls consecutive calls within one intent family narrow a
	// session that never routed to that family's tools (0: never).
	NarrowAfterCalls int `yaml:"narrow_after_calls"`
	// PinCalls is how many calls a called tool stays pinned in the view.
	PinCalls int `yaml:"pin_calls"`
	// TablesFile is a JSON file overriding parts of the embedded routing
	// tables (keywords, intent-tool mapping, priorities, client modes...).
	TablesFile string `yaml:"tables_file"`
}

// Shell configures the shell tool.
type Shell struct {
	ReadOnlyPrograms []string      `yaml:"read_only_programs"`
	AllowShell       bool          `yaml:"allow_shell"` // allow `sh -c` command lines
	Timeout          time.Duration `yaml:"timeout"`
	MaxOutputBytes   int           `yaml:"max_output_bytes"`
	PassEnv          []string      `yaml:"pass_env"` // extra variables kept in the scrubbed environment
}

// Jail bounds every program run in the jail (internal/jail): LibreOffice,
// pdftotext and read-level shell calls.
type Jail struct {
	CPUSeconds int `yaml:"cpu_seconds"`
	MemoryMB   int `yaml:"memory_mb"` // address space
	Processes  int `yaml:"processes"`
	FileSizeMB int `yaml:"file_size_mb"` // per file, and the size of the jail's /tmp
}

// System configures the system tool.
type System struct {
	Services []Service `yaml:"services"`
	LogFiles []LogFile `yaml:"log_files"`
}

// Service is an HTTP health check.
type Service struct {
	Name string `yaml:"name"`
	URL  string `yaml:"url"`
}

// LogFile is a log file the system tool may tail.
type LogFile struct {
	Name string `yaml:"name"`
	Path string `yaml:"path"`
}

// Default returns the built-in configuration.
func Default() *Config {
	home, _ := os.UserHomeDir()
	return &Config{
		sections:      &sectionLog{},
		Workspace:     []string{filepath.Join(home, "clawbridge-workspace")},
		DataDir:       filepath.Join(xdg("XDG_DATA_HOME", filepath.Join(home, ".local", "share")), "clawbridge"),
		LogLevel:      "info",
		ShutdownGrace: 5 * time.Second,
		HTTP: HTTP{
			Addr:              "127.0.0.1:8765",
			MaxBodyBytes:      4 << 20,
			SessionIdleTTL:    30 * time.Minute,
			MaxSessions:       100,
			ReadHeaderTimeout: 10 * time.Second,
			BodyTimeout:       30 * time.Second,
			IdleTimeout:       2 * time.Minute,
		},
		Confirm:        "elicit",
		ApproveTimeout: 50 * time.Second, // inside the 60 s many clients allow a request
		Limits: Limits{
			ConcurrentCalls: 3,
			ResultChars:     20000,
			LoopRepeats:     3,
			FastTimeout:     30 * time.Second,
			NormalTimeout:   2 * time.Minute,
			SlowTimeout:     10 * time.Minute,
			ImageMB:         20,
		},
		Exposure: Exposure{
			Mode:              "auto",
			RecommendedAt:     0.8,
			ExtendedAt:        0.5,
			Core:              []string{"file", "shell", "search", "web_fetch"},
			FailuresToUpgrade: 2,
			NarrowAfterCalls:  1,
			PinCalls:          10,
		},
		Shell: Shell{
			ReadOnlyPrograms: []string{"ls", "cat", "head", "tail", "wc", "pwd", "date", "whoami", "uname", "echo", "grep", "find", "stat", "du", "df", "file", "sha256sum", "md5sum", "sort", "uniq", "diff", "tree", "which", "env", "printenv", "id", "hostname", "uptime", "free", "ps"},
			Timeout:          60 * time.Second,
			MaxOutputBytes:   64 << 10,
		},
		Jail:   Jail{CPUSeconds: 120, MemoryMB: 4096, Processes: 256, FileSizeMB: 1024},
		Bridge: defaultBridge(),
		Store:  Store{Driver: "sqlite"},
	}
}

func xdg(env, def string) string {
	if v := os.Getenv(env); v != "" {
		return v
	}
	return def
}

// DefaultPath is the XDG location of the config file.
func DefaultPath() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(xdg("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "clawbridge", "config.yaml")
}

// Load reads defaults, then the file at path (or the default path, or
// CLAWBRIDGE_CONFIG) if it exists, then the environment.
func Load(path string) (*Config, error) {
	c := Default()
	explicit := path != ""
	if path == "" {
		path = os.Getenv("CLAWBRIDGE_CONFIG")
		explicit = path != ""
	}
	if path == "" {
		path = DefaultPath()
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		c.Path = path
		if err := yaml.Unmarshal(data, c); err != nil {
			return nil, c.fileError(decodeErrors(err)...)
		}
	case errors.Is(err, os.ErrNotExist) && !explicit:
	default:
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.applyEnv(os.Getenv); err != nil {
		return nil, err
	}
	c.expand()
	return c, c.Validate()
}

// applyEnv applies CLAWBRIDGE_* overrides and remembers which keys they set,
// so that a bad value is reported with the variable that carried it.
func (c *Config) applyEnv(get func(string) string) error {
	c.fromEnv = map[string]envValue{}
	set := func(name, key string, apply func(v string) string) {
		if v := get(name); v != "" {
			c.fromEnv[key] = envValue{name, apply(v)}
		}
	}
	str := func(name, key string, dst *string) {
		set(name, key, func(v string) string { *dst = v; return v })
	}
	list := func(name, key string, dst *[]string) {
		set(name, key, func(v string) string { *dst = splitList(v); return strings.Join(*dst, ",") })
	}
	list("CLAWBRIDGE_WORKSPACE", "workspace", &c.Workspace)
	str("CLAWBRIDGE_DATA_DIR", "data_dir", &c.DataDir)
	str("CLAWBRIDGE_LOG_FILE", "log_file", &c.LogFile)
	str("CLAWBRIDGE_LOG_LEVEL", "log_level", &c.LogLevel)
	str("CLAWBRIDGE_HTTP_ADDR", "http.addr", &c.HTTP.Addr)
	str("CLAWBRIDGE_TOKEN", "http.token", &c.HTTP.Token)
	list("CLAWBRIDGE_ALLOWED_ORIGINS", "http.allowed_origins", &c.HTTP.AllowedOrigins)
	str("CLAWBRIDGE_CONFIRM", "confirm", &c.Confirm)
	str("CLAWBRIDGE_EXPOSURE", "exposure.mode", &c.Exposure.Mode)
	set("CLAWBRIDGE_ALLOW_HOSTS", "network.allow_hosts", func(v string) string {
		c.Network.AllowHosts = append(c.Network.AllowHosts, splitList(v)...)
		return ""
	})
	if v := get("CLAWBRIDGE_ALLOW_SHELL"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("config: CLAWBRIDGE_ALLOW_SHELL must be true or false, not %q", v)
		}
		c.Shell.AllowShell = b
	}
	return nil
}

// envValue is what one CLAWBRIDGE_* variable set.
type envValue struct{ name, value string }

// by names the environment variable that set key to its current value (a
// flag may have replaced it since), for error messages.
func (c *Config) by(key, current string) string {
	if e, ok := c.fromEnv[key]; ok && e.value == current {
		return " (set by " + e.name + ")"
	}
	return ""
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == os.PathListSeparator }) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (c *Config) expand() {
	for i, w := range c.Workspace {
		c.Workspace[i] = expandHome(w)
	}
	c.DataDir = expandHome(c.DataDir)
	c.LogFile = expandHome(c.LogFile)
	c.Exposure.TablesFile = expandHome(c.Exposure.TablesFile)
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, _ := os.UserHomeDir()
		return filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	return p
}

// Validate checks values that would otherwise fail late. A value that came
// from the environment is reported with its variable.
func (c *Config) Validate() error {
	switch c.Confirm {
	case "elicit", "approve", "token", "auto", "deny":
	default:
		return fmt.Errorf("config: confirm must be elicit, approve, token, auto or deny, not %q%s", c.Confirm, c.by("confirm", c.Confirm))
	}
	if c.ApproveTimeout < time.Second || c.ApproveTimeout > time.Hour {
		return fmt.Errorf("config: approve_timeout must be between 1s and 1h, not %s", c.ApproveTimeout)
	}
	switch c.Exposure.Mode {
	case "auto", "tiered", "full", "search":
	default:
		return fmt.Errorf("config: exposure.mode must be auto, tiered, full or search, not %q%s", c.Exposure.Mode, c.by("exposure.mode", c.Exposure.Mode))
	}
	switch c.LogLevel {
	case "trace", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("config: log_level must be trace, debug, info, warn or error, not %q%s", c.LogLevel, c.by("log_level", c.LogLevel))
	}
	if _, port, err := net.SplitHostPort(c.HTTP.Addr); err != nil || port == "" {
		return fmt.Errorf("config: http.addr must be host:port such as 127.0.0.1:8765, not %q%s", c.HTTP.Addr, c.by("http.addr", c.HTTP.Addr))
	}
	if len(c.Workspace) == 0 {
		return errors.New("config: at least one workspace root is required")
	}
	if c.Jail.CPUSeconds <= 0 || c.Jail.MemoryMB <= 0 || c.Jail.Processes <= 0 || c.Jail.FileSizeMB <= 0 {
		return fmt.Errorf("config: jail.cpu_seconds, memory_mb, processes and file_size_mb must all be positive (got %+v)", c.Jail)
	}
	if c.Exposure.ExtendedAt > c.Exposure.RecommendedAt {
		return errors.New("config: exposure.extended_at must not exceed exposure.recommended_at")
	}
	if c.Exposure.NarrowAfterCalls < 0 || c.Exposure.NarrowAfterCalls > 100 {
		return fmt.Errorf("config: exposure.narrow_after_calls must be between 0 (never) and 100, not %d", c.Exposure.NarrowAfterCalls)
	}
	if c.Exposure.PinCalls < 1 || c.Exposure.PinCalls > 1000 {
		return fmt.Errorf("config: exposure.pin_calls must be between 1 and 1000, not %d", c.Exposure.PinCalls)
	}
	if c.Limits.ImageMB < 1 {
		return fmt.Errorf("config: limits.image_mb must be at least 1, not %d", c.Limits.ImageMB)
	}
	if c.HTTP.MaxSessions < 1 {
		return fmt.Errorf("config: http.max_sessions must be at least 1, not %d", c.HTTP.MaxSessions)
	}
	if c.HTTP.Instance != "" && !validInstance(c.HTTP.Instance) {
		return fmt.Errorf("config: http.instance must be 1 to 32 lower-case letters and digits, not %q", c.HTTP.Instance)
	}
	if c.HTTP.MaxBodyBytes < 1024 {
		return fmt.Errorf("config: http.max_body_bytes must be at least 1024, not %d", c.HTTP.MaxBodyBytes)
	}
	for name, d := range map[string]time.Duration{"shutdown_grace": c.ShutdownGrace, "http.read_header_timeout": c.HTTP.ReadHeaderTimeout,
		"http.body_timeout": c.HTTP.BodyTimeout, "http.idle_timeout": c.HTTP.IdleTimeout,
		"limits.fast_timeout": c.Limits.FastTimeout, "limits.normal_timeout": c.Limits.NormalTimeout, "limits.slow_timeout": c.Limits.SlowTimeout} {
		if d <= 0 {
			return fmt.Errorf("config: %s must be a positive duration such as 5s, not %v", name, d)
		}
	}
	if err := c.Store.Validate(); err != nil {
		return err
	}
	if err := c.Bridge.Validate(); err != nil {
		return err
	}
	for _, o := range c.HTTP.AllowedOrigins {
		if _, err := ParseOrigin(o); err != nil && o != "*" {
			return fmt.Errorf("config: http.allowed_origins%s: %w", c.by("http.allowed_origins", strings.Join(c.HTTP.AllowedOrigins, ",")), err)
		}
	}
	return nil
}

// Origin is a browser origin: scheme, lower-case host and port, the port
// filled in from the scheme when absent ("*" when any port is allowed).
type Origin struct{ Scheme, Host, Port string }

// ParseOrigin parses "scheme://host[:port]" as sent in an Origin header or
// written in http.allowed_origins; "http://localhost:*" allows any port.
func ParseOrigin(s string) (Origin, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") || rest == "" || strings.ContainsAny(rest, "/?#@ ") {
		return Origin{}, fmt.Errorf("origin %q must look like http://host:port or https://host", s)
	}
	host, port := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
		host, port = rest[:i], rest[i+1:]
		if port == "" {
			return Origin{}, fmt.Errorf("origin %q has an empty port", s)
		}
		if port != "*" {
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				return Origin{}, fmt.Errorf("origin %q has a bad port", s)
			}
		}
	}
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" {
		return Origin{}, fmt.Errorf("origin %q has no host", s)
	}
	return Origin{Scheme: scheme, Host: host, Port: port}, nil
}

// Allows reports whether the allow-list entry o admits the origin got.
func (o Origin) Allows(got Origin) bool {
	return o.Scheme == got.Scheme && o.Host == got.Host && (o.Port == "*" || o.Port == got.Port)
}
