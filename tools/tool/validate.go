package tool

import (
	"fmt"
	"sort"
	"strings"
)

// Prepare checks raw arguments against the tool's action and parameter
// definitions and returns a call. Errors are precise: they name the field,
// what was wrong and what is allowed.
func (t *Tool) Prepare(args map[string]any) (*Call, error) {
	if args == nil {
		args = map[string]any{}
	}
	action := ""
	if t.MultiAction() {
		raw, ok := args["action"]
		if !ok || raw == nil {
			return nil, Invalid("action", "missing required field 'action'", "one of: "+strings.Join(t.ActionNames(), ", "))
		}
		s, ok := raw.(string)
		if !ok {
			return nil, Invalid("action", "field 'action' must be a string", "one of: "+strings.Join(t.ActionNames(), ", "))
		}
		action = s
	}
	a, ok := t.Action(action)
	if !ok {
		return nil, Invalid("action", fmt.Sprintf("unknown action %q", action), "one of: "+strings.Join(t.ActionNames(), ", "))
	}
	known := map[string]Param{}
	for _, p := range a.Params {
		known[p.Name] = p
	}
	for _, p := range a.Params {
		v, present := args[p.Name]
		if !present || v == nil {
			if p.Required {
				return nil, Invalid(p.Name, fmt.Sprintf("missing required field '%s' for %s", p.Name, t.callName(action)), p.Description)
			}
			continue
		}
		if err := checkValue(p, p.Name, v); err != nil {
			return nil, err
		}
	}
	var unknown []string
	for k := range args {
		if k == "action" && t.MultiAction() {
			continue
		}
		if _, ok := known[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var names []string
		for _, p := range a.Params {
			names = append(names, p.Name)
		}
		return nil, Invalid(unknown[0], fmt.Sprintf("unknown field(s) %s for %s", strings.Join(unknown, ", "), t.callName(action)), "accepted fields: "+strings.Join(names, ", "))
	}
	c := NewCall(action, args)
	return c, nil
}

func (t *Tool) callName(action string) string {
	if action == "" {
		return t.Name
	}
	return t.Name + " action '" + action + "'"
}

func checkValue(p Param, path string, v any) error {
	bad := func(want string) error {
		return Invalid(p.Name, fmt.Sprintf("field '%s' must be %s, got %s", path, want, jsonKind(v)), p.Description)
	}
	switch p.Type {
	case String:
		s, ok := v.(string)
		if !ok {
			return bad("a string")
		}
		if len(p.Enum) > 0 && !contains(p.Enum, s) {
			return Invalid(p.Name, fmt.Sprintf("field '%s' has value %q, which is not allowed", path, s), "one of: "+strings.Join(p.Enum, ", "))
		}
	case Integer, Number:
		f, ok := v.(float64)
		if !ok {
			if i, isInt := v.(int); isInt {
				f, ok = float64(i), true
			}
		}
		if !ok {
			return bad("a number")
		}
		if p.Type == Integer && !isInteger(f) {
			return bad("an integer")
		}
		if p.Min != nil && f < *p.Min {
			return Invalid(p.Name, fmt.Sprintf("field '%s' must be at least %v, got %v", path, *p.Min, f), "")
		}
		if p.Max != nil && f > *p.Max {
			return Invalid(p.Name, fmt.Sprintf("field '%s' must be at most %v, got %v", path, *p.Max, f), "")
		}
	case Boolean:
		if _, ok := v.(bool); !ok {
			return bad("true or false")
		}
	case Array:
		items, ok := v.([]any)
		if !ok {
			if ss, isStrings := v.([]string); isStrings {
				for i, s := range ss {
					if err := checkValue(*p.Items, fmt.Sprintf("%s[%d]", path, i), s); err != nil {
						return err
					}
				}
				return nil
			}
			return bad("an array")
		}
		for i, it := range items {
			if err := checkValue(*p.Items, fmt.Sprintf("%s[%d]", path, i), it); err != nil {
				return err
			}
		}
	case Object:
		m, ok := v.(map[string]any)
		if !ok {
			return bad("an object")
		}
		for _, q := range p.Properties {
			qv, present := m[q.Name]
			if !present || qv == nil {
				if q.Required {
					return Invalid(p.Name, fmt.Sprintf("field '%s.%s' is required", path, q.Name), q.Description)
				}
				continue
			}
			if err := checkValue(q, path+"."+q.Name, qv); err != nil {
				return err
			}
		}
	}
	return nil
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
