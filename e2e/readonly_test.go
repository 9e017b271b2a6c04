package e2e

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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
// what it must). It runs the binary, not cli.Main in-process, so that what
// package initialisation or the process itself creates is seen too.
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
