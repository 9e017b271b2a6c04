package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	os.WriteFile(path, []byte("confirm: token\nworkspace: [/tmp/a]\ntools:\n  file:\n    max_unzip_entries: 7\n"), 0o600)
	t.Setenv("CLAWBRIDGE_CONFIRM", "auto")
	t.Setenv("CLAWBRIDGE_ALLOW_HOSTS", "127.0.0.1, 10.0.0.0/8")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Confirm != "auto" {
		t.Errorf("env must override the file: %q", c.Confirm)
	}
	if c.Workspace[0] != "/tmp/a" {
		t.Errorf("workspace %v", c.Workspace)
	}
	if len(c.Network.AllowHosts) != 2 {
		t.Errorf("allow hosts %v", c.Network.AllowHosts)
	}
	var sec struct {
		Max int `yaml:"max_unzip_entries"`
	}
	if err := c.Section("file", &sec); err != nil || sec.Max != 7 {
		t.Errorf("section: %v %d", err, sec.Max)
	}
	if c.Limits.ConcurrentCalls != 3 {
		t.Error("defaults lost")
	}
}

func TestBadValues(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	os.WriteFile(path, []byte("confirm: sometimes\n"), 0o600)
	if _, err := Load(path); err == nil {
		t.Error("bad confirm policy accepted")
	}
	os.WriteFile(path, []byte("confirm: approve\napprove_timeout: 0s\n"), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "approve_timeout") {
		t.Errorf("approve_timeout 0 accepted: %v", err)
	}
	os.WriteFile(path, []byte("confirm: approve\napprove_timeout: 45s\n"), 0o600)
	if c, err := Load(path); err != nil || c.Confirm != "approve" || c.ApproveTimeout != 45*time.Second {
		t.Errorf("the approve policy with its timeout: %v %+v", err, c)
	}
	os.WriteFile(path, []byte("jail: {processes: 0}\n"), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "jail.") {
		t.Errorf("a zero jail limit accepted: %v", err)
	}
	os.WriteFile(path, []byte("jail: {cpu_seconds: 30}\n"), 0o600)
	if c, err := Load(path); err != nil || c.Jail.CPUSeconds != 30 || c.Jail.MemoryMB != 4096 {
		t.Errorf("jail section: %+v %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("an explicit missing file must be an error")
	}
}

// The template `config init` writes parses and equals the defaults.
func TestTemplateMatchesDefaults(t *testing.T) {
	c := &Config{}
	if err := yaml.Unmarshal([]byte(Template), c); err != nil {
		t.Fatal(err)
	}
	c.expand()
	d := Default()
	if c.Confirm != d.Confirm || c.ApproveTimeout != d.ApproveTimeout || c.HTTP.Addr != d.HTTP.Addr || c.HTTP.MaxSessions != d.HTTP.MaxSessions ||
		c.HTTP.ReadHeaderTimeout != d.HTTP.ReadHeaderTimeout || c.HTTP.BodyTimeout != d.HTTP.BodyTimeout ||
		c.HTTP.IdleTimeout != d.HTTP.IdleTimeout || c.ShutdownGrace != d.ShutdownGrace || c.Limits != d.Limits || c.Jail != d.Jail || c.Exposure.Mode != d.Exposure.Mode ||
		len(c.Shell.ReadOnlyPrograms) != len(d.Shell.ReadOnlyPrograms) || c.Workspace[0] != d.Workspace[0] {
		t.Errorf("template and defaults disagree:\n%+v\n%+v", c, d)
	}
	path := filepath.Join(t.TempDir(), "x", "config.yaml")
	if err := WriteTemplate(path); err != nil {
		t.Fatal(err)
	}
	if err := WriteTemplate(path); err == nil {
		t.Error("config init overwrote an existing file")
	}
}

// TestOrigin_Port: an allowed origin admits its own port only, unless the
// entry says "*"; default ports come from the scheme.
func TestOrigin_Port(t *testing.T) {
	cases := []struct {
		entry, origin string
		want          bool
	}{
		{"http://localhost:8765", "http://localhost:8765", true},
		{"http://localhost:8765", "http://localhost:9999", false},
		{"http://localhost:8765", "http://localhost", false},
		{"http://localhost:8765", "https://localhost:8765", false},
		{"http://LOCALHOST:8765", "http://localhost:8765", true},
		{"http://localhost", "http://localhost:80", true},
		{"https://app.example", "https://app.example:443", true},
		{"https://app.example", "https://app.example:8443", false},
		{"http://localhost:*", "http://localhost:9999", true},
		{"http://[::1]:8765", "http://[::1]:8765", true},
		{"http://[::1]:8765", "http://[::1]:1", false},
		{"http://127.0.0.1:8765", "http://127.0.0.1.evil.example:8765", false},
	}
	for _, c := range cases {
		e, err := ParseOrigin(c.entry)
		if err != nil {
			t.Fatalf("%s: %v", c.entry, err)
		}
		o, err := ParseOrigin(c.origin)
		if err != nil {
			t.Fatalf("%s: %v", c.origin, err)
		}
		if got := e.Allows(o); got != c.want {
			t.Errorf("%s allows %s = %v, want %v", c.entry, c.origin, got, c.want)
		}
	}
	for _, bad := range []string{"localhost:8765", "null", "http://", "http://x:0", "http://x:99999", "http://x/path", "ftp://x", "http://u@x"} {
		if _, err := ParseOrigin(bad); err == nil {
			t.Errorf("%q parsed as an origin", bad)
		}
	}
}

func TestValidate_HTTPLimits(t *testing.T) {
	for _, mut := range []func(*Config){
		func(c *Config) { c.HTTP.MaxSessions = 0 },
		func(c *Config) { c.HTTP.BodyTimeout = 0 },
		func(c *Config) { c.ShutdownGrace = -time.Second },
		func(c *Config) { c.HTTP.AllowedOrigins = []string{"localhost:3000"} },
		func(c *Config) { c.HTTP.Instance = "i-1" }, // a "-" would let i matched by a pattern for i-1
		func(c *Config) { c.HTTP.Instance = "I1" },
		func(c *Config) { c.HTTP.Instance = "i1.*" },
		func(c *Config) { c.HTTP.Instance = strings.Repeat("a", 33) },
	} {
		c := Default()
		mut(c)
		if err := c.Validate(); err == nil {
			t.Errorf("accepted %+v", c.HTTP)
		}
	}
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
	c := Default()
	c.HTTP.Instance = "i1"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
