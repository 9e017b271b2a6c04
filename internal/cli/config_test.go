package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// freshHome gives the test a new user's environment: HOME, every XDG
// directory and TMPDIR point into one empty directory and no CLAWBRIDGE_*
// variable is set, so the CLI falls back to its defaults there.
func freshHome(t *testing.T) string {
	home := t.TempDir()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "CLAWBRIDGE_") || strings.HasPrefix(name, "XDG_") {
			t.Setenv(name, "") // restored after the test
			os.Unsetenv(name)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("TMPDIR", filepath.Join(home, "tmp"))
	return home
}

// TestConfig_StrictRefusesStart: serve refuses a config file with a
// misspelled key, naming the key, the file and the line on stderr, exits 1,
// writes nothing on stdout (the JSON-RPC channel) and creates nothing.
func TestConfig_StrictRefusesStart(t *testing.T) {
	home := freshHome(t)
	cfgFile := filepath.Join(home, "c.yaml")
	os.WriteFile(cfgFile, []byte("confirm: token\nlimits:\n  slow_timout: 20m\n"), 0o600)
	t.Setenv("CLAWBRIDGE_CONFIG", cfgFile)
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"serve"}, strings.NewReader(""), &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d with a misspelled key, want 1:\n%s", code, stderr.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("the refusal wrote to stdout: %q", stdout.String())
	}
	for _, want := range []string{"clawbridge: ", cfgFile, "line 3", `"limits.slow_timout"`, `"slow_timeout"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("refusal does not say %q:\n%s", want, stderr.String())
		}
	}
	if got, _ := os.ReadDir(home); len(got) != 1 {
		t.Errorf("a refused start created %v", got)
	}
}

// sectionsRead are the tools.<name> sections the built tools read.
var sectionsRead = []string{"browser", "file", "web_fetch", "pdf_tool", "format_converter", "mind_map", "data_processor", "data_visualization", "db_query"}

// TestConfig_EveryToolSectionStrict: a misspelled key in any tool's section,
// a value of the wrong type, or a section for no tool refuses the start with
// the message, whatever the tool's own code does with the error; and
// `clawbridge doctor` reports the same problems as failed checks and still
// runs the other checks.
func TestConfig_EveryToolSectionStrict(t *testing.T) {
	dir := cliEnv(t)
	cfgFile := filepath.Join(dir, "config.yaml")
	for _, name := range sectionsRead {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(cfgFile, []byte("tools:\n  "+name+":\n    no_such_key: 1\n"), 0o600)
			for _, args := range [][]string{{"tools"}, {"serve"}, {"call", "file", "--args", `{"action":"list"}`}} {
				_, err := runCLI(t, args...)
				if err == nil || !strings.Contains(err.Error(), `"tools.`+name+`.no_such_key"`) || !strings.Contains(err.Error(), cfgFile) || !strings.Contains(err.Error(), "line 3") {
					t.Errorf("%v started with a misspelled key in tools.%s: %v", args, name, err)
				}
			}
			out, err := runCLI(t, "doctor")
			if err == nil || !regexp.MustCompile(`FAIL\s+config\s+.*"tools\.`+name+`\.no_such_key"`).MatchString(out) || !strings.Contains(out, "program ") {
				t.Errorf("doctor on tools.%s: %v\n%s", name, err, out)
			}
		})
	}
	// Every problem at once: web_fetch's constructor stops on its bad
	// section, and the tools after it are still built and checked.
	os.WriteFile(cfgFile, []byte("tools:\n  web_fetch: {timeout: soon}\n  pdf_tool:\n    max_mb: lots\n  pdf_tol:\n    max_mb: 3\n"), 0o600)
	_, err := runCLI(t, "tools")
	if err == nil || !strings.Contains(err.Error(), "line 2: tools.web_fetch") || !strings.Contains(err.Error(), "line 4: tools.pdf_tool") ||
		!strings.Contains(err.Error(), `line 5: no tool reads the section "tools.pdf_tol"`) || !strings.Contains(err.Error(), `did you mean "pdf_tool"`) {
		t.Errorf("two wrong types and an unknown section: %v", err)
	}
	if strings.Contains(err.Error(), `section "tools.pdf_tool"`) || strings.Contains(err.Error(), "soon") || strings.Contains(err.Error(), "lots") {
		t.Errorf("a false unread section or a value in the message: %v", err)
	}
	out, _ := runCLI(t, "doctor")
	if n := strings.Count(out, "FAIL"); n != 3 {
		t.Errorf("doctor should list the three problems, got %d:\n%s", n, out)
	}
	os.WriteFile(cfgFile, []byte("tools:\n  browser:\n    allowed_origins: [\"http://\"]\n"), 0o600)
	if _, err := runCLI(t, "tools"); err == nil || !strings.Contains(err.Error(), "tools.browser") {
		t.Errorf("a browser section failing its Validate: %v", err)
	}
	os.WriteFile(cfgFile, []byte("tools:\n  pdf_tool: {max_mb: 10}\n  web_fetch: {timeout: 5s}\n"), 0o600)
	if out, err := runCLI(t, "tools"); err != nil || !strings.Contains(out, "pdf_tool") {
		t.Errorf("good sections refused: %v\n%s", err, out)
	}
}

// TestConfig_BadEnvValueNamesVariable: a bad CLAWBRIDGE_* value stops every
// command that loads the config, naming the variable; doctor reports it.
func TestConfig_BadEnvValueNamesVariable(t *testing.T) {
	cliEnv(t)
	t.Setenv("CLAWBRIDGE_EXPOSURE", "everything")
	if _, err := runCLI(t, "tools"); err == nil || !strings.Contains(err.Error(), "CLAWBRIDGE_EXPOSURE") {
		t.Errorf("tools: %v", err)
	}
	out, err := runCLI(t, "doctor")
	if err == nil || !regexp.MustCompile(`FAIL\s+config\s+.*CLAWBRIDGE_EXPOSURE`).MatchString(out) || !strings.Contains(out, "program ") {
		t.Errorf("doctor: %v\n%s", err, out)
	}
}

// TestConfig_ReadmeSectionsDecode: the tool sections docs/configuration.md
// shows are real keys; a config made of them starts.
func TestConfig_ReadmeSectionsDecode(t *testing.T) {
	dir := cliEnv(t)
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "read them from a section under `tools:`, for example:\n\n```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 || !strings.Contains(block, "tools:") {
		t.Fatal("docs/configuration.md: the tools section example is gone")
	}
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(block), 0o600)
	if out, err := runCLI(t, "tools"); err != nil {
		t.Fatalf("docs/configuration.md's example is refused: %v\n%s", err, out)
	}
}
