package pyrunner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// envScript prints, as JSON, what the sandbox's Python can import: the
// modules outside the standard library, and for a few often-wanted ones
// whether they import.
const envScript = `import sys, json, pkgutil, importlib.util
std = set(getattr(sys, "stdlib_module_names", ()))
mods = sorted({m.name for m in pkgutil.iter_modules() if not m.name.startswith("_")})
notable = ["numpy", "pandas", "scipy", "matplotlib", "sympy", "PIL", "requests", "bs4", "lxml", "yaml", "openpyxl", "sklearn", "networkx"]
print(json.dumps({"version": sys.version.split()[0], "stdlib_modules": len(std),
  "third_party": [m for m in mods if m not in std],
  "notable": {n: importlib.util.find_spec(n) is not None for n in notable}}))
`

type envOutput struct {
	Sandboxed bool           `json:"sandboxed"`
	Python    *pythonEnv     `json:"python"`
	Node      string         `json:"node,omitempty"` // version, "" when not installed
	Limits    map[string]any `json:"limits"`
}

type pythonEnv struct {
	Version       string          `json:"version"`
	StdlibModules int             `json:"stdlib_modules"`
	ThirdParty    []string        `json:"third_party"`
	Notable       map[string]bool `json:"notable"`
}

func (r *runner) env(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	py := interpreter(languages["python"])
	if py == "" {
		return nil, tool.MissingProgram("python3")
	}
	sandboxed, err := r.sandboxed()
	if err != nil {
		return nil, err
	}
	run := func(argv ...string) (*jail.Result, error) {
		spec := jail.Spec{Argv: argv, Env: []string{"PATH=" + jailPath, "LANG=C.UTF-8"}, Timeout: 30 * time.Second, StdoutCap: 1 << 20,
			Limits: jail.Limits{MemoryMB: r.cfg.MemoryMB, Processes: r.cfg.Processes}}
		if sandboxed {
			return r.d.Run(ctx, spec)
		}
		return r.d.RunUnconfined(ctx, spec)
	}
	res, err := run(py, "-B", "-s", "-E", "-c", envScript)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "clawbridge doctor checks the sandbox", "python_runner: %v", err)
	}
	var pe pythonEnv
	if res.ExitCode != 0 || json.Unmarshal([]byte(res.Stdout), &pe) != nil {
		return nil, tool.Errorf(tool.CodeFailed, "check the python3 install on the server", "python3 could not list its modules (exit %d): %s", res.ExitCode, strings.TrimSpace(res.Stderr))
	}
	out := &envOutput{Sandboxed: sandboxed, Python: &pe, Limits: map[string]any{
		"timeout_seconds": r.cfg.Timeout.Seconds(), "cpu_seconds": r.cfg.CPUSeconds, "memory_mb": r.cfg.MemoryMB,
		"processes": r.cfg.Processes, "file_size_mb": r.cfg.FileSizeMB, "network": !sandboxed}}
	if node := interpreter(languages["javascript"]); node != "" {
		if res, err := run(node, "--version"); err == nil && res.ExitCode == 0 {
			out.Node = strings.TrimSpace(res.Stdout)
		}
	}
	var have []string
	for _, n := range []string{"numpy", "pandas", "matplotlib", "scipy"} {
		if pe.Notable[n] {
			have = append(have, n)
		}
	}
	summary := fmt.Sprintf("Python %s with %s beyond the standard library", pe.Version, wording.Count(len(pe.ThirdParty), "module", "modules"))
	if len(have) > 0 {
		summary += " (" + strings.Join(have, ", ") + " importable)"
	} else {
		summary += " (no numpy, pandas, matplotlib or scipy)"
	}
	if out.Node != "" {
		summary += "; node " + out.Node
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}
