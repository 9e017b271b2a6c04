package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools/shell"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The contract the model sees, through real mcp-go clients: lenient
// argument forms, single actions, call_tool's arguments, the meta tools'
// titles and audit, and parameters that config turns off.

// typedTool returns its normalized arguments as its result.
func typedTool() tool.Tool {
	return tool.Tool{Name: "typed", Title: "Typed", Description: "Returns the arguments it was given, normalized.", Examples: []string{"typed"},
		Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Params: []tool.Param{
			{Name: "count", Type: tool.Integer, Description: "a count"},
			{Name: "flag", Type: tool.Boolean, Description: "a flag"},
			{Name: "paths", Type: tool.Array, Items: &tool.Param{Name: "path", Type: tool.String, Description: "a path"}, Description: "paths"},
		},
			Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
				return &tool.Result{Data: map[string]any{"count": c.Args["count"], "flag": c.Args["flag"], "paths": c.Args["paths"]}}, nil
			}}}}
}

func contractServer(t *testing.T, tools ...tool.Tool) (*Server, *client.Client) {
	return modeServer(t, exposure.ModeFull, tools...)
}

func modeServer(t *testing.T, mode string, tools ...tool.Tool) (*Server, *client.Client) {
	t.Helper()
	d := tooltest.Deps(t)
	d.Config.Exposure.Mode = mode
	s := newServer(t, d, tools...)
	return s, stdioPair(t, s)
}

func structured(t *testing.T, r *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(r.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return m
}

// schemaOf is the input schema of a listed tool as the client received it.
func schemaOf(t *testing.T, tl mcp.Tool) map[string]any {
	t.Helper()
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		InputSchema map[string]any `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.InputSchema
}

func errorField(t *testing.T, r *mcp.CallToolResult) (code, field string) {
	t.Helper()
	if !r.IsError {
		t.Fatalf("want an error, got %s", text(r))
	}
	e, _ := structured(t, r)["error"].(map[string]any)
	code, _ = e["code"].(string)
	field, _ = e["field"].(string)
	return code, field
}

func TestLenient_ThroughClient(t *testing.T) {
	_, c := contractServer(t, typedTool())
	r := call(t, c, "typed", map[string]any{"count": "3", "flag": "true", "paths": "report.pdf", "action": "run"})
	if r.IsError {
		t.Fatal(text(r))
	}
	got := structured(t, r)
	if got["count"] != 3.0 || got["flag"] != true {
		t.Errorf("not normalized: %v", got)
	}
	if p, _ := got["paths"].([]any); len(p) != 1 || p[0] != "report.pdf" {
		t.Errorf("paths = %v", got["paths"])
	}
	for _, bad := range []map[string]any{{"count": "3.5"}, {"flag": "yes"}, {"paths": 1}, {"coun": "3"}, {"action": "other"}} {
		code, field := errorField(t, call(t, c, "typed", bad))
		var want string
		for k := range bad {
			want = k
		}
		if code != tool.CodeInvalid || field != want {
			t.Errorf("%v: code %q field %q", bad, code, field)
		}
	}
}

func TestCallTool_ArgumentsObjectOrJSONString(t *testing.T) {
	_, c := contractServer(t, typedTool())
	for _, args := range []any{
		map[string]any{"count": 4, "paths": []any{"a"}},
		`{"count": 4, "paths": ["a"]}`,
		`{"count": "4", "paths": "a"}`,
	} {
		r := call(t, c, exposure.CallTool, map[string]any{"name": "typed", "arguments": args})
		if r.IsError {
			t.Fatalf("%v: %s", args, text(r))
		}
		if got := structured(t, r); got["count"] != 4.0 {
			t.Errorf("%v: arguments lost: %v", args, got)
		}
	}
	for _, bad := range []any{`{"count": 4`, `[1, 2]`, `null`, `"x"`, 7} {
		if code, field := errorField(t, call(t, c, exposure.CallTool, map[string]any{"name": "typed", "arguments": bad})); code != tool.CodeInvalid || field != "arguments" {
			t.Errorf("%v: code %q field %q", bad, code, field)
		}
	}
	if code, field := errorField(t, call(t, c, exposure.CallTool, map[string]any{"name": "typed", "argument": "{}"})); code != tool.CodeInvalid || field != "argument" {
		t.Errorf("unknown call_tool field: code %q field %q", code, field)
	}
	if code, _ := errorField(t, call(t, c, exposure.CallTool, map[string]any{"name": "nope"})); code != tool.CodeNotFound {
		t.Errorf("unknown tool: %q", code)
	}
	// The inner tool's own checks still apply.
	if code, field := errorField(t, call(t, c, exposure.CallTool, map[string]any{"name": "typed", "arguments": `{"count": "x"}`})); code != tool.CodeInvalid || field != "count" {
		t.Errorf("inner check: code %q field %q", code, field)
	}
}

func TestMetaTools_TitlesAndSchemas(t *testing.T) {
	_, c := modeServer(t, exposure.ModeSearch, typedTool()) // search mode lists call_tool
	res, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, tl := range res.Tools {
		schema := schemaOf(t, tl)
		if tl.Title == "" {
			t.Errorf("%s has no title", tl.Name)
		}
		if _, ok := schema["additionalProperties"]; ok {
			t.Errorf("%s: additionalProperties published (Prepare refuses unknown fields; the schema need not say it): %v", tl.Name, schema)
		}
		switch tl.Name {
		case exposure.FindTools:
			seen++
			if req, _ := schema["required"].([]any); len(req) != 1 || req[0] != "request" {
				t.Errorf("find_tools required = %v", schema["required"])
			}
		case exposure.CallTool:
			seen++
			if _, ok := schema["properties"].(map[string]any)[confirmParam]; ok {
				t.Error("call_tool publishes confirm_token; it belongs in the inner arguments")
			}
		}
	}
	if seen != 2 {
		t.Errorf("meta tools listed: %d of 2", seen)
	}
}

// find_tools and call_tool leave a trace like every call, failures included.
func TestMetaTools_Audited(t *testing.T) {
	s, c := contractServer(t, typedTool())
	call(t, c, exposure.FindTools, map[string]any{"request": "count things"})
	call(t, c, exposure.FindTools, map[string]any{"request": "count things", "include_schemas": "true"})
	call(t, c, exposure.FindTools, map[string]any{"query": "wrong field"})
	call(t, c, exposure.CallTool, map[string]any{"name": "typed", "arguments": "{not json"})
	call(t, c, exposure.CallTool, map[string]any{"name": "typed", "arguments": map[string]any{"count": 1}})
	if err := s.traceLog.Flush(context.Background()); err != nil { // trace rows are group-committed
		t.Fatal(err)
	}
	rows, err := s.store.Read().Query(`SELECT tool, status, COALESCE(error_code, '') FROM traces ORDER BY at`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name, status, code string
		if err := rows.Scan(&name, &status, &code); err != nil {
			t.Fatal(err)
		}
		got = append(got, name+" "+status+" "+code)
	}
	want := []string{"find_tools ok ", "find_tools ok ", "find_tools error invalid_argument", "call_tool error invalid_argument", "typed ok "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("traces:\n got %q\nwant %q", got, want)
	}
}

// The shell's `shell` line is not published while shell.allow_shell is off,
// and a call that gives it is refused with how to enable it.
func TestDisabledParam_ShellThroughClient(t *testing.T) {
	for _, allow := range []bool{false, true} {
		d := tooltest.Deps(t)
		d.Config.Exposure.Mode = exposure.ModeFull
		d.Config.Shell.AllowShell = allow
		s := newServer(t, d, tooltest.Build(t, shell.New, d))
		c := stdioPair(t, s)
		res, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		listed := false
		for _, tl := range res.Tools {
			if tl.Name != shell.Name {
				continue
			}
			listed = true
			_, published := schemaOf(t, tl)["properties"].(map[string]any)["shell"]
			if published != allow {
				t.Errorf("allow_shell=%v: shell parameter published=%v", allow, published)
			}
		}
		if !listed {
			t.Fatal("shell not listed")
		}
		if allow {
			continue
		}
		r := call(t, c, shell.Name, map[string]any{"shell": "ls | wc -l"})
		if code, field := errorField(t, r); code != tool.CodeDenied || field != "shell" || !strings.Contains(text(r), "allow_shell") {
			t.Errorf("disabled shell line: code %q field %q: %s", code, field, text(r))
		}
	}
}
