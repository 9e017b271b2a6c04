// Package tooltest builds real dependencies for tool tests.
package tooltest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"gopkg.in/yaml.v3"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/internal/testneed"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Deps builds real dependencies in temporary directories for tool tests:
// a workspace, a data dir with a SQLite store, and a guard that allows the
// given hosts (for example a fixture server's 127.0.0.1).
func Deps(t testing.TB, allowHosts ...string) *tool.Deps {
	t.Helper()
	dir := t.TempDir()
	return DepsAt(t, filepath.Join(dir, "workspace"), filepath.Join(dir, "data"), allowHosts...)
}

// DepsAt is Deps with the workspace and the data dir where the test says
// (a data dir inside the workspace, say).
func DepsAt(t testing.TB, workspace, dataDir string, allowHosts ...string) *tool.Deps {
	t.Helper()
	cfg := config.Default()
	cfg.Workspace = []string{workspace}
	cfg.DataDir = dataDir
	cfg.Network.AllowHosts = allowHosts
	sb, err := sandbox.New(cfg.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenSQLite(cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := sb.Protect(cfg.DataDir); err != nil {
		t.Fatal(err)
	}
	g, err := netguard.New(allowHosts)
	if err != nil {
		t.Fatal(err)
	}
	return &tool.Deps{Config: cfg, Sandbox: sb, Store: st, Guard: g, Log: zerolog.New(os.Stderr).Level(zerolog.WarnLevel)}
}

// Run prepares args against t's schema (as the server does) and runs the
// handler, for tests.
func Run(tb testing.TB, tl tool.Tool, args map[string]any) (*tool.Result, error) {
	tb.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		return nil, err
	}
	return tl.Handle(tb.(interface{ Context() context.Context }).Context(), c)
}

// OK is Run for a call that must succeed: an error fails the test.
func OK(tb testing.TB, tl tool.Tool, args map[string]any) *tool.Result {
	tb.Helper()
	res, err := Run(tb, tl, args)
	if err != nil {
		tb.Fatalf("%v: %v", args, err)
	}
	return res
}

// MustRun is OK returning the result's data as a map (nil when it is none).
func MustRun(tb testing.TB, tl tool.Tool, args map[string]any) map[string]any {
	tb.Helper()
	m, _ := OK(tb, tl, args).Data.(map[string]any)
	return m
}

// Refused is Run for a call that must fail with a tool error, of any code:
// success or another error fails the test.
func Refused(tb testing.TB, tl tool.Tool, args map[string]any) *tool.Error {
	tb.Helper()
	_, err := Run(tb, tl, args)
	te, ok := tool.AsError(err)
	if !ok {
		tb.Fatalf("%v: want a tool error, got %v", args, err)
	}
	return te
}

// RunProgress is Run that also returns the progress messages the handler
// reported, in order.
func RunProgress(tb testing.TB, tl tool.Tool, args map[string]any) (*tool.Result, []string, error) {
	tb.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		return nil, nil, err
	}
	var progress []string
	c.Progress = func(_, _ float64, msg string) { progress = append(progress, msg) }
	res, err := tl.Handle(tb.(interface{ Context() context.Context }).Context(), c)
	return res, progress, err
}

// RequirePrograms reports whether CLAWBRIDGE_REQUIRE_PROGRAMS=1 is set
// (internal/testneed).
func RequirePrograms() bool { return testneed.Require() }

// NeedProgram returns the path of an external program a test needs. When it
// is missing the test is skipped, or fails when CLAWBRIDGE_REQUIRE_PROGRAMS=1
// (CI installs every program, so a missing one there is a broken install).
func NeedProgram(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	hint := ""
	if pkg := tool.Package(name); pkg != "" {
		hint = " (apt-get install " + pkg + ", or scripts/install-deps.sh)"
	}
	Missing(t, "%s not installed%s", name, hint)
	return ""
}

// Missing skips the test, or fails it under CLAWBRIDGE_REQUIRE_PROGRAMS=1
// (internal/testneed): every such skip goes through there so the policy
// is one.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	testneed.Missing(t, format, args...)
}

// CJKFont returns the system CJK font the tools draw Chinese with; when
// there is none the test is skipped, or fails under
// CLAWBRIDGE_REQUIRE_PROGRAMS=1 (Missing).
func CJKFont(t testing.TB) *cjkfont.Font {
	t.Helper()
	f, err := cjkfont.Open("")
	if err != nil {
		Missing(t, "no CJK font: %v (apt-get install %s)", err, cjkfont.Package)
	}
	return f
}

// ConfigSection sets the tools.<name> section of d's config from YAML text
// (the section's body, e.g. "max_nodes: -5"), as a config file would, for
// a tool built on d afterwards.
func ConfigSection(t testing.TB, d *tool.Deps, name, body string) {
	t.Helper()
	var doc struct {
		Tools map[string]yaml.Node `yaml:"tools"`
	}
	src := "tools:\n  " + name + ":\n"
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		src += "    " + line + "\n"
	}
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if d.Config.Tools == nil {
		d.Config.Tools = map[string]yaml.Node{}
	}
	d.Config.Tools[name] = doc.Tools[name]
}

// SectionRefused fails the test unless d's config records a problem with
// the tools.<name> section that mentions want (the server then refuses to
// start), and returns it.
func SectionRefused(t testing.TB, d *tool.Deps, name, want string) error {
	t.Helper()
	for _, err := range d.Config.SectionProblems() {
		if strings.Contains(err.Error(), "tools."+name+":") {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("tools.%s refused with %q, want it to mention %q", name, err, want)
			}
			return err
		}
	}
	t.Fatalf("tools.%s was accepted; problems: %v", name, d.Config.SectionProblems())
	return nil
}

// WriteFile writes data to path, creating its parent directories, and fails
// the test on error.
func WriteFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads path and fails the test on error.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ToolError fails the test unless err is a tool error with the given code,
// and returns it.
func ToolError(t testing.TB, err error, code string) *tool.Error {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error")
	}
	te, ok := tool.AsError(err)
	if !ok {
		t.Fatalf("expected a tool error, got %T: %v", err, err)
	}
	if te.Code != code {
		t.Fatalf("error code = %s, want %s (%v)", te.Code, code, te)
	}
	return te
}

// RefusedNaming fails the test (and goes on) unless tl refuses args with a
// tool error that names want in its field or message.
func RefusedNaming(t testing.TB, tl tool.Tool, args map[string]any, want string) {
	t.Helper()
	_, err := Run(t, tl, args)
	if err == nil {
		t.Errorf("%v accepted", args)
		return
	}
	if te, ok := tool.AsError(err); !ok || !strings.Contains(te.Field+" "+te.Message, want) {
		t.Errorf("%v: %v does not name %s", args, err, want)
	}
}

// Build runs a tool constructor on d and fails the test when it refuses or
// builds a declaration the registry would refuse (tool.Tool.Validate).
func Build(tb testing.TB, newTool func(*tool.Deps) (tool.Tool, error), d *tool.Deps) tool.Tool {
	tb.Helper()
	tl, err := newTool(d)
	if err != nil {
		tb.Fatal(err)
	}
	if err := tl.Validate(); err != nil {
		tb.Fatal(err)
	}
	return tl
}
