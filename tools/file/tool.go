// Package file is the `file` tool: reading, writing and managing files inside
// the workspace roots. Every path goes through the sandbox, writes are atomic,
// deletes and overwritten files go to the workspace trash (never removed for
// real), and unzip refuses path escapes and zip bombs.
package file

import (
	"errors"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// settings is the tool's own config section (`tools: file:` in the YAML).
type settings struct {
	// MaxReadBytes caps the text one read returns.
	MaxReadBytes int `yaml:"max_read_bytes"`
	// MaxUnzipBytes caps the total uncompressed size of an archive.
	MaxUnzipBytes int64 `yaml:"max_unzip_bytes"`
	// MaxUnzipEntries caps the number of entries of an archive.
	MaxUnzipEntries int `yaml:"max_unzip_entries"`
	// MaxUnzipRatio caps uncompressed/compressed size, per entry and overall,
	// for entries or archives larger than 1 MiB (small files may compress
	// extremely well without being dangerous).
	MaxUnzipRatio float64 `yaml:"max_unzip_ratio"`
	// MaxGrepFileBytes: grep skips larger files.
	MaxGrepFileBytes int64 `yaml:"max_grep_file_bytes"`
	// MaxWalkEntries bounds how many entries find, grep and tree visit.
	MaxWalkEntries int `yaml:"max_walk_entries"`
}

func defaultSettings() settings {
	return settings{
		MaxReadBytes:     256 << 10,
		MaxUnzipBytes:    1 << 30,
		MaxUnzipEntries:  10000,
		MaxUnzipRatio:    200,
		MaxGrepFileBytes: 16 << 20,
		MaxWalkEntries:   200000,
	}
}

// Validate refuses limits that cannot work (config.Section calls it; the
// server does not start with a refused section).
func (s *settings) Validate() error {
	return errors.Join(
		config.AtLeast("max_read_bytes", s.MaxReadBytes, 1),
		config.AtLeast("max_unzip_bytes", s.MaxUnzipBytes, 1),
		config.AtLeast("max_unzip_entries", s.MaxUnzipEntries, 1),
		config.AtLeast("max_unzip_ratio", s.MaxUnzipRatio, 1),
		config.AtLeast("max_grep_file_bytes", s.MaxGrepFileBytes, 1),
		config.AtLeast("max_walk_entries", s.MaxWalkEntries, 1),
	)
}

type fileTool struct {
	d   *tool.Deps
	sb  *sandbox.Sandbox
	cfg settings
}

// New builds the file tool from its config section (tools/tool/lifecycle.go).
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[settings]{Name: "file", Defaults: defaultSettings, Provision: provision}.New(d)
}

// provision builds the tool from its decoded settings.
func provision(d *tool.Deps, cfg settings) (tool.Tool, error) {
	ft := &fileTool{d: d, sb: d.Sandbox, cfg: cfg}
	return tool.Tool{
		Name:  "file",
		Title: "Workspace files",
		Description: "Read, write, search and manage workspace files (any text encoding); a delete can be restored. " +
			"Paths are relative to the workspace root.",
		Actions: ft.actions(),

		Examples: []string{
			"read the file notes/todo.md",
			"list the files in the reports folder",
			"find all markdown files under docs",
			"search the project for TODO comments",
			"zip the output folder into results.zip",
			"读取 data/说明.txt 的内容",
			"把 旧文件.docx 删除到回收站",
			"解压 archive.zip 到 extracted 目录",
		},
	}, nil
}

// Parameters shared by several actions; descriptions are generic because the
// published schema shows one description per parameter name.
var (
	pPath = tool.Param{Name: "path", Type: tool.String,
		Description: "Default the workspace root."}
	pPaths = tool.Param{Name: "paths", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String},
		Description: "To archive."}
	pOutput    = tool.OutputParam("Destination (zip: the archive).")
	pText      = tool.Param{Name: "text", Type: tool.String, Description: "To write or append."}
	pOverwrite = tool.Param{Name: "overwrite", Type: tool.Boolean, Default: false,
		Description: "Old content goes to the trash."}
	pEncoding = tool.Param{Name: "encoding", Type: tool.String, Default: "auto",
		Enum:        tool.EnumValues("auto", "utf-8", "gb18030", "gbk", "utf-16le", "utf-16be", "latin1"),
		Description: "auto: detected on read, kept on write."}
	pOffset  = tool.Param{Name: "offset", Type: tool.Integer, Min: tool.Ptr(0)}
	pLimit   = tool.Param{Name: "limit", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(10000)}
	pDepth   = tool.Param{Name: "depth", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(10), Default: 3}
	pPattern = tool.Param{Name: "pattern", Type: tool.String,
		Description: "Glob (**, {a,b}); without / it matches names at any depth."}
	pQuery = tool.Param{Name: "query", Type: tool.String,
		Description: "RE2 regex, per line."}
	pIgnoreCase = tool.Param{Name: "ignore_case", Type: tool.Boolean, Default: false}
	pID         = tool.Param{Name: "id", Type: tool.String,
		Description: "From delete or a replacing write."}
	pAlgorithm = tool.Param{Name: "algorithm", Type: tool.String, Default: "sha256",
		Enum: tool.EnumValues("sha256", "sha1", "md5", "sha512")}
)

func req(p tool.Param) tool.Param { p.Required = true; return p }

func (ft *fileTool) actions() []tool.Action {
	return []tool.Action{
		{Name: "read", Handler: ft.read,
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{req(pPath), pOffset, pLimit, pEncoding}},
		{Name: "write", Handler: ft.write,
			Level: tool.Write, Timeout: tool.Fast, Params: []tool.Param{req(pPath), req(pText), pOverwrite, pEncoding}},
		{Name: "append", Handler: ft.appendText,
			Level: tool.Write, Timeout: tool.Fast, Params: []tool.Param{req(pPath), req(pText), pEncoding}},
		{Name: "list", Handler: ft.list,
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{pPath, pOffset, pLimit}},
		{Name: "tree", Handler: ft.tree,
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{pPath, pDepth, pLimit}},
		{Name: "find", Handler: ft.find,
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{pPath, req(pPattern), pLimit}},
		{Name: "grep", Handler: ft.grep,
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{pPath, req(pQuery), pPattern, pIgnoreCase, pLimit}},
		{Name: "stat", Handler: ft.stat,
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{req(pPath)}},
		{Name: "mkdir", Handler: ft.mkdir, Description: "with parents",
			Level: tool.Write, Timeout: tool.Fast, Params: []tool.Param{req(pPath)}},
		{Name: "move", Handler: ft.move, Description: "or rename",
			Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{req(pPath), req(pOutput), pOverwrite}},
		{Name: "copy", Handler: ft.copy,
			Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{req(pPath), req(pOutput), pOverwrite}},
		{Name: "delete", Handler: ft.delete, Description: "to the trash",
			Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{req(pPath)}},
		{Name: "restore", Handler: ft.restore, Description: "by id or path; neither lists the trash",
			Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{pID, pPath, pOutput}},
		{Name: "zip", Handler: ft.zip,
			Level: tool.Write, Timeout: tool.Slow, Params: []tool.Param{req(pPaths), pOutput, pOverwrite}},
		{Name: "unzip", Handler: ft.unzip,
			Level: tool.Write, Timeout: tool.Slow, Params: []tool.Param{req(pPath), pOutput, pOverwrite}},
		{Name: "hash", Handler: ft.hash,
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{req(pPath), pAlgorithm}},
	}
}
