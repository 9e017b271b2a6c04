package tool

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// SingleActionName is what a single-action tool's action is called where a
// name is needed (snapshots, audit); a caller may send it as `action`.
const SingleActionName = "run"

// Prepare checks raw arguments against the tool's action and parameter
// definitions and returns a call whose arguments are normalized. It is
// lenient where clients are sloppy and the meaning is certain: a number or
// boolean sent as a string that parses exactly ("3", "true"), and a single
// string where a list of strings is expected. Anything else that does not
// match is an error that names the field, what was wrong and what is
// allowed; unknown fields are errors. The caller's map is not changed.
func (t *Tool) Prepare(args map[string]any) (*Call, error) {
	action, err := t.actionOf(args)
	if err != nil {
		return nil, err
	}
	a, ok := t.Action(action)
	if !ok {
		return nil, Invalid("action", fmt.Sprintf("unknown action %q", action), "one of: "+strings.Join(t.ActionNames(), ", "))
	}
	ignored, err := t.unknownFields(a, args)
	if err != nil {
		return nil, err
	}
	for _, p := range a.Params {
		if v, present := args[p.Name]; present && v != nil && p.Disabled != "" {
			return nil, &Error{Code: CodeDenied, Field: p.Name, Message: fmt.Sprintf("field '%s' is disabled on this server", p.Name), Hint: p.Disabled}
		}
	}
	clean := make(map[string]any, len(args))
	for _, p := range a.Params {
		v, present := args[p.Name]
		if !present || v == nil {
			if p.Required {
				return nil, Invalid(p.Name, fmt.Sprintf("missing required field '%s' for %s", p.Name, t.callName(action)), p.Description)
			}
			continue
		}
		nv, err := normalize(p, p.Name, v)
		if err != nil {
			if te, ok := err.(*Error); ok {
				te.Field = p.Name // the top-level field, also for an element's error
			}
			return nil, err
		}
		clean[p.Name] = nv
	}
	if t.MultiAction() {
		clean["action"] = action
	}
	call := NewCall(action, clean)
	call.Ignored = ignored
	return call, nil
}

// unknownFields sorts the fields a does not take. A field that another
// action of the tool takes, or that is a near miss of one of the tool's
// parameters (two edits or fewer: "pth", "conent"), is the model's mistake
// and refused, with the action's own fields (required and optional) and the
// likely one. Anything else is a field the client added on its own (Gemini
// CLI adds wait_for_previous to every tool) and must not fail the call: it
// is returned, to be ignored and said.
func (t *Tool) unknownFields(a *Action, args map[string]any) ([]string, error) {
	var unknown []string
	for k := range args {
		if k != "action" && !a.hasParam(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil, nil
	}
	sort.Strings(unknown)
	var own, all []string
	for _, p := range a.Params {
		if p.Disabled == "" {
			own = append(own, p.Name)
		}
	}
	for _, b := range t.Actions {
		for _, p := range b.Params {
			all = append(all, p.Name)
		}
	}
	var ignored []string
	for _, k := range unknown {
		msg := ""
		if users := t.actionsTaking(k); len(users) > 0 {
			msg = fmt.Sprintf("field %s is for %s, not for %s", k, strings.Join(users, ", "), t.callName(a.Name))
			if near := wording.Closest(k, own); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
		} else if near := wording.Closest(k, all); near != "" && len(k) > 2 {
			msg = fmt.Sprintf("unknown field %s for %s (did you mean %s?)", k, t.callName(a.Name), near)
		}
		if msg != "" {
			return nil, Invalid(k, msg, a.fieldList())
		}
		ignored = append(ignored, k)
	}
	return ignored, nil
}

// fieldList is the hint of a refused field: what the action takes,
// required fields first, as "accepted fields: path (required), limit".
func (a *Action) fieldList() string {
	var req, opt []string
	for _, p := range a.Params {
		switch {
		case p.Disabled != "":
		case p.Required:
			req = append(req, p.Name+" (required)")
		default:
			opt = append(opt, p.Name)
		}
	}
	if len(req)+len(opt) == 0 {
		return "it takes no fields besides action"
	}
	return "accepted fields: " + strings.Join(append(req, opt...), ", ")
}

// actionsTaking names the actions of t that take a parameter called name.
func (t *Tool) actionsTaking(name string) []string {
	var out []string
	for _, a := range t.Actions {
		if a.hasParam(name) {
			out = append(out, t.callName(a.Name))
		}
	}
	return out
}

// hasParam reports whether a takes a parameter called name (a scan: an
// action has a handful, and a map built per call cost more).
func (a *Action) hasParam(name string) bool {
	for _, p := range a.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// actionOf reads `action`: required for a multi-action tool; optional for a
// single-action tool, where it may only name that action.
func (t *Tool) actionOf(args map[string]any) (string, error) {
	raw, present := args["action"]
	if !present || raw == nil {
		if t.MultiAction() {
			return "", Invalid("action", "missing required field 'action'", "one of: "+strings.Join(t.ActionNames(), ", "))
		}
		return "", nil
	}
	s, ok := raw.(string)
	if !ok {
		return "", Invalid("action", "field 'action' must be a string", "one of: "+strings.Join(t.ActionNames(), ", "))
	}
	if t.MultiAction() {
		return s, nil
	}
	if only := t.Actions[0].Name; s == SingleActionName || (only != "" && s == only) {
		return "", nil
	}
	return "", Invalid("action", fmt.Sprintf("unknown action %q: %s has a single action", s, t.Name), "omit 'action'")
}

func (t *Tool) callName(action string) string {
	if action == "" {
		return t.Name
	}
	return t.Name + " action '" + action + "'"
}

// jsonNumber is the JSON number grammar: a string holding exactly one
// number, nothing around it (no spaces, hex, underscores, Inf or NaN).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// normalize checks v against p and returns it in its canonical JSON form
// (float64, bool, []any, map[string]any).
func normalize(p Param, path string, v any) (any, error) {
	switch p.Type {
	case String:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(p, path, "a string", v)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, Invalid(p.Name, fmt.Sprintf("field '%s' has value %q, which is not allowed", path, s), "one of: "+strings.Join(p.Enum, ", "))
		}
		return s, nil
	case Integer, Number:
		return normalizeNumber(p, path, v)
	case Boolean:
		switch v {
		case true, "true":
			return true, nil
		case false, "false":
			return false, nil
		}
		return nil, wrongType(p, path, "true or false", v)
	case Array:
		return normalizeArray(p, path, v)
	case Object:
		return normalizeObject(p, path, v)
	}
	return v, nil
}

// wrongType says that field path of p must be want, not what v is.
func wrongType(p Param, path, want string, v any) error {
	return Invalid(p.Name, fmt.Sprintf("field '%s' must be %s, got %s", path, want, jsonKind(v)), p.Description)
}

// normalizeNumber takes a number, or a string holding exactly one JSON
// number, within p's bounds (and whole for an integer).
func normalizeNumber(p Param, path string, v any) (any, error) {
	want := "a number"
	if p.Type == Integer {
		want = "an integer"
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case string:
		if !jsonNumber.MatchString(x) {
			return nil, wrongType(p, path, want, v)
		}
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return nil, wrongType(p, path, want, v)
		}
	default:
		return nil, wrongType(p, path, want, v)
	}
	if p.Type == Integer && !isInteger(f) {
		return nil, wrongType(p, path, want, v)
	}
	if p.Min != nil && f < *p.Min {
		return nil, Invalid(p.Name, fmt.Sprintf("field '%s' must be at least %s, got %s", path, wording.Number(*p.Min), wording.Number(f)), "")
	}
	if p.Max != nil && f > *p.Max {
		return nil, Invalid(p.Name, fmt.Sprintf("field '%s' must be at most %s, got %s", path, wording.Number(*p.Max), wording.Number(f)), "")
	}
	return f, nil
}

// normalizeArray takes a list (or one string for a list of strings) and
// normalizes each item.
func normalizeArray(p Param, path string, v any) (any, error) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case []string:
		for _, s := range x {
			items = append(items, s)
		}
	case string:
		if p.Items.Type != String {
			return nil, wrongType(p, path, "an array", v)
		}
		items = []any{x} // one element given without the list around it
	default:
		return nil, wrongType(p, path, "an array", v)
	}
	out := make([]any, len(items))
	for i, it := range items {
		nv, err := normalize(*p.Items, fmt.Sprintf("%s[%d]", path, i), it)
		if err != nil {
			return nil, err
		}
		out[i] = nv
	}
	return out, nil
}

// normalizeObject normalizes the described fields of an object, requiring
// the required ones; fields not described are passed through.
func normalizeObject(p Param, path string, v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, wrongType(p, path, "an object", v)
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	for _, q := range p.Properties {
		qv, present := m[q.Name]
		if !present || qv == nil {
			if q.Required {
				return nil, Invalid(p.Name, fmt.Sprintf("field '%s.%s' is required", path, q.Name), q.Description)
			}
			continue
		}
		nv, err := normalize(q, path+"."+q.Name, qv)
		if err != nil {
			return nil, err
		}
		out[q.Name] = nv
	}
	return out, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64, int:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
