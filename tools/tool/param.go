package tool

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Type is a JSON Schema type.
type Type string

const (
	String  Type = "string"
	Integer Type = "integer"
	Number  Type = "number"
	Boolean Type = "boolean"
	Array   Type = "array"
	Object  Type = "object"
)

// Param describes one input parameter. Names are snake_case and follow the
// project convention: one input file `path`, several `paths`, an output file
// `output`, a URL `url`, free text `text`, a search string `query`, a window
// `offset`/`limit`.
type Param struct {
	Name        string
	Type        Type
	Description string
	Required    bool     // required for the action that lists it
	Enum        []string // allowed values for strings
	Default     any
	Min, Max    *float64
	Items       *Param  // element schema of an array
	Properties  []Param // known fields of an object (others allowed)
	// Disabled, when set, says why config turns this parameter off and how
	// to turn it on: it is not published, and a call that gives it is
	// refused with this as the hint.
	Disabled string
	// Private marks content that never reaches the audit log or a trace
	// (a message body): only its length is recorded.
	Private bool
}

// Ptr returns a pointer to v, for Min and Max.
func Ptr(v float64) *float64 { return &v }

func (p Param) validate() error {
	if !nameRE.MatchString(p.Name) {
		return fmt.Errorf("parameter %q must be snake_case", p.Name)
	}
	// An optional parameter whose name says it all (title, overwrite) may go
	// without a description; a required one has one, since it is the hint
	// when the field is missing.
	if p.Description == "" && p.Required {
		return fmt.Errorf("required parameter %q needs a description", p.Name)
	}
	if p.Disabled != "" && p.Required {
		return fmt.Errorf("parameter %q is required and disabled", p.Name)
	}
	switch p.Type {
	case String, Integer, Number, Boolean, Object:
	case Array:
		if p.Items == nil {
			return fmt.Errorf("array parameter %q needs Items", p.Name)
		}
	default:
		return fmt.Errorf("parameter %q: unknown type %q", p.Name, p.Type)
	}
	return nil
}

// Schema renders the parameter as a JSON Schema object.
func (p Param) Schema() map[string]any {
	s := map[string]any{"type": string(p.Type)}
	if p.Description != "" {
		s["description"] = p.Description
	}
	if len(p.Enum) > 0 {
		s["enum"] = p.Enum
	}
	// A boolean that defaults to false says nothing a client does not
	// assume of an absent flag; only the other defaults are published.
	if p.Default != nil && p.Default != false {
		s["default"] = p.Default
	}
	if p.Min != nil {
		s["minimum"] = *p.Min
	}
	if p.Max != nil {
		s["maximum"] = *p.Max
	}
	if p.Items != nil {
		s["items"] = p.Items.Schema()
	}
	if len(p.Properties) > 0 {
		props := map[string]any{}
		var req []string
		for _, q := range p.Properties {
			props[q.Name] = q.Schema()
			if q.Required {
				req = append(req, q.Name)
			}
		}
		s["properties"] = props
		if len(req) > 0 {
			s["required"] = req
		}
	}
	return s
}

// mergedParams unions the parameters of all actions by name, leaving out
// disabled ones. A parameter used by several actions must have the same type
// everywhere. Where the actions disagree, the published parameter is the
// loosest of them, so that the schema never refuses or defaults a value for
// one action by another's rule: the union of their enums, the lowest minimum
// and the highest maximum (none if one action has none), and no default
// unless all agree. Prepare still checks each action's own limits.
func (t *Tool) mergedParams() ([]mergedParam, error) {
	idx := map[string]int{}
	var out []mergedParam
	for _, a := range t.Actions {
		for _, p := range a.Params {
			if p.Disabled != "" {
				continue
			}
			i, ok := idx[p.Name]
			if !ok {
				idx[p.Name] = len(out)
				out = append(out, mergedParam{Param: p})
				i = len(out) - 1
			} else if out[i].Type != p.Type {
				return nil, fmt.Errorf("tool %q: parameter %q has type %s in one action and %s in another", t.Name, p.Name, out[i].Type, p.Type)
			} else {
				out[i].loosen(p)
			}
			out[i].actions = append(out[i].actions, a.Name)
			if p.Required {
				out[i].requiredBy = append(out[i].requiredBy, a.Name)
			}
		}
	}
	return out, nil
}

type mergedParam struct {
	Param
	actions    []string
	requiredBy []string
}

// loosen widens the published parameter to admit what another action's
// definition q of it admits.
func (m *mergedParam) loosen(q Param) {
	if len(m.Enum) > 0 {
		if len(q.Enum) == 0 {
			m.Enum = nil
		} else {
			enum := slices.Clone(m.Enum)
			for _, v := range q.Enum {
				if !slices.Contains(enum, v) {
					enum = append(enum, v)
				}
			}
			m.Enum = enum
		}
	}
	if m.Min != nil && (q.Min == nil || *q.Min < *m.Min) {
		m.Min = q.Min
	}
	if m.Max != nil && (q.Max == nil || *q.Max > *m.Max) {
		m.Max = q.Max
	}
	if !reflect.DeepEqual(m.Default, q.Default) {
		m.Default = nil
	}
}

// InputSchema builds the published JSON Schema: one flat object (without
// additionalProperties: Prepare refuses unknown fields with a hint naming
// the accepted ones, so the schema need not say it in every tool), a
// required `action` enum for multi-action tools (no
// top-level oneOf/anyOf, which several clients reject), and short notes on
// which actions use which parameters, each said once: a parameter that few
// actions take says so itself ("for a, b"); an action that goes without
// parameters most actions take says so on its own line of the action
// description ("fields: …" or "without …"), instead of every one of those
// parameters repeating "not for a".
func (t *Tool) InputSchema() map[string]any {
	params, _ := t.mergedParams()
	props := map[string]any{}
	var required []string
	skips := map[string][]string{} // action -> common parameters it does not take
	notes := make([]string, len(params))
	for i, p := range params {
		notes[i] = t.actionNote(p, skips)
	}
	if t.MultiAction() {
		var lines []string
		for _, a := range t.Actions {
			// An action whose name says it all (append, unzip) has no
			// description and no line, unless it has a fields note.
			switch fields := actionFields(a, skips[a.Name]); {
			case a.Description != "":
				lines = append(lines, a.Name+": "+a.Description+fields)
			case fields != "":
				lines = append(lines, a.Name+fields)
			}
		}
		action := map[string]any{"type": "string", "enum": t.ActionNames()}
		if len(lines) > 0 {
			action["description"] = strings.Join(lines, "; ")
		}
		props["action"] = action
		required = append(required, "action")
	}
	for i, p := range params {
		s := p.Schema()
		all := !t.MultiAction() || len(p.actions) == len(t.Actions)
		if all && len(p.requiredBy) == len(p.actions) && len(p.requiredBy) > 0 {
			required = append(required, p.Name)
		} else if notes[i] != "" && p.Description == "" {
			s["description"] = notes[i]
		} else if notes[i] != "" {
			s["description"] = p.Description + " (" + notes[i] + ")"
		}
		props[p.Name] = s
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// actionFields is the note on an action's line when it goes without some
// parameters that most actions take: the shorter of the fields it takes and
// the common ones it lacks.
func actionFields(a Action, skipped []string) string {
	if len(skipped) == 0 {
		return ""
	}
	var takes []string
	for _, p := range a.Params {
		if p.Disabled == "" {
			takes = append(takes, p.Name)
		}
	}
	return " (" + shorter("fields: ", takes, "without ", skipped) + ")"
}

// actionNote says, as briefly as it can, which actions use and require a
// parameter of a multi-action tool: "for a, b", then "required",
// "required for a" or "optional for b". A parameter that most actions take
// gets no "for" list; it is added to skips under each action that does not
// take it, for that action's own line.
func (t *Tool) actionNote(p mergedParam, skips map[string][]string) string {
	if !t.MultiAction() {
		return ""
	}
	// Actions that take no parameters are left out of "for …" lists: their
	// own line in the action description already says they take nothing.
	takers := t.paramTakers()
	var parts []string
	named := len(p.actions) == len(t.Actions) || namesAll(p.Description, p.actions)
	if len(p.actions) < len(takers) && !named {
		others := without(takers, p.actions)
		if forList := "for " + strings.Join(p.actions, ", "); len(forList) <= len("not for "+strings.Join(others, ", ")) {
			parts = append(parts, forList)
		} else {
			for _, a := range others {
				skips[a] = append(skips[a], p.Name)
			}
			named = true // the actions' lines say where it is taken
		}
	}
	switch {
	case len(p.requiredBy) == 0:
	case len(p.requiredBy) == len(p.actions) && (len(parts) > 0 || named):
		parts = append(parts, "required")
	case len(p.requiredBy) == len(p.actions):
		parts = append(parts, "required for "+strings.Join(p.requiredBy, ", "))
	default:
		parts = append(parts, shorter("required for ", p.requiredBy, "optional for ", without(p.actions, p.requiredBy)))
	}
	return strings.Join(parts, "; ")
}

// paramTakers lists the actions that take at least one parameter.
func (t *Tool) paramTakers() []string {
	var out []string
	for _, a := range t.Actions {
		if slices.ContainsFunc(a.Params, func(p Param) bool { return p.Disabled == "" }) {
			out = append(out, a.Name)
		}
	}
	return out
}

// namesAll reports whether a description already names every action (as a
// word), so that a "for …" list would only repeat it.
func namesAll(desc string, actions []string) bool {
	words := strings.FieldsFunc(desc, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	for _, a := range actions {
		if !slices.Contains(words, a) {
			return false
		}
	}
	return true
}

// shorter renders the shorter of two ways to name the same set of actions.
func shorter(prefixA string, a []string, prefixB string, b []string) string {
	sa, sb := prefixA+strings.Join(a, ", "), prefixB+strings.Join(b, ", ")
	if len(sb) < len(sa) {
		return sb
	}
	return sa
}

// without lists the names of all that are not in some.
func without(all, some []string) []string {
	var out []string
	for _, n := range all {
		if !slices.Contains(some, n) {
			out = append(out, n)
		}
	}
	return out
}
