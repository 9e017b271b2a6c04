package pyrunner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// newRunner builds the tool over a fresh workspace with small limits, and
// skips (or fails under CLAWBRIDGE_REQUIRE_PROGRAMS=1) without the jail.
func newRunner(t *testing.T, section string) (*runner, *tool.Deps) {
	t.Helper()
	tooltest.NeedProgram(t, "bwrap")
	tooltest.NeedProgram(t, "python3")
	if err := jail.Check(); err != nil {
		tooltest.Missing(t, "jail unavailable: %v", err)
	}
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, Name, section)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	_ = tl
	cfg := DefaultConfig()
	if err := d.Config.Section(Name, &cfg); err != nil {
		t.Fatal(err)
	}
	return &runner{cfg: cfg, d: d, jailCheck: jail.Check}, d
}

func run(t *testing.T, r *runner, args map[string]any) (*runOutput, *tool.Result) {
	t.Helper()
	args["action"] = "run"
	res, err := tooltest.Run(t, r.tool(), args)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res.Data.(*runOutput), res
}

// noProcessWith fails when a process whose command line holds marker is
// still alive: the run must leave nothing behind.
func noProcessWith(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		var left []string
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.Contains(string(b), marker) {
				left = append(left, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestPythonRunner_RunsCodeWithInputsAndOutputs(t *testing.T) {
	r, d := newRunner(t, "")
	ws := d.Sandbox.Root()
	tooltest.WriteFile(t, filepath.Join(ws, "data", "nums.csv"), []byte("1\n2\n3\n"))
	var progress []string
	r2 := r.tool()
	c, err := r2.Prepare(map[string]any{"action": "run", "files": []any{"data/nums.csv"}, "args": []any{"x"},
		"code": "import sys\nnums=[int(l) for l in open('nums.csv')]\nprint('sum', sum(nums))\nprint('arg', sys.argv[1])\n" +
			"open('result.txt','w').write(str(sum(nums)))\nimport os\nos.makedirs('plots', exist_ok=True)\nopen('plots/p.txt','w').write('p')\n"})
	if err != nil {
		t.Fatal(err)
	}
	c.Progress = func(_, _ float64, msg string) { progress = append(progress, msg) }
	res, err := r2.Handle(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Data.(*runOutput)
	if o.ExitCode != 0 || !o.Sandboxed || !strings.Contains(o.Stdout, "sum 6") || !strings.Contains(o.Stdout, "arg x") {
		t.Fatalf("run: %+v", o)
	}
	if !slices.Contains(progress, "sum 6") {
		t.Errorf("stdout lines were not progress: %q", progress)
	}
	// The produced files come out; the unchanged input and the script do not.
	if len(o.Files) != 2 || len(res.Files) != 2 {
		t.Fatalf("files: %v", o.Files)
	}
	dir := filepath.Join(ws, filepath.Dir(o.Files[1]))
	if filepath.Base(o.Files[1]) != "result.txt" {
		t.Fatalf("files: %v", o.Files)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "result.txt")); string(b) != "6" {
		t.Errorf("result.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "plots", "p.txt")); string(b) != "p" {
		t.Errorf("plots/p.txt = %q", b)
	}
	if o.OutputDir != filepath.Dir(o.Files[1]) || !strings.Contains(res.Summary, "copied to "+o.OutputDir) {
		t.Errorf("output dir %q, summary %q", o.OutputDir, res.Summary)
	}
	if !strings.HasPrefix(o.Files[0], "outputs/run-") {
		t.Errorf("default output dir: %v", o.Files)
	}
}

func TestPythonRunner_JavaScriptWithNode(t *testing.T) {
	r, _ := newRunner(t, "")
	tooltest.NeedProgram(t, "node")
	o, _ := run(t, r, map[string]any{"language": "javascript", "code": "console.log([1,2,3].map(x => x*2).join(','))"})
	if o.ExitCode != 0 || strings.TrimSpace(o.Stdout) != "2,4,6" {
		t.Fatalf("node: %+v", o)
	}
}

func TestPythonRunner_ScriptFromWorkspace(t *testing.T) {
	r, d := newRunner(t, "")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "s.py"), []byte("print(6*7)"))
	o, _ := run(t, r, map[string]any{"path": "s.py"})
	if strings.TrimSpace(o.Stdout) != "42" || len(o.Files) != 0 {
		t.Fatalf("%+v", o)
	}
	_, err := tooltest.Run(t, r.tool(), map[string]any{"action": "run", "path": "../outside.py"})
	tooltest.ToolError(t, err, tool.CodeDenied)
	_, err = tooltest.Run(t, r.tool(), map[string]any{"action": "run", "path": "nope.py"})
	tooltest.ToolError(t, err, tool.CodeNotFound)
	_, err = tooltest.Run(t, r.tool(), map[string]any{"action": "run", "code": "print(1)", "path": "s.py"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestPythonRunner_Env(t *testing.T) {
	r, _ := newRunner(t, "")
	res := tooltest.OK(t, r.tool(), map[string]any{"action": "env"})
	o := res.Data.(*envOutput)
	if !o.Sandboxed || !strings.HasPrefix(o.Python.Version, "3.") || o.Python.StdlibModules < 100 {
		t.Fatalf("env: %+v %+v", o, o.Python)
	}
	if _, ok := o.Python.Notable["numpy"]; !ok {
		t.Errorf("numpy is not reported either way: %v", o.Python.Notable)
	}
	t.Logf("%s", res.Summary)
}

// TestPythonRunner_RefusesWithoutJail: a machine where the sandbox cannot
// be created refuses to run code, unless config allows unsandboxed runs.
func TestPythonRunner_RefusesWithoutJail(t *testing.T) {
	r, d := newRunner(t, "")
	r.jailCheck = func() error { return fmt.Errorf("%w: no user namespaces", jail.ErrUnavailable) }
	for _, action := range []string{"run", "env"} {
		args := map[string]any{"action": action}
		if action == "run" {
			args["code"] = "open('/tmp/x','w')"
		}
		_, err := tooltest.Run(t, r.tool(), args)
		e := tooltest.ToolError(t, err, tool.CodeUnavailable)
		if !strings.Contains(e.Message, "no user namespaces") || !strings.Contains(e.Hint, "allow_unsandboxed") {
			t.Errorf("%s: %+v", action, e)
		}
	}
	r.cfg.AllowUnsandboxed = true
	o, res := run(t, r, map[string]any{"code": "import os\nprint(os.getcwd())\nopen('made.txt','w').write('m')"})
	if o.Sandboxed || o.ExitCode != 0 || !strings.Contains(res.Summary, "unsandboxed") || len(o.Files) != 1 {
		t.Fatalf("allowed unsandboxed run: %+v %s", o, res.Summary)
	}
	if strings.Contains(o.Stdout, d.Sandbox.Root()) {
		t.Errorf("an unsandboxed run's work dir is the workspace: %s", o.Stdout)
	}
}

func TestPythonRunner_BadInput(t *testing.T) {
	r, d := newRunner(t, "")
	ws := d.Sandbox.Root()
	tooltest.WriteFile(t, filepath.Join(ws, "a", "x.csv"), []byte("a"))
	tooltest.WriteFile(t, filepath.Join(ws, "b", "x.csv"), []byte("b"))
	for name, args := range map[string]map[string]any{
		"no code":      {},
		"same name":    {"code": "1", "files": []any{"a/x.csv", "b/x.csv"}},
		"missing file": {"code": "1", "files": []any{"nope.csv"}},
		"dir as file":  {"code": "1", "files": []any{"a"}},
	} {
		args["action"] = "run"
		_, err := tooltest.Run(t, r.tool(), args)
		if _, ok := tool.AsError(err); !ok {
			t.Errorf("%s: want a tool error, got %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(ws, "outputs")); len(ents) != 0 {
		t.Errorf("a refused call wrote outputs: %v", ents)
	}
}
