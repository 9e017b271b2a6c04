package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func noop(context.Context, *Call) (*Result, error) { return &Result{}, nil }

// typed is a single-action tool with one parameter of each kind.
func typed() *Tool {
	return &Tool{Name: "typed", Title: "Typed", Description: "A tool with every parameter type.",
		Actions: []Action{{Level: Read, Timeout: Fast, Handler: noop, Params: []Param{
			{Name: "count", Type: Integer, Description: "a count", Min: Ptr(1), Max: Ptr(10)},
			{Name: "ratio", Type: Number, Description: "a ratio"},
			{Name: "flag", Type: Boolean, Description: "a flag"},
			{Name: "paths", Type: Array, Items: &Param{Name: "path", Type: String, Description: "a path"}, Description: "paths"},
			{Name: "sizes", Type: Array, Items: &Param{Name: "size", Type: Integer, Description: "a size"}, Description: "sizes"},
			{Name: "box", Type: Object, Description: "a box", Properties: []Param{{Name: "width", Type: Integer, Description: "w", Required: true}}},
			{Name: "mode", Type: String, Enum: []string{"fast", "slow"}, Description: "a mode"},
		}}}}
}

func wantInvalid(t *testing.T, err error, field string) *Error {
	t.Helper()
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeInvalid || te.Field != field {
		t.Fatalf("want invalid_argument on %q, got %v", field, err)
	}
	return te
}

// Strings that hold exactly a number or a boolean are accepted and given to
// the handler as the JSON value.
func TestLenient_ExactScalarStrings(t *testing.T) {
	c, err := typed().Prepare(map[string]any{"count": "3", "ratio": "-2.5e1", "flag": "false", "sizes": []any{"4", 5.0}, "box": map[string]any{"width": "7", "extra": "kept"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Args["count"] != 3.0 || c.Args.Int("count", 0) != 3 || c.Args.Float("ratio", 0) != -25 || c.Args["flag"] != false {
		t.Errorf("not normalized: %#v", c.Args)
	}
	if got := c.Args["sizes"].([]any); got[0] != 4.0 || got[1] != 5.0 {
		t.Errorf("sizes = %#v", got)
	}
	if box := c.Args.Object("box"); box["width"] != 7.0 || box["extra"] != "kept" {
		t.Errorf("box = %#v", box)
	}
	if c, err := typed().Prepare(map[string]any{"flag": "true"}); err != nil || c.Args.Bool("flag", false) != true {
		t.Errorf("flag \"true\": %v %v", c, err)
	}
}

// What does not parse exactly stays an error naming the field.
func TestLenient_InexactStringsRejected(t *testing.T) {
	for _, tc := range []struct {
		field string
		v     any
	}{
		{"count", "3.5"}, {"count", " 3"}, {"count", "3 "}, {"count", "0x10"}, {"count", "1_000"}, {"count", "NaN"}, {"count", "Inf"}, {"count", ""},
		{"count", "+3"}, {"count", "03"}, {"count", 3.5}, {"count", "11"}, {"count", "0"},
		{"ratio", "1,5"}, {"ratio", "abc"}, {"ratio", true},
		{"flag", "yes"}, {"flag", "True"}, {"flag", "1"}, {"flag", 1.0}, {"flag", ""},
		{"sizes", "3"}, {"sizes", []any{"3.5"}},
		{"paths", 3.0}, {"paths", []any{"a", 2.0}},
		{"mode", "medium"}, {"mode", 1.0},
		{"box", "width=3"}, {"box", map[string]any{"width": "wide"}}, {"box", map[string]any{}},
	} {
		_, err := typed().Prepare(map[string]any{tc.field: tc.v})
		te := wantInvalid(t, err, tc.field)
		if !strings.Contains(te.Message, tc.field) {
			t.Errorf("%s=%#v: message does not name the field: %s", tc.field, tc.v, te.Message)
		}
	}
}

// A single string where a list of strings is expected is one element.
func TestLenient_StringAsOneElementList(t *testing.T) {
	c, err := typed().Prepare(map[string]any{"paths": "a b.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Args.Strings("paths"); len(got) != 1 || got[0] != "a b.pdf" {
		t.Errorf("paths = %#v", got)
	}
	c, err = typed().Prepare(map[string]any{"paths": []string{"x", "y"}})
	if err != nil || len(c.Args.Strings("paths")) != 2 {
		t.Errorf("[]string: %v %v", c, err)
	}
}

// Prepare leaves the caller's map as it was.
func TestLenient_CallerArgsUnchanged(t *testing.T) {
	args := map[string]any{"count": "3", "paths": "a"}
	if _, err := typed().Prepare(args); err != nil {
		t.Fatal(err)
	}
	if args["count"] != "3" || args["paths"] != "a" {
		t.Errorf("caller's args changed: %#v", args)
	}
}

func TestStrict_UnknownFields(t *testing.T) {
	// A near miss of a parameter is the model's mistake: refused, naming
	// the field, the likely one and what the action takes.
	_, err := typed().Prepare(map[string]any{"count": 2.0, "zeta": 1.0, "ratoi": 1.0})
	te := wantInvalid(t, err, "ratoi")
	if !strings.Contains(te.Message, "did you mean ratio?") || !strings.Contains(te.Hint, "accepted fields: count, ratio, flag") {
		t.Errorf("imprecise: %s / %s", te.Message, te.Hint)
	}
	// A field like no parameter is a client's own addition: the call goes
	// on, and the field is recorded as ignored.
	c, err := typed().Prepare(map[string]any{"count": 2.0, "zeta": 1.0, "wait_for_previous": true})
	if err != nil || strings.Join(c.Ignored, ",") != "wait_for_previous,zeta" || c.Args.Has("zeta") {
		t.Fatalf("client fields: %v, ignored %v", err, c)
	}
	// A parameter of another action is refused with the called action's own
	// fields, required ones marked, and the likely one when there is one.
	_, err = multi().Prepare(map[string]any{"action": "beta", "path": "p", "only_a": "x"})
	te = wantInvalid(t, err, "only_a")
	if !strings.Contains(te.Message, "for multi action 'alpha', not for multi action 'beta'") || te.Hint != "accepted fields: path (required), most" {
		t.Errorf("other action's field: %s / %s", te.Message, te.Hint)
	}
	tl := multi()
	tl.Actions[1].Params = append(tl.Actions[1].Params, Param{Name: "only_as", Type: String})
	_, err = tl.Prepare(map[string]any{"action": "beta", "path": "p", "only_a": "x"})
	if te = wantInvalid(t, err, "only_a"); !strings.Contains(te.Message, "(did you mean only_as?)") {
		t.Errorf("other action's field, near one of this action's: %s", te.Message)
	}
	tl.Actions = append(tl.Actions, Action{Name: "list", Handler: noop, Level: Read, Timeout: Fast})
	_, err = tl.Prepare(map[string]any{"action": "list", "path": "p"})
	if te = wantInvalid(t, err, "path"); te.Hint != "it takes no fields besides action" {
		t.Errorf("action without fields: %s", te.Hint)
	}
	// The schema leaves this to Prepare rather than repeat it in every tool.
	if _, ok := typed().InputSchema()["additionalProperties"]; ok {
		t.Error("schema publishes additionalProperties")
	}
}

func multi() *Tool {
	p := func(name string, req bool) Param {
		return Param{Name: name, Type: String, Description: name + " text", Required: req}
	}
	return &Tool{Name: "multi", Title: "Multi", Description: "A tool with three actions.", Actions: []Action{
		{Name: "alpha", Handler: noop, Description: "a", Level: Read, Timeout: Fast, Params: []Param{p("path", true), p("only_a", false), p("most", true)}},
		{Name: "beta", Handler: noop, Description: "b", Level: Read, Timeout: Fast, Params: []Param{p("path", true), p("most", false)}},
		{Name: "gamma", Handler: noop, Description: "c", Level: Read, Timeout: Fast, Params: []Param{p("path", true), p("most", true)}},
	}}
}

// A single-action tool needs no `action`, and accepts the name of its action.
func TestSingleAction_ActionOptional(t *testing.T) {
	tl := typed()
	for _, args := range []map[string]any{{}, {"action": "run"}} {
		if _, err := tl.Prepare(args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	named := typed()
	named.Actions[0].Name = "fetch"
	if _, err := named.Prepare(map[string]any{"action": "fetch"}); err != nil {
		t.Errorf("its own name: %v", err)
	}
	for _, bad := range []any{"delete", 3.0} {
		wantInvalid(t, func() error { _, err := tl.Prepare(map[string]any{"action": bad}); return err }(), "action")
	}
	if _, ok := tl.InputSchema()["properties"].(map[string]any)["action"]; ok {
		t.Error("single-action schema publishes action")
	}
}

func TestMultiAction_ActionRequired(t *testing.T) {
	wantInvalid(t, func() error { _, err := multi().Prepare(map[string]any{"path": "x", "most": "y"}); return err }(), "action")
	c, err := multi().Prepare(map[string]any{"action": "beta", "path": "x"})
	if err != nil || c.Action != "beta" {
		t.Fatalf("%v %v", c, err)
	}
	wantInvalid(t, func() error {
		_, err := multi().Prepare(map[string]any{"action": "beta", "path": "x", "only_a": "y"})
		return err
	}(), "only_a")
}

// Which actions take and require a parameter is its description's leading
// tag, in one fixed form; a parameter every action takes has none, and is in
// `required` when every action requires it.
func TestSchemaTags(t *testing.T) {
	tl := multi()
	tl.Actions = append(tl.Actions, Action{Name: "list", Handler: noop, Description: "takes nothing", Level: Read, Timeout: Fast})
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	s := tl.InputSchema()
	props := s["properties"].(map[string]any)
	desc := func(n string) string { return props[n].(map[string]any)["description"].(string) }
	for n, w := range map[string]string{
		"only_a": "[for alpha] only_a text",
		"most":   "[for all but list; required for alpha, gamma] most text",
		"path":   "[required for all but list] path text",
	} {
		if got := desc(n); got != w {
			t.Errorf("%s: %q, want %q", n, got, w)
		}
	}
	b, _ := json.Marshal(s["required"])
	if string(b) != `["action"]` {
		t.Errorf("required = %s", b)
	}
	// Without the action that takes nothing, path is every action's.
	s = multi().InputSchema()
	props = s["properties"].(map[string]any)
	if got := desc("path"); got != "path text" {
		t.Errorf("path: %q", got)
	}
	if b, _ := json.Marshal(s["required"]); string(b) != `["action","path"]` {
		t.Errorf("required = %s", b)
	}
	two := &Tool{Name: "two", Title: "Two", Description: "convert or list", Actions: []Action{
		{Name: "convert", Handler: noop, Description: "c", Level: Read, Timeout: Fast, Params: []Param{{Name: "to", Type: String, Description: "target"}}},
		{Name: "formats", Handler: noop, Description: "f", Level: Read, Timeout: Fast},
	}}
	if got := two.InputSchema()["properties"].(map[string]any)["to"].(map[string]any)["description"]; got != "[for convert] target" {
		t.Errorf("optional parameter of the only taker: %q", got)
	}
}

// A parameter that config disables is not published; giving it is refused
// with the hint that says how to enable it.
func TestDisabledParam_NotPublished(t *testing.T) {
	tl := typed()
	tl.Actions[0].Params = append(tl.Actions[0].Params, Param{Name: "line", Type: String, Description: "a command line", Disabled: "set x.allow_line in the config"})
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, ok := tl.InputSchema()["properties"].(map[string]any)["line"]; ok {
		t.Error("disabled parameter published")
	}
	_, err := tl.Prepare(map[string]any{"line": "ls | wc"})
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeDenied || te.Field != "line" || te.Hint != "set x.allow_line in the config" {
		t.Fatalf("want permission_denied with the hint, got %v", err)
	}
	_, err = tl.Prepare(map[string]any{"nope": 1.0})
	if te := wantInvalid(t, err, "nope"); strings.Contains(te.Hint, "line") {
		t.Errorf("hint lists the disabled field: %s", te.Hint)
	}
	tl.Actions[0].Params[len(tl.Actions[0].Params)-1].Required = true
	if tl.Validate() == nil {
		t.Error("a required disabled parameter passes Validate")
	}
}

// An action that takes few of the parameters most others take lists them on
// its line, when that is shorter than the tags it saves; the parameters the
// other actions share then go without a tag.
func TestSchemaTags_ListedAction(t *testing.T) {
	common := []Param{
		{Name: "x", Type: String, Description: "x column.", Required: true},
		{Name: "y", Type: String, Description: "y column."},
		{Name: "width", Type: Integer, Description: "Pixels."},
		{Name: "title", Type: String},
	}
	tl := &Tool{Name: "charts", Title: "Charts", Description: "d", Actions: []Action{
		{Name: "chart", Description: "one chart", Handler: noop, Level: Read, Timeout: Fast, Params: common},
		{Name: "excel", Description: "an xlsx", Handler: noop, Level: Read, Timeout: Fast, Params: common},
		{Name: "board", Description: "a page", Handler: noop, Level: Read, Timeout: Fast,
			Params: []Param{{Name: "charts", Type: Array, Items: &Param{Type: Object}, Description: "Charts.", Required: true}, {Name: "title", Type: String}}},
	}}
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	props := tl.InputSchema()["properties"].(map[string]any)
	desc := func(n string) any { return props[n].(map[string]any)["description"] }
	if got := desc("action"); got != "chart: one chart\nexcel: an xlsx\nboard [takes only charts, title]: a page" {
		t.Errorf("action: %q", got)
	}
	for n, want := range map[string]any{"x": "[required for chart, excel] x column.", "y": "y column.", "width": "Pixels.", "title": nil, "charts": "[required for board] Charts."} {
		if got := desc(n); got != want {
			t.Errorf("%s: %q, want %q", n, got, want)
		}
	}
}
