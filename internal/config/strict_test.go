package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func wantLoadError(t *testing.T, body string, parts ...string) {
	t.Helper()
	path := writeConfig(t, body)
	_, err := Load(path)
	if err == nil {
		t.Fatalf("accepted:\n%s", body)
	}
	for _, p := range append([]string{path}, parts...) {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// TestStrictDecoding_UnknownKey: a misspelled key anywhere in the file is an
// error naming the key, the file and the line, at any depth and in every
// shape the file can take (nested mapping, list items, workspace mapping).
func TestStrictDecoding_UnknownKey(t *testing.T) {
	wantLoadError(t, "confirm: token\nconfrim: deny\n", `"confrim"`, "line 2", `did you mean "confirm"`)
	wantLoadError(t, "limits:\n  fast_timeout: 5s\n  slow_timout: 1m\n", `"limits.slow_timout"`, "line 3", `"slow_timeout"`)
	wantLoadError(t, "http: {addr: 127.0.0.1:1, tokn: x}\n", `"http.tokn"`, "line 1")
	wantLoadError(t, "system:\n  services:\n    - {name: a, url: http://x, timeout: 3}\n", `"system.services[0].timeout"`, "line 3")
	wantLoadError(t, "workspace:\n  roots: [/tmp/a]\n  trust_client_root: true\n", `"workspace.trust_client_root"`, "line 3", `"trust_client_roots"`)
	wantLoadError(t, "zzz: 1\n", `"zzz"`, "known keys:")
	// Every problem is reported at once, each with its line.
	path := writeConfig(t, "a1: 1\nlimits: {b2: 2}\n")
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), `"a1"`) || !strings.Contains(err.Error(), `"limits.b2"`) {
		t.Errorf("both keys must be named: %v", err)
	}
	// Keys yaml anchors merge in are checked as if written in place.
	wantLoadError(t, "limits: &l {fast_timeout: 1s}\nhttp: {<<: *l, addr: 127.0.0.1:1}\n", `"http.fast_timeout"`, "line 1")
	if _, err := Load(writeConfig(t, "limits: {fast_timeout: 7s}\nworkspace: {roots: [/tmp/w], trust_client_roots: true}\ntools: {}\n")); err != nil {
		t.Fatalf("a correct file refused: %v", err)
	}
}

// TestStrictDecoding_WrongTypeHidesValue: a value of the wrong type names
// the file and line, and the value itself (which may be a secret written in
// the wrong place) is not repeated.
func TestStrictDecoding_WrongTypeHidesValue(t *testing.T) {
	path := writeConfig(t, "limits:\n  fast_timeout: hunter2-secret\n")
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("wrong type: %v", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the value leaked into the error: %v", err)
	}
}

// TestEnvOverride_BadValueNamesVariable: a bad value from the environment is
// refused, naming the variable that carried it.
func TestEnvOverride_BadValueNamesVariable(t *testing.T) {
	path := writeConfig(t, "{}\n")
	for name, value := range map[string]string{
		"CLAWBRIDGE_CONFIRM":         "sometimes",
		"CLAWBRIDGE_EXPOSURE":        "most",
		"CLAWBRIDGE_LOG_LEVEL":       "verbose",
		"CLAWBRIDGE_HTTP_ADDR":       "localhost",
		"CLAWBRIDGE_ALLOWED_ORIGINS": "localhost:3000",
		"CLAWBRIDGE_ALLOW_SHELL":     "perhaps",
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s=%s: %v", name, value, err)
			}
		})
	}
	// A value a flag put in after the variable is not blamed on it.
	t.Setenv("CLAWBRIDGE_CONFIRM", "auto")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Confirm = "bogus"
	if err := c.Validate(); err == nil || strings.Contains(err.Error(), "CLAWBRIDGE_CONFIRM") {
		t.Errorf("flag value blamed on the variable: %v", err)
	}
	t.Setenv("CLAWBRIDGE_LOG_LEVEL", "debug")
	t.Setenv("CLAWBRIDGE_ALLOW_SHELL", "true")
	if c, err := Load(path); err != nil || c.LogLevel != "debug" || !c.Shell.AllowShell {
		t.Errorf("good values: %v %+v", err, c)
	}
}

type sectionWithCheck struct {
	MaxMB int           `yaml:"max_mb"`
	Wait  time.Duration `yaml:"wait"`
	Inner struct {
		Depth int `yaml:"depth"`
	} `yaml:"inner"`
}

func (s *sectionWithCheck) Validate() error {
	if s.MaxMB < 1 {
		return errorString("max_mb must be at least 1")
	}
	return nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestToolSection_Strict: a tool section is decoded with the same strictness
// as the file; its Validate runs; every outcome is kept for
// SectionProblems, whatever the tool did with the returned error; and a
// section no tool read is a problem too.
func TestToolSection_Strict(t *testing.T) {
	path := writeConfig(t, "tools:\n  good:\n    max_mb: 3\n  typo:\n    inner: {dpeth: 2}\n  low:\n    max_mb: 0\n  typed:\n    wait: soon\n  pdf_tol:\n    max_mb: 1\n")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var good sectionWithCheck
	if err := c.Section("good", &good); err != nil || good.MaxMB != 3 {
		t.Fatalf("good section: %v %+v", err, good)
	}
	if err := c.Section("typo", &sectionWithCheck{MaxMB: 1}); err == nil || !strings.Contains(err.Error(), `"tools.typo.inner.dpeth"`) || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("unknown key in a section: %v", err)
	}
	_ = c.Section("low", &sectionWithCheck{MaxMB: 5}) // ignored here; recorded anyway
	_ = c.Section("typed", &sectionWithCheck{MaxMB: 5})
	absent := &sectionWithCheck{} // defaults are validated too
	if err := c.Section("absent", absent); err == nil || !strings.Contains(err.Error(), "tools.absent: max_mb") {
		t.Errorf("invalid defaults of an absent section: %v", err)
	}
	var pdf sectionWithCheck
	pdf.MaxMB = 1
	_ = c.Section("pdf_tool", &pdf)

	got := c.SectionProblems()
	joined := c.SectionError().Error()
	for _, want := range []string{"tools.typo.inner.dpeth", "tools.low: max_mb must be at least 1", "tools.typed", "line 9", `no tool reads the section "tools.pdf_tol"`, `did you mean "pdf_tool"`, "line 10", "tools.absent"} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems do not say %q:\n%s", want, joined)
		}
	}
	if len(got) != 5 {
		t.Errorf("want 5 problems (typo, low, typed, absent, pdf_tol), got %d:\n%s", len(got), joined)
	}
	for _, p := range got {
		if !strings.Contains(p.Error(), path) {
			t.Errorf("problem without the file: %v", p)
		}
	}
	if strings.Contains(joined, "soon") {
		t.Errorf("a section value leaked: %s", joined)
	}
	if Default().SectionError() != nil {
		t.Error("no sections, no problems")
	}
}
