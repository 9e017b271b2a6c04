// Package shell is the `shell` tool: run one command as an argv list (no
// shell interpretation) in the workspace, with a timeout, output caps and a
// scrubbed environment. Read-level calls (an allow-listed system program,
// argv, cwd in the workspace) run in internal/jail with the workspace
// read-only; confirmed calls run on the host. A command line for a real
// shell (`sh -c`) is accepted only when the config enables it.
package shell

import (
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Name is the catalog name of the tool.
const Name = "shell"

// New builds the shell tool.
func New(d *tool.Deps) (tool.Tool, error) {
	r := &runner{d: d}
	return tool.Tool{
		Name:  Name,
		Title: "Run a command",
		Description: "Run one program in the workspace. " +
			"Read-only programs (ls, cat, grep, wc...) run at once in a read-only jail; anything else asks the user first.",
		Actions: []tool.Action{{
			Description: "Run one command",
			Level:       tool.High, // CallLevel lowers it to Read for read-only programs
			// The effective limit is the tool's own timeout (shell.timeout, default
			// 60s, or timeout_seconds); the class is only the outer bound, so it
			// must not be shorter than any timeout the config may set.
			Timeout: tool.Slow,
			Params: []tool.Param{
				{Name: "argv", Type: tool.Array, Items: &tool.Param{Name: "arg", Type: tool.String},
					Description: "Program and arguments, e.g. [\"ls\", \"-la\"]; " +
						"`;`, `|`, `$(...)`, `*` and quotes reach it literally." + argvNote(d),
					Required: shellOff(d) != ""},
				{Name: "shell", Type: tool.String, Disabled: shellOff(d),
					Description: "A command line run with `sh -c` (pipes, redirections, globs); use argv when no shell is needed."},
				{Name: "cwd", Type: tool.String, Description: "Default the workspace root."},
				{Name: "timeout_seconds", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(3600)},
				{Name: "stdin", Type: tool.String},
			},
			Handler: r.handle,
			Preview: r.preview,
		}},
		CallLevel: func(c *tool.Call) tool.Level {
			return CallLevel(d.Config, d.Sandbox.Roots(), c.Args)
		},
		Programs: tool.ProgramsOf("sh"),
		Examples: []string{
			"run git status in the workspace",
			"list the files in the src folder with ls -la",
			"count the lines of main.go with wc -l",
			"run make test and show me the errors",
			"运行 git log 查看最近的提交",
			"在工作目录执行 ls 命令",
			"用 grep 搜索所有包含 TODO 的文件",
			"执行 python3 脚本并查看输出",
		},
	}, nil
}

// shellOff is why the `shell` parameter is off (it is then not published),
// or "" when the config allows command lines.
func shellOff(d *tool.Deps) string {
	if d.Config.Shell.AllowShell {
		return ""
	}
	return "pass the command as an argv list instead, or ask the administrator to enable shell command lines: set `shell: {allow_shell: true}` in the clawbridge config file (or CLAWBRIDGE_ALLOW_SHELL=1) and restart the server"
}

// argvNote mentions the `shell` parameter only where it is published.
func argvNote(d *tool.Deps) string {
	if shellOff(d) != "" {
		return ""
	}
	return " Required unless `shell` is used."
}
