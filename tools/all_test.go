package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"clawbridge/tools"
	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// The contract every registered tool meets.
func TestRegistryContract(t *testing.T) {
	all, err := tools.All(tooltest.Deps(t))
	if err != nil {
		t.Fatal(err)
	}
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
				if a.Level == "" || a.Timeout == "" {
					t.Errorf("action %q lacks a level or timeout class", a.Name)
				}
				if tl.MultiAction() && a.Description == "" {
					t.Errorf("action %q has no description", a.Name)
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

// snapshot is what a client sees of a tool; a change to it must be deliberate.
type snapshot struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	Annotations map[string]any `json:"annotations"`
	Levels      map[string]any `json:"levels"`
}

// TestToolSnapshots compares every tool's published schema with
// fixtures/toolsnaps/NAME.json. UPDATE_TOOLSNAPS=1 rewrites them; a missing
// snapshot fails.
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("..", "fixtures", "toolsnaps")
	update := os.Getenv("UPDATE_TOOLSNAPS") == "1"
	all, err := tools.All(tooltest.Deps(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range all {
		a := tl.Annotations()
		levels := map[string]any{}
		for _, ac := range tl.Actions {
			name := ac.Name
			if name == "" {
				name = "run"
			}
			levels[name] = string(ac.Level)
		}
		snap := snapshot{
			Name: tl.Name, Title: tl.Title, Description: tl.Description, InputSchema: tl.InputSchema(),
			Annotations: map[string]any{"readOnlyHint": a.ReadOnly, "destructiveHint": a.Destructive, "idempotentHint": a.Idempotent, "openWorldHint": a.OpenWorld},
			Levels:      levels,
		}
		got, err := json.MarshalIndent(snap, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(dir, tl.Name+".json")
		if update {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot at %s; run UPDATE_TOOLSNAPS=1 go test ./tools/ and review it", tl.Name, path)
			continue
		}
		if string(want) != string(got) {
			t.Errorf("%s: published schema changed; if intended, run UPDATE_TOOLSNAPS=1 go test ./tools/ and commit the diff\n%s", tl.Name, firstDiff(string(want), string(got)))
		}
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
