package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/server"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// The contract every registered tool meets.
func TestRegistryContract(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	if len(all) == 0 {
		t.Fatal("empty registry")
	}
	seen := map[string]bool{}
	for _, tl := range all {
		t.Run(tl.Name, func(t *testing.T) {
			if err := tl.Validate(); err != nil {
				t.Fatal(err)
			}
			if seen[tl.Name] {
				t.Fatalf("duplicate tool name %q", tl.Name)
			}
			seen[tl.Name] = true
			if len(tl.Description) < 40 {
				t.Errorf("description too thin for a model to choose by: %q", tl.Description)
			}
			if len(tl.Examples) == 0 {
				t.Errorf("no example requests for the router")
			}
			for _, a := range tl.Actions {
				if a.Handler == nil {
					t.Errorf("action %q has no handler", a.Name)
				}
				if a.Level == "" || a.Timeout == "" {
					t.Errorf("action %q lacks a level or timeout class", a.Name)
				}
			}
			schema := tl.InputSchema()
			for _, banned := range []string{"oneOf", "anyOf", "allOf"} {
				if _, ok := schema[banned]; ok {
					t.Errorf("top-level %s in the input schema (clients reject it)", banned)
				}
			}
			if schema["type"] != "object" {
				t.Errorf("schema type %v", schema["type"])
			}
			for name := range schema["properties"].(map[string]any) {
				if !snake.MatchString(name) {
					t.Errorf("parameter %q is not snake_case", name)
				}
			}
			if tl.MultiAction() {
				req, _ := schema["required"].([]string)
				if len(req) == 0 || req[0] != "action" {
					t.Errorf("multi-action tool must require `action` first: %v", req)
				}
			} else {
				// A single-action tool takes its action's name, or none.
				for _, args := range []map[string]any{{}, {"action": tool.SingleActionName}} {
					if _, err := tl.Prepare(args); err != nil {
						if te, ok := tool.AsError(err); !ok || te.Field == "action" {
							t.Errorf("single action refused %v: %v", args, err)
						}
					}
				}
			}
			// The schema does not publish additionalProperties: a field a
			// client adds on its own (Gemini CLI's wait_for_previous) is
			// ignored and recorded; a near miss of a parameter is refused,
			// naming it.
			for _, a := range tl.Actions {
				args := map[string]any{"wait_for_previous": true}
				if tl.MultiAction() {
					args["action"] = a.Name
				}
				for _, p := range a.Params {
					if p.Required {
						args[p.Name] = nil // absent: only the unknown field is looked at first
					}
				}
				c, err := tl.Prepare(args)
				if te, ok := tool.AsError(err); ok && te.Field == "wait_for_previous" {
					t.Errorf("%s: a client's own field refused: %v", a.Name, err)
				} else if err == nil && (len(c.Ignored) != 1 || c.Ignored[0] != "wait_for_previous") {
					t.Errorf("%s: ignored %v", a.Name, c.Ignored)
				}
				if len(a.Params) == 0 || len(a.Params[0].Name) < 4 {
					continue
				}
				miss := a.Params[0].Name[1:] // one letter short
				args = map[string]any{miss: 1.0}
				if tl.MultiAction() {
					args["action"] = a.Name
				}
				if _, err := tl.Prepare(args); err == nil {
					t.Errorf("%s: misspelt field %s accepted", a.Name, miss)
				} else if te, ok := tool.AsError(err); !ok || te.Field != miss {
					t.Errorf("%s: misspelt field %s refused as %v", a.Name, miss, err)
				}
			}
			a := tl.Annotations()
			if a.ReadOnly && tl.MaxLevel() != tool.Read {
				t.Errorf("read-only hint on a tool with %s actions", tl.MaxLevel())
			}
			if tl.MaxLevel() == tool.High && !a.Destructive {
				t.Errorf("high tool without the destructive hint")
			}
			for prog, pkg := range tl.Programs {
				if prog == "" || pkg == "" {
					t.Errorf("program map needs both program and Debian package: %q=%q", prog, pkg)
				}
			}
		})
	}
}

// snapshot is what a client receives of a tool (the server adapter's
// mcp.Tool: schema with confirm_token, title, annotations), with the level of
// each action, which the annotations only summarize. A change to it must be
// deliberate.
type snapshot struct {
	Published mcp.Tool          `json:"published"`
	Levels    map[string]string `json:"levels,omitempty"` // none for the meta tools

}

// TestToolSnapshots compares every tool as published with
// fixtures/toolsnaps/NAME.json. UPDATE_TOOLSNAPS=1 rewrites them; a missing
// snapshot fails, also when it was just written, so that a new tool's
// snapshot is reviewed before it is committed; a snapshot of no tool fails.
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("..", "fixtures", "toolsnaps")
	update := os.Getenv("UPDATE_TOOLSNAPS") == "1"
	all := allTools(t, tooltest.Deps(t))
	names := map[string]bool{}
	for i := range all {
		tl := &all[i]
		names[tl.Name+".json"] = true
		levels := map[string]string{}
		for _, ac := range tl.Actions {
			name := ac.Name
			if name == "" {
				name = tool.SingleActionName
			}
			levels[name] = string(ac.Level)
		}
		check(t, filepath.Join(dir, tl.Name+".json"), snapshot{Published: server.Published(tl), Levels: levels}, update)
	}
	for _, m := range server.PublishedMeta() {
		names[m.Name+".json"] = true
		check(t, filepath.Join(dir, m.Name+".json"), snapshot{Published: m}, update)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !names[filepath.Base(f)] {
			t.Errorf("snapshot %s belongs to no registered tool; delete it", f)
		}
	}
}

// check compares one snapshot with its file, or rewrites the file; a
// missing file fails either way.
func check(t *testing.T, path string, snap snapshot, update bool) {
	t.Helper()
	got, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: no snapshot; run UPDATE_TOOLSNAPS=1 go test ./tools/ and review it", path)
	}
	if update {
		tooltest.WriteFile(t, path, got)
		return
	}
	if err == nil && string(want) != string(got) {
		t.Errorf("%s: published tool changed; if intended, run UPDATE_TOOLSNAPS=1 go test ./tools/ and commit the diff\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "length differs"
}
