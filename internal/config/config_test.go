package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	if c.Confirm != d.Confirm || c.HTTP.Addr != d.HTTP.Addr || c.Limits != d.Limits || c.Jail != d.Jail || c.Exposure.Mode != d.Exposure.Mode ||
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
