package tool

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"
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
			out[i].defs = append(out[i].defs, p)
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
	defs       []Param // each action's own definition, as actions
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
// required `action` enum for multi-action tools whose description has one
// line per action, and no top-level oneOf/anyOf (the Anthropic API refuses
// them; Gemini CLI validates calls with the schema as published).
//
// Which action takes which parameter is said in one fixed form that every
// client passes on to its model, since all keep descriptions. A parameter
// of a multi-action tool may start its description with a tag:
// "[for a, b]", "[required for a, b]" (taken and required by exactly those)
// or "[for a, b; required for a]", where a list may instead name the
// actions it leaves out, "all but c, d", when that is shorter. An action
// that takes few of the parameters may say so on its line, "c [takes only
// x, y]: …" or "d [takes nothing]", when that is shorter than the tags it
// saves. A parameter without a tag is taken by every action whose line does
// not say "takes only" or "takes nothing" and by those whose list names it;
// it is required when the object's `required` lists it, and then every
// action takes it.
func (t *Tool) InputSchema() map[string]any {
	params, _ := t.mergedParams()
	props := map[string]any{}
	var required []string
	listed := t.listedActions(params)
	if t.MultiAction() {
		action := map[string]any{"type": "string", "enum": t.ActionNames()}
		if d := t.actionLines(listed); d != "" {
			action["description"] = d
		}
		props["action"] = action
		required = append(required, "action")
	}
	for _, p := range params {
		s := p.Schema()
		tag := t.actionTag(p, listed)
		if tag == "" && len(p.requiredBy) > 0 { // every action takes and requires it
			required = append(required, p.Name)
		}
		if d := joinWords(tag, p.Description, p.limitsNote()); d != "" {
			s["description"] = d
		}
		props[p.Name] = s
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// listedActions picks the actions whose lines list what they take: each, in
// order, whose listing makes the action line and the tags shorter.
func (t *Tool) listedActions(params []mergedParam) map[string]bool {
	listed := map[string]bool{}
	if !t.MultiAction() {
		return listed
	}
	size := func() int {
		n := len(t.actionLines(listed))
		for _, p := range params {
			n += len(t.actionTag(p, listed))
		}
		return n
	}
	best := size()
	for _, a := range t.Actions {
		listed[a.Name] = true
		if n := size(); n < best {
			best = n
		} else {
			delete(listed, a.Name)
		}
	}
	return listed
}

// actionLines describes the actions, one line each: an action's
// description, after what it takes if it is listed; an action whose name
// says it all (append, unzip) and is not listed has no line.
func (t *Tool) actionLines(listed map[string]bool) string {
	var lines []string
	for _, a := range t.Actions {
		line := a.Name
		if listed[a.Name] {
			var takes []string
			for _, p := range a.Params {
				if p.Disabled == "" {
					takes = append(takes, p.Name)
				}
			}
			if len(takes) == 0 {
				line += " [takes nothing]"
			} else {
				line += " [takes only " + strings.Join(takes, ", ") + "]"
			}
		}
		if a.Description != "" {
			line += ": " + a.Description
		}
		if line != a.Name {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// limitsNote says, after the description, the limits of each action whose
// own are narrower than the published ones: "(snapshot: 500 to 100000;
// template: one of go, python)". Prepare applies them; a model must know.
func (m *mergedParam) limitsNote() string {
	var parts []string
	for i, d := range m.defs {
		var spec []string
		if len(d.Enum) > 0 && !slices.Equal(d.Enum, m.Enum) {
			spec = append(spec, "one of "+strings.Join(d.Enum, ", "))
		}
		lo := d.Min != nil && (m.Min == nil || *d.Min != *m.Min)
		hi := d.Max != nil && (m.Max == nil || *d.Max != *m.Max)
		switch {
		case lo && d.Max != nil, hi && d.Min != nil:
			spec = append(spec, wording.Number(*d.Min)+" to "+wording.Number(*d.Max))
		case lo:
			spec = append(spec, "at least "+wording.Number(*d.Min))
		case hi:
			spec = append(spec, "at most "+wording.Number(*d.Max))
		}
		if len(spec) > 0 {
			parts = append(parts, m.actions[i]+": "+strings.Join(spec, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, "; ") + ")"
}

// joinWords joins the non-empty parts with a space.
func joinWords(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// actionTag is the leading tag of a parameter of a multi-action tool
// (InputSchema says its form), or "" when no tag is needed: every action
// not listed takes it (a listed one's line names it), and either none of
// them requires it or all actions take and require it.
func (t *Tool) actionTag(p mergedParam, listed map[string]bool) string {
	if !t.MultiAction() {
		return ""
	}
	implicit := true
	for _, a := range t.Actions {
		if !listed[a.Name] && !slices.Contains(p.actions, a.Name) {
			implicit = false
		}
	}
	all := len(p.actions) == len(t.Actions)
	switch {
	case implicit && (len(p.requiredBy) == 0 || all && len(p.requiredBy) == len(p.actions)):
		return ""
	case len(p.requiredBy) == 0:
		return "[for " + t.actionList(p.actions) + "]"
	case len(p.requiredBy) == len(p.actions):
		return "[required for " + t.actionList(p.requiredBy) + "]"
	}
	return "[for " + t.actionList(p.actions) + "; required for " + t.actionList(p.requiredBy) + "]"
}

// actionList names some of the tool's actions, or, when that is shorter,
// the others: "all but merge, images_to_pdf".
func (t *Tool) actionList(some []string) string {
	var others []string
	for _, a := range t.Actions {
		if !slices.Contains(some, a.Name) {
			others = append(others, a.Name)
		}
	}
	list, but := strings.Join(some, ", "), "all but "+strings.Join(others, ", ")
	if len(others) > 0 && len(but) < len(list) {
		return but
	}
	return list
}
