// Package codeassist is coding_assistant: read-only helpers for code. It
// formats source (Go through go/format, other languages through a formatter
// found on PATH), analyses it (Go functions with cyclomatic complexity from
// the AST; line, comment and function counts for other languages), diffs two
// texts or files, hands out project skeletons that build and run, validates,
// pretty-prints and queries JSON (jq through gojq) and tests regular
// expressions (Go's RE2).
//
// It never writes: formatted code, skeletons and diffs come back in the
// result, for the file tool to save. It runs no code of the caller's; the
// only programs it starts are the formatters and its own jq worker (the
// running binary, jqworker.go), both in the jail.
package codeassist

import (
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// maxInput caps one text or file the tool reads (4 MB): enough for any
// source file, small enough to answer fast.
const maxInput = 4 << 20

type assistant struct {
	d *tool.Deps
}

// New builds coding_assistant.
func New(d *tool.Deps) (tool.Tool, error) {
	a := &assistant{d: d}
	return tool.Tool{
		Name:  "coding_assistant",
		Title: "Coding assistant",
		Description: "Code helpers that change nothing: format code (gofmt, shfmt, clang-format, black), analyze functions and cyclomatic complexity, " +
			"unified diff of two texts or files, skeletons (Go/Python/JavaScript CLI, HTTP API, test file), JSON validate/pretty-print/jq, regex tests (RE2).",
		Actions: []tool.Action{
			{Name: "format", Description: "format source code and say which formatter ran", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: append(sourceParams(), tool.Param{Name: "language", Type: tool.String, Enum: formatLanguages(),
					Description: "Language of the code (default: from the path's extension)."}),
				Handler: a.format},
			{Name: "analyze", Description: "functions, complexity and line counts of a file, a directory or a text", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: append(sourceParams(),
					tool.Param{Name: "language", Type: tool.String, Enum: analyzeLanguages(), Description: "Language of the code (default: from the extensions)."},
					tool.Param{Name: "limit", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(1000), Default: 50, Description: "Functions listed, most complex first; totals always count all."}),
				Handler: a.analyze},
			{Name: "diff", Description: "unified diff of two texts or two workspace files with added/removed counts", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "old_text", Type: tool.String, Description: "Original text (with new_text)."},
					{Name: "new_text", Type: tool.String, Description: "Changed text (with old_text)."},
					{Name: "paths", Type: tool.Array, Items: &tool.Param{Name: "path", Type: tool.String, Description: "workspace file"}, Description: "Two workspace files: original, then changed (instead of the texts)."},
					{Name: "context", Type: tool.Integer, Min: tool.Ptr(0), Max: tool.Ptr(1000), Default: 3, Description: "Unchanged lines shown around each change."},
				},
				Handler: a.diff},
			{Name: "template", Description: "skeleton files for a Go, Python or JavaScript CLI, HTTP API or test file", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "language", Type: tool.String, Required: true, Enum: templateLanguages, Description: "Language of the skeleton."},
					{Name: "kind", Type: tool.String, Required: true, Enum: templateKinds, Description: "cli, http_api or test."},
					{Name: "name", Type: tool.String, Description: "Project or module name: letters, digits, - and _ (default: app)."},
				},
				Handler: a.template},
			{Name: "json", Description: "validate JSON (line and column of an error), pretty-print it, or run a jq query", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: append(sourceParams(),
					tool.Param{Name: "query", Type: tool.String, Description: "jq program (gojq), e.g. '.items[] | select(.price > 10) | .name'. Without it the JSON is validated and pretty-printed."},
					tool.Param{Name: "indent", Type: tool.Integer, Min: tool.Ptr(0), Max: tool.Ptr(8), Default: 2, Description: "Spaces per level; 0 prints compact."}),
				Handler: a.json},
			{Name: "regex", Description: "test an RE2 regular expression (no lookaround or backreferences) on samples: matches, groups, positions", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{
					{Name: "pattern", Type: tool.String, Required: true, Description: "RE2 pattern; flags inline, e.g. (?i) case-insensitive, (?m) multi-line, (?s) dot matches newline."},
					{Name: "samples", Type: tool.Array, Required: true, Items: &tool.Param{Name: "sample", Type: tool.String, Description: "text to test"}, Description: "Texts to test the pattern on."},
					{Name: "replace", Type: tool.String, Description: "Replacement to apply to each sample ($1, ${name} name groups)."},
				},
				Handler: a.regex},
		},
		Programs: formatterPrograms(),
		Examples: []string{
			"format this go file",
			"run shfmt on my deploy script",
			"show a diff between the two versions",
			"what is the cyclomatic complexity of the functions in this package",
			"validate this json",
			"jq query to pull every name out of this json",
			"test my regex against these strings",
			"scaffold a python cli project",
			"give me a Go HTTP API skeleton",
			"格式化这段代码",
			"比较两个文件的差异",
			"检查这个正则表达式",
			"生成一个 Web API 项目骨架",
			"分析代码的函数复杂度",
			"把这段 JSON 格式化一下",
		},
	}, nil
}

// sourceParams are the inputs of the actions that read one piece of code:
// a text, or a workspace path.
func sourceParams() []tool.Param {
	return []tool.Param{
		{Name: "text", Type: tool.String, Description: "The code or JSON itself (or give path)."},
		{Name: "path", Type: tool.String, Description: "A workspace file (analyze also takes a directory)."},
	}
}

// source is one input read from the call.
type source struct {
	text  string
	path  string // as given; "" for text
	abs   string // resolved path; "" for text
	field string // the parameter it came from
}

// readSource reads text or path, exactly one of them.
func (a *assistant) readSource(c *tool.Call, hint string) (*source, error) {
	field, err := c.Args.ExactlyOne(hint, "text", "path")
	if err != nil {
		return nil, err
	}
	if field == "text" {
		t := c.Args.String("text")
		if len(t) > maxInput {
			return nil, tool.Errorf(tool.CodeTooLarge, "send a smaller text or a workspace path", "text is %d bytes, above the limit of %d", len(t), maxInput)
		}
		return &source{text: t, field: "text"}, nil
	}
	p := c.Args.String("path")
	abs, data, err := a.readFile("path", p)
	if err != nil {
		return nil, err
	}
	return &source{text: string(data), path: p, abs: abs, field: "path"}, nil
}

// readFile reads one workspace text file given in field (a regular file
// under the cap: a FIFO or a device is refused, not waited on).
func (a *assistant) readFile(field, p string) (string, []byte, error) {
	abs, err := a.d.Sandbox.Resolve(p)
	if err != nil {
		return "", nil, tool.PathError(field, p, err)
	}
	data, err := tool.ReadRegular(field, p, abs, maxInput)
	if err != nil {
		return "", nil, err
	}
	if !isText(data) {
		return "", nil, tool.Invalid(field, p+" is not a UTF-8 text file", "give a source file")
	}
	return abs, data, nil
}

// isText reports whether data is UTF-8 without NUL bytes.
func isText(data []byte) bool {
	for _, b := range data {
		if b == 0 {
			return false
		}
	}
	return utf8.Valid(data)
}
