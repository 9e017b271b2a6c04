// Package system is the `system` tool: read-only views of the machine the
// server runs on (hardware and OS, processes, listening ports, environment)
// and of what the config names (HTTP health checks, log files).
package system

import (
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Name is the catalog name of the tool.
const Name = "system"

type sys struct {
	d *tool.Deps
}

// New builds the system tool.
func New(d *tool.Deps) (tool.Tool, error) {
	s := &sys{d: d}
	// processes and log_tail share `limit`; the merged schema shows one
	// description, so it names both defaults.
	limit := tool.Param{Name: "limit", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(5000),
		Description: "Processes (default 15) or log lines (default 100) to return."}
	name := tool.Param{Name: "name", Type: tool.String,
		Description: "Service (default all) or log file name from the config."}
	nameRequired := name
	nameRequired.Required = true
	return tool.Tool{
		Name:        Name,
		Title:       "System information",
		Description: "Inspect the machine the server runs on (read-only): OS, CPU, memory, disks, processes, ports, environment (secrets redacted), configured services and their logs.",
		Actions: []tool.Action{
			{Name: "info", Handler: s.info,
				Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
			{Name: "processes", Handler: s.processes, Description: "top by CPU or memory",
				Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "sort_by", Type: tool.String, Enum: []string{"cpu", "memory"}, Default: "cpu", Description: "CPU or resident memory."},
					limit,
				}},
			{Name: "ports", Handler: s.ports, Description: "listening sockets and their programs",
				Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "protocol", Type: tool.String, Enum: []string{"all", "tcp", "udp"}, Default: "all", Description: "Sockets to list."},
				}},
			{Name: "env", Handler: s.env, Description: "secrets redacted",
				Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "query", Type: tool.String, Description: "Only names containing it."},
				}},
			{Name: "service_status", Handler: s.serviceStatus, Description: "health of configured services",
				Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: []tool.Param{
					name,
					{Name: "timeout_seconds", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(60), Default: 5, Description: "Per service."},
				}},
			{Name: "log_tail", Handler: s.logTail, Description: "of a configured log file",
				Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					nameRequired,
					limit,
				}},
		},
		Examples: []string{
			"how much memory and disk space is free on this machine",
			"which processes use the most CPU",
			"what is listening on port 8080",
			"is the api service healthy",
			"show the last 50 lines of the app log",
			"查看系统信息：CPU、内存和磁盘使用情况",
			"哪个进程占用内存最多",
			"查看服务器上监听的端口",
			"检查服务健康状态并查看最近的日志",
		},
	}, nil
}
