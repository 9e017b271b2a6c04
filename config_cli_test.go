package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lookEnv is an environment in which HOME, every XDG directory and TMPDIR
// point into one empty directory and no CLAWBRIDGE_* variable is set, so the
// binary falls back to its defaults there.
func lookEnv(t *testing.T) (home string, env []string) {
	home = t.TempDir()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "CLAWBRIDGE_") || strings.HasPrefix(name, "XDG_") || name == "HOME" || name == "TMPDIR" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "TMPDIR="+filepath.Join(home, "tmp"))
	return home, env
}

// entries lists every path under dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if p != dir {
			out = append(out, strings.TrimPrefix(p, dir+"/"))
		}
		return nil
	})
	return out
}

func runBinary(t *testing.T, env []string, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestCLI_ReadOnlyCommandsCreateNothing: tools, route, doctor and version,
// run by the real binary with HOME and XDG pointing to an empty directory,
// leave it empty: no workspace, data dir, database, log file or temp file.
// With a config file naming a workspace, data dir and log file, only the
// config file is there afterwards. `call` then creates them (the check sees
// what it must).
func TestCLI_ReadOnlyCommandsCreateNothing(t *testing.T) {
	commands := [][]string{{"tools"}, {"route", "把这三个PDF合并成一个"}, {"route", "--jsonl"}, {"doctor"}, {"version"}}
	home, env := lookEnv(t)
	for _, args := range commands {
		out, err := runBinary(t, env, `{"id":"1","q":"合并PDF"}`+"\n", args...)
		if err != nil && args[0] != "doctor" { // doctor fails when a program is missing
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if got := entries(t, home); len(got) > 0 {
			t.Fatalf("%v created %v", args, got)
		}
	}

	home, env = lookEnv(t)
	cfgFile := filepath.Join(home, ".config", "clawbridge", "config.yaml")
	os.MkdirAll(filepath.Dir(cfgFile), 0o755)
	os.WriteFile(cfgFile, []byte("workspace: ["+filepath.Join(home, "ws")+"]\ndata_dir: "+filepath.Join(home, "data")+"\nlog_file: "+filepath.Join(home, "log.jsonl")+"\n"), 0o600)
	want := []string{".config", ".config/clawbridge", ".config/clawbridge/config.yaml"}
	for _, args := range commands {
		out, err := runBinary(t, env, `{"id":"1","q":"合并PDF"}`+"\n", args...)
		if err != nil && args[0] != "doctor" {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if got := entries(t, home); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%v: want only the config file, got %v\n%s", args, got, out)
		}
	}
	out, _ := runBinary(t, env, "", "doctor")
	if !strings.Contains(out, filepath.Join(home, "ws")+" (does not exist yet") {
		t.Errorf("doctor should say the workspace does not exist yet:\n%s", out)
	}
	if out, err := runBinary(t, env, "", "call", "file", "--args", `{"action":"list"}`); err != nil {
		t.Fatalf("call: %v\n%s", err, out)
	}
	got := strings.Join(entries(t, home), " ")
	for _, p := range []string{"ws", "data/clawbridge.db", "log.jsonl"} {
		if !strings.Contains(got, p) {
			t.Errorf("call did not create %s: %s", p, got)
		}
	}
}

// TestConfig_StrictRefusesStart: the binary refuses to serve a config file
// with a misspelled key, naming the key, the file and the line.
func TestConfig_StrictRefusesStart(t *testing.T) {
	home, env := lookEnv(t)
	cfgFile := filepath.Join(home, "c.yaml")
	os.WriteFile(cfgFile, []byte("confirm: token\nlimits:\n  slow_timout: 20m\n"), 0o600)
	out, err := runBinary(t, append(env, "CLAWBRIDGE_CONFIG="+cfgFile), "", "serve")
	if err == nil {
		t.Fatalf("served with a misspelled key:\n%s", out)
	}
	for _, want := range []string{cfgFile, "line 3", `"limits.slow_timout"`, `"slow_timeout"`} {
		if !strings.Contains(out, want) {
			t.Errorf("refusal does not say %q:\n%s", want, out)
		}
	}
	if got := entries(t, home); len(got) != 1 {
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

// TestConfig_ReadmeSectionsDecode: the tool sections the README shows are
// real keys; a config made of them starts.
func TestConfig_ReadmeSectionsDecode(t *testing.T) {
	dir := cliEnv(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "read them from a section under `tools:`, for example:\n\n```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 || !strings.Contains(block, "tools:") {
		t.Fatal("README: the tools section example is gone")
	}
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(block), 0o600)
	if out, err := runCLI(t, "tools"); err != nil {
		t.Fatalf("the README's example is refused: %v\n%s", err, out)
	}
}
