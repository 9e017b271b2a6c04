// Package pyrunner is the `python_runner` tool: run a Python 3 script (or
// JavaScript with node, where installed) in internal/jail. Each run's work
// dir, /work inside the jail, is a tmpfs of work_mb and the only writable
// place besides the jail's private /tmp; the workspace files the call names
// are copied in, and the files the script creates or changes there are
// copied out to outputs/ afterwards (collect.go). No network, a read-only
// /usr, rlimits on CPU, memory, processes and file size, memory for the
// whole run where a memory cgroup can be made, a wall-clock timeout that
// kills every process of the run, and capped output whose cut is said so;
// stdout lines are progress reports.
// run is `high`: the confirmation shows the code (a script read once from
// the workspace, its first lines with its size and sha256), and the run
// executes exactly those bytes.
//
// When the jail cannot be created on the machine the tool refuses, unless
// tools.python_runner.allow_unsandboxed is set. It installs no packages:
// the `env` action says which modules the interpreter can import.
package pyrunner

import (
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Name is the catalog name of the tool.
const Name = "python_runner"

type runner struct {
	cfg Config
	d   *tool.Deps
	// jailCheck reports whether the jail works here (jail.Check; tests
	// replace it to play a machine without user namespaces).
	jailCheck func() error
}

// New builds the tool from the tools.python_runner section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: Name, Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	r := &runner{cfg: cfg, d: d, jailCheck: jail.Check}
	return r.tool(), nil
}

func (r *runner) tool() tool.Tool {
	return tool.Tool{
		Name:  Name,
		Title: "Run Python or JavaScript",
		Description: "Run Python 3 (or JavaScript with node) code in a sandbox without network, with CPU, memory and time limits; " +
			"files it writes are copied to outputs/. " +
			"env lists the importable modules.",
		Actions: []tool.Action{
			{Name: "run", Description: "code or a workspace script (the user confirms)", Level: tool.High, Timeout: tool.Slow,
				Params: []tool.Param{
					{Name: "code", Type: tool.String, Description: "Program text, or give path."},
					{Name: "path", Type: tool.String, Description: "Script (.py, .js) instead of code."},
					{Name: "language", Type: tool.String, Enum: tool.EnumValues("python", "javascript"), Description: "Default: from path's extension, else python."},
					{Name: "files", Type: tool.Array, Items: &tool.Param{Name: "path", Type: tool.String},
						Description: "Workspace files copied in by base name."},
					{Name: "args", Type: tool.Array, Items: &tool.Param{Name: "arg", Type: tool.String}, Description: "sys.argv[1:]."},
					{Name: "stdin", Type: tool.String},
					{Name: "timeout_seconds", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(3600)},
					{Name: "output_dir", Type: tool.String, Description: "Default outputs/run-<time>."},
					tool.Overwrite,
				},
				Handler: r.run, Preview: r.preview},
			{Name: "env", Description: "versions and importable Python modules", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Handler: r.env},
		},
		Programs: programs(),
		Examples: []string{
			"execute this python script",
			"calculate the fibonacci numbers with python",
			"run the javascript and show the console output",
			"use code to compute the statistics",
			"which python modules are installed",
			"运行这段Python代码",
			"写个python脚本算一下平均值",
			"执行这段JS代码看看结果",
			"用代码计算复利",
		},
	}
}
