package tools_test

import (
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// pathParams are the input parameters that name a workspace path, by the
// naming convention of tool.Param. Output paths (output, output_dir) are
// checked after the inputs are read, so they need real input files per
// tool; each tool's own tests cover them.
var pathParams = map[string]bool{"path": true, "paths": true, "cwd": true}

// notReached are actions whose argument checks, which come first, refuse
// the placeholder arguments before the path is resolved (merge needs two
// PDFs, rotate a right angle, query valid SQL...). They are listed so the
// test tells when one starts to reach the path check.
var notReached = map[string]bool{
	"pdf_tool/merge/paths": true, "pdf_tool/rotate/path": true, "pdf_tool/set_permissions/path": true,
	"pdf_tool/watermark/path": true, "pdf_tool/stamp/path": true, "pdf_tool/images_to_pdf/paths": true,
	"pdf_tool/fill_form/path": true, "data_processor/query/paths": true, "data_processor/filter/path": true,
	"data_processor/join/paths": true, "data_processor/export/paths": true,
}

// baseArgs are what every call of a takes: its name (for a tool of several
// actions) and a placeholder for each required parameter.
func baseArgs(tl tool.Tool, a tool.Action) map[string]any {
	args := map[string]any{}
	if tl.MultiAction() {
		args["action"] = a.Name
	}
	for _, q := range a.Params {
		if q.Required {
			args[q.Name] = placeholder(q)
		}
	}
	return args
}

// placeholder is a value of p's type that passes the schema.
func placeholder(p tool.Param) any {
	switch p.Type {
	case tool.String:
		if len(p.Enum) > 0 {
			return p.Enum[0]
		}
		return "x"
	case tool.Integer, tool.Number:
		if p.Min != nil {
			return *p.Min
		}
		return 1
	case tool.Boolean:
		return false
	case tool.Array:
		return []any{placeholder(*p.Items)}
	}
	return map[string]any{}
}

// TestOutsideWorkspace_EveryPathParameter: for every action of every tool,
// each path parameter given a path outside the workspace answers with the
// one error: permission_denied, naming that parameter.
func TestOutsideWorkspace_EveryPathParameter(t *testing.T) {
	isPath := func(p tool.Param) bool { return pathParams[p.Name] }
	eachParam(t, allTools(t, tooltest.Deps(t)), isPath, func(t *testing.T, name string, tl tool.Tool, a tool.Action, p tool.Param) {
		args := baseArgs(tl, a)
		setParam(args, p, "/etc/clawbridge-outside.txt")
		_, err := tooltest.Run(t, tl, args)
		te, ok := tool.AsError(err)
		reached := ok && te.Code == tool.CodeDenied && te.Field == p.Name && te.Hint == tool.OutsideWorkspace(p.Name, "").Hint
		if notReached[name] {
			if reached {
				t.Errorf("%s now reaches the path check: remove it from notReached", name)
			}
			return
		}
		if !reached {
			t.Errorf("%v: got %v (code %v, field %v), want permission_denied on %s", args, err, code(te), field(te), p.Name)
		}
	})
}

func code(e *tool.Error) string {
	if e == nil {
		return ""
	}
	return e.Code
}

func field(e *tool.Error) string {
	if e == nil {
		return ""
	}
	return e.Field
}
