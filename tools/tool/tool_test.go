package tool

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// valid is a multi-action tool that passes Validate; cases break one thing.
func valid() *Tool {
	return &Tool{Name: "demo_tool", Title: "Demo", Description: "A demo tool.", Examples: []string{"demo"},
		Actions: []Action{
			{Handler: noop, Name: "look", Description: "reads", Level: Read, Timeout: Fast, Params: []Param{{Name: "path", Type: String, Description: "a file", Required: true}}},
			{Handler: noop, Name: "change", Description: "writes", Level: Write, Timeout: Normal, Params: []Param{{Name: "path", Type: String, Description: "a file", Required: true}}},
		}}
}

// TestValidate_Contract: every rule of the contract refuses a tool that
// breaks it, with a message naming what is wrong.
func TestValidate_Contract(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatalf("the valid tool: %v", err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Tool)
		want   string
	}{
		{"name not snake_case", func(t *Tool) { t.Name = "DemoTool" }, "snake_case"},
		{"name with a dash", func(t *Tool) { t.Name = "demo-tool" }, "snake_case"},
		{"no title", func(t *Tool) { t.Title = "" }, "title and description"},
		{"no description", func(t *Tool) { t.Description = "" }, "title and description"},
		{"no handler", func(t *Tool) { t.Actions[1].Handler = nil }, "no handler"},
		{"no actions", func(t *Tool) { t.Actions = nil }, "no actions"},
		{"action name", func(t *Tool) { t.Actions[1].Name = "Change" }, `action "Change" must be snake_case`},
		{"empty action name of a multi-action tool", func(t *Tool) { t.Actions[1].Name = "" }, "must be snake_case"},
		{"duplicate action", func(t *Tool) { t.Actions[1].Name = "look" }, `duplicate action "look"`},
		{"unknown level", func(t *Tool) { t.Actions[0].Level = "admin" }, "level must be read, write or high"},
		{"no level", func(t *Tool) { t.Actions[0].Level = "" }, "level must be"},
		{"unknown timeout class", func(t *Tool) { t.Actions[0].Timeout = "forever" }, "timeout class"},
		{"param name", func(t *Tool) { t.Actions[0].Params[0].Name = "filePath" }, `"filePath" must be snake_case`},
		{"param description", func(t *Tool) { t.Actions[0].Params[0].Description = "" }, "needs a description"},
		{"array without items", func(t *Tool) { t.Actions[0].Params[0].Type = Array }, "needs Items"},
		{"unknown type", func(t *Tool) { t.Actions[0].Params[0].Type = "date" }, `unknown type "date"`},
		{"reserved action param", func(t *Tool) { t.Actions[0].Params[0].Name = "action" }, "reserved"},
		{"one param, two types", func(t *Tool) { t.Actions[1].Params[0].Type = Integer }, `parameter "path" has type string in one action and integer in another`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := valid()
			tc.mutate(tl)
			err := tl.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// A single-action tool needs no action name.
	single := &Tool{Name: "one", Title: "One", Description: "d", Actions: []Action{{Handler: noop, Level: Read, Timeout: Fast}}}
	if err := single.Validate(); err != nil {
		t.Errorf("single action without a name: %v", err)
	}
}

// TestSchema_ParamKeywords: a parameter renders as the JSON Schema keywords
// clients read, nested arrays and objects included, and nothing else.
func TestSchema_ParamKeywords(t *testing.T) {
	p := Param{Name: "rows", Type: Array, Description: "rows of a table", Items: &Param{Name: "row", Type: Object, Description: "one row",
		Properties: []Param{
			{Name: "name", Type: String, Description: "the name", Required: true, Enum: []string{"a", "b"}},
			{Name: "size", Type: Integer, Description: "the size", Min: Ptr(0), Max: Ptr(9), Default: 3},
		}}}
	want := map[string]any{
		"type": "array", "description": "rows of a table",
		"items": map[string]any{
			"type": "object", "description": "one row",
			"properties": map[string]any{
				"name": map[string]any{"type": "string", "description": "the name", "enum": []any{"a", "b"}},
				"size": map[string]any{"type": "integer", "description": "the size", "minimum": 0.0, "maximum": 9.0, "default": 3.0},
			},
			"required": []any{"name"},
		},
	}
	if got := roundTrip(t, p.Schema()); !reflect.DeepEqual(got, want) {
		t.Errorf("schema:\n got %v\nwant %v", got, want)
	}
	// Min 0 is a bound, not "no bound".
	if s := (Param{Name: "n", Type: Number, Description: "n", Min: Ptr(0)}).Schema(); s["minimum"] != 0.0 {
		t.Errorf("Min 0 dropped: %v", s)
	}
	// A false boolean default is what an absent flag means: not published;
	// a true one is.
	if s := (Param{Name: "b", Type: Boolean, Description: "b", Default: false}).Schema(); s["default"] != nil {
		t.Errorf("default false published: %v", s)
	}
	if s := (Param{Name: "b", Type: Boolean, Description: "b", Default: true}).Schema(); s["default"] != true {
		t.Errorf("default true dropped: %v", s)
	}
}

// TestSchema_FlatObject: the published schema is one flat object without
// additionalProperties (Prepare refuses unknown fields: TestStrict_UnknownFields)
// and without top-level oneOf/anyOf; a multi-action tool has
// a required `action` enum in declaration order whose description lists
// every action; a parameter required by every action is required.
func TestSchema_FlatObject(t *testing.T) {
	s := roundTrip(t, valid().InputSchema())
	if _, ok := s["additionalProperties"]; s["type"] != "object" || ok {
		t.Fatalf("not a plain object: %v", s)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if _, ok := s[k]; ok {
			t.Errorf("top-level %s", k)
		}
	}
	props := s["properties"].(map[string]any)
	action := props["action"].(map[string]any)
	if !reflect.DeepEqual(action["enum"], []any{"look", "change"}) || action["type"] != "string" {
		t.Errorf("action = %v", action)
	}
	if d := action["description"].(string); !strings.Contains(d, "look: reads") || !strings.Contains(d, "change: writes") {
		t.Errorf("action description %q does not list the actions", d)
	}
	if !reflect.DeepEqual(s["required"], []any{"action", "path"}) {
		t.Errorf("required = %v", s["required"])
	}
	if len(props) != 2 {
		t.Errorf("properties %v, want action and path", props)
	}
	// A single-action tool publishes no action and no notes.
	one := &Tool{Name: "one", Title: "One", Description: "d", Actions: []Action{{Handler: noop, Level: Read, Timeout: Fast,
		Params: []Param{{Name: "text", Type: String, Description: "text"}}}}}
	s = roundTrip(t, one.InputSchema())
	if _, ok := s["properties"].(map[string]any)["action"]; ok {
		t.Error("single-action tool publishes action")
	}
	if _, ok := s["required"]; ok {
		t.Errorf("required = %v, want none", s["required"])
	}
	if d := s["properties"].(map[string]any)["text"].(map[string]any)["description"]; d != "text" {
		t.Errorf("description %q, want no note", d)
	}
}

// TestLevels: the tool's level is its most dangerous action's; a call's
// level is its action's, which CallLevel may lower but never raise.
func TestLevels(t *testing.T) {
	tl := valid()
	if tl.MaxLevel() != Write {
		t.Errorf("MaxLevel = %s, want write", tl.MaxLevel())
	}
	tl.Actions = append(tl.Actions, Action{Handler: noop, Name: "send", Description: "sends", Level: High, Timeout: Normal})
	if tl.MaxLevel() != High {
		t.Errorf("MaxLevel = %s, want high", tl.MaxLevel())
	}
	for action, want := range map[string]Level{"look": Read, "change": Write, "send": High, "nosuch": High} {
		if got := tl.LevelOf(NewCall(action, nil)); got != want {
			t.Errorf("LevelOf(%s) = %s, want %s", action, got, want)
		}
	}
	tl.CallLevel = func(c *Call) Level {
		if c.Args.Bool("dry_run", false) {
			return Read
		}
		return High // asks for more than declared: ignored
	}
	if got := tl.LevelOf(NewCall("change", map[string]any{"dry_run": true})); got != Read {
		t.Errorf("CallLevel lowering: %s, want read", got)
	}
	if got := tl.LevelOf(NewCall("look", nil)); got != Read {
		t.Errorf("CallLevel raised look to %s", got)
	}
	if got := tl.LevelOf(NewCall("change", nil)); got != Write {
		t.Errorf("CallLevel raised change to %s", got)
	}
}

// TestAnnotations_FromLevels: the MCP hints follow the most dangerous
// action, so they cannot disagree with what the tool does.
func TestAnnotations_FromLevels(t *testing.T) {
	for _, tc := range []struct {
		levels    []Level
		openWorld bool
		want      Annotations
	}{
		{[]Level{Read}, false, Annotations{ReadOnly: true, Idempotent: true}},
		{[]Level{Read, Read}, true, Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true}},
		{[]Level{Read, Write}, false, Annotations{}},
		{[]Level{Write, Read}, true, Annotations{OpenWorld: true}},
		{[]Level{Read, High}, false, Annotations{Destructive: true, OpenWorld: true}},
		{[]Level{High, Write, Read}, false, Annotations{Destructive: true, OpenWorld: true}},
	} {
		tl := &Tool{Name: "t", Title: "T", Description: "d", OpenWorld: tc.openWorld}
		for i, l := range tc.levels {
			tl.Actions = append(tl.Actions, Action{Handler: noop, Name: string(rune('a' + i)), Description: "x", Level: l, Timeout: Fast})
		}
		if got := tl.Annotations(); got != tc.want {
			t.Errorf("levels %v open_world %v: %+v, want %+v", tc.levels, tc.openWorld, got, tc.want)
		}
	}
}

// TestAction_Lookup: a multi-action tool finds its actions by name only; a
// single-action tool answers any name with its action.
func TestAction_Lookup(t *testing.T) {
	tl := valid()
	if a, ok := tl.Action("change"); !ok || a.Level != Write {
		t.Errorf("change: %v %v", a, ok)
	}
	if _, ok := tl.Action("nosuch"); ok {
		t.Error("unknown action found")
	}
	if _, ok := tl.Action(""); ok {
		t.Error("empty action found on a multi-action tool")
	}
	one := &Tool{Actions: []Action{{Handler: noop, Level: Read}}}
	if a, ok := one.Action("anything"); !ok || a != &one.Actions[0] {
		t.Error("single action not returned")
	}
}

func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchema_NoDescription: an optional parameter may go without a
// description; it publishes none, or only its tag, never an empty string; a
// required one is refused (its description is the hint when the field is
// missing).
func TestSchema_NoDescription(t *testing.T) {
	tl := valid()
	tl.Actions[0].Params = append(tl.Actions[0].Params, Param{Name: "title", Type: String})
	tl.Actions[0].Params = append(tl.Actions[0].Params, Param{Name: "recursive", Type: Boolean})
	tl.Actions[1].Params = append(tl.Actions[1].Params, Param{Name: "recursive", Type: Boolean})
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	props := roundTrip(t, tl.InputSchema())["properties"].(map[string]any)
	if d, ok := props["title"].(map[string]any)["description"]; !ok || d != "[for look]" {
		t.Errorf("title: description %v, want only the tag", d)
	}
	if d, ok := props["recursive"].(map[string]any)["description"]; ok {
		t.Errorf("recursive: description %q published", d)
	}
	tl.Actions[0].Params[1].Required = true
	if err := tl.Validate(); err == nil || !strings.Contains(err.Error(), "needs a description") {
		t.Errorf("required parameter without a description: %v", err)
	}
}

// TestSchema_MergedParamIsLoosest: a parameter that actions define with
// different limits, enums or defaults is published as the loosest of them
// (enum union, lowest minimum, highest maximum, a default only when all
// agree), so the schema refuses nothing an action accepts; Prepare still
// applies each action's own limits.
func TestSchema_MergedParamIsLoosest(t *testing.T) {
	tl := valid()
	tl.Actions[0].Params = append(tl.Actions[0].Params,
		Param{Name: "width", Type: Integer, Description: "pixels", Default: 1080, Min: Ptr(200), Max: Ptr(4096)},
		Param{Name: "lang", Type: String, Description: "language", Enum: []string{"go", "c"}},
		Param{Name: "fill", Type: String, Description: "colour", Default: "#fff"})
	tl.Actions[1].Params = append(tl.Actions[1].Params,
		Param{Name: "width", Type: Integer, Description: "pixels", Default: 800, Min: Ptr(1), Max: Ptr(16384)},
		Param{Name: "lang", Type: String, Description: "language", Enum: []string{"rust", "go"}},
		Param{Name: "fill", Type: String, Description: "colour", Default: "#fff"})
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	props := roundTrip(t, tl.InputSchema())["properties"].(map[string]any)
	w := props["width"].(map[string]any)
	if w["minimum"] != 1.0 || w["maximum"] != 16384.0 {
		t.Errorf("width limits %v..%v, want 1..16384", w["minimum"], w["maximum"])
	}
	if d, ok := w["default"]; ok {
		t.Errorf("width default %v published though the actions disagree", d)
	}
	if e := props["lang"].(map[string]any)["enum"]; !reflect.DeepEqual(e, []any{"go", "c", "rust"}) {
		t.Errorf("lang enum %v, want the union", e)
	}
	// Each action's narrower limits are said after the description.
	if d := w["description"]; d != "pixels (look: 200 to 4096)" {
		t.Errorf("width description %q, want look's own limits", d)
	}
	if d := props["lang"].(map[string]any)["description"]; d != "language (look: one of go, c; change: one of rust, go)" {
		t.Errorf("lang description %q", d)
	}
	if d := props["fill"].(map[string]any)["default"]; d != "#fff" {
		t.Errorf("fill default %v, want the one all actions share", d)
	}
	if got := tl.Actions[0].Params[2].Enum; !reflect.DeepEqual(got, []string{"go", "c"}) {
		t.Errorf("the action's own enum changed: %v", got)
	}
	if _, err := tl.Prepare(map[string]any{"action": "look", "path": "a", "width": 100.0}); err == nil {
		t.Error("look accepted a width below its own minimum")
	}
	if _, err := tl.Prepare(map[string]any{"action": "change", "path": "a", "width": 100.0}); err != nil {
		t.Errorf("change refused a width within its limits: %v", err)
	}
}

// TestSchema_ActionWithoutDescription: the action description has one line
// per action that has a description; a tool none of whose actions has one
// publishes no empty description.
func TestSchema_ActionWithoutDescription(t *testing.T) {
	tl := valid()
	tl.Actions = append(tl.Actions, Action{Handler: noop, Name: "other", Description: "Does the rest.", Level: Read, Timeout: Fast})
	action := roundTrip(t, tl.InputSchema())["properties"].(map[string]any)["action"].(map[string]any)
	if d := action["description"]; d != "look: reads\nchange: writes\nother: Does the rest." {
		t.Errorf("action description %q", d)
	}
	tl.Actions[1].Description = ""
	action = roundTrip(t, tl.InputSchema())["properties"].(map[string]any)["action"].(map[string]any)
	if d := action["description"]; d != "look: reads\nother: Does the rest." {
		t.Errorf("action description %q, want no line for change", d)
	}
	if !reflect.DeepEqual(action["enum"], []any{"look", "change", "other"}) {
		t.Errorf("enum %v lost an action", action["enum"])
	}
	for i := range tl.Actions {
		tl.Actions[i].Description = ""
	}
	action = roundTrip(t, tl.InputSchema())["properties"].(map[string]any)["action"].(map[string]any)
	if d, ok := action["description"]; ok {
		t.Errorf("empty action description published: %q", d)
	}
}

// TestValidate_OutputBelongsToWriters: the contract owns `output` and
// `overwrite`: a read-level action cannot take them (its readOnlyHint would
// hide the file it writes), and they have one type everywhere.
func TestValidate_OutputBelongsToWriters(t *testing.T) {
	for _, tc := range []struct {
		level Level
		p     Param
		want  string
	}{
		{Read, OutputParam("Default outputs/x.png."), `read-level action cannot take "output"`},
		{Read, Overwrite, `read-level action cannot take "overwrite"`},
		{Write, Param{Name: "output", Type: Boolean}, `"output" must be a string`},
		{Write, Param{Name: "overwrite", Type: String}, `"overwrite" must be a boolean`},
		{Write, Overwrite, ""},
	} {
		tl := valid()
		tl.Actions[0].Level = tc.level
		tl.Actions[0].Params = append(tl.Actions[0].Params, tc.p)
		err := tl.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s action with %s %s: %v, want %q", tc.level, tc.p.Name, tc.p.Type, err, tc.want)
		}
	}
}

// TestLevelOf_OptionalOutput: a write action that writes only when asked
// is a read for a call that names no output and does not set save.
func TestLevelOf_OptionalOutput(t *testing.T) {
	tl := valid()
	tl.Actions[0].Level, tl.Actions[0].OptionalOutput = Write, true
	tl.Actions[0].Params = append(tl.Actions[0].Params, OutputParam(""), Overwrite, Param{Name: "save", Type: Boolean})
	for _, tc := range []struct {
		args map[string]any
		want Level
	}{
		{map[string]any{}, Read},
		{map[string]any{"save": false}, Read},
		{map[string]any{"save": true}, Write},
		{map[string]any{"output": "a.png"}, Write},
	} {
		c := NewCall(tl.Actions[0].Name, tc.args)
		if got := tl.LevelOf(c); got != tc.want {
			t.Errorf("LevelOf(%v) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
