package tool

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Call is one validated invocation of a tool.
type Call struct {
	Action  string
	Args    Args
	Session string // the MCP session id, or "" for local calls
	// Lang is the language of the session's requests as the router detected
	// it ("zh", "en"); "" for local calls. Tools answering in words (weather)
	// use it when the call does not say.
	Lang string
	// Progress reports progress on long work; it is never nil.
	Progress func(done, total float64, message string)
	// Ignored are fields of the call that no action of the tool takes and
	// that are no near miss of one (a client's own additions); the server
	// says in the result that they were ignored.
	Ignored []string
	// Sample asks the client's own model (MCP sampling); nil when the
	// client did not declare sampling or the call is local.
	Sample Sampler
	// Previewed is what the action's Preview read to describe the call (a
	// draft's bytes, a script's code). The handler acts on it when it is
	// set, never on a second read, so a confirmed call runs on exactly what
	// the person saw. Nil when no preview ran (a scheduled call, a call
	// below High).
	Previewed any
}

// NewCall builds a call with a no-op progress reporter.
func NewCall(action string, args map[string]any) *Call {
	if args == nil {
		args = map[string]any{}
	}
	return &Call{Action: action, Args: Args(args), Progress: func(float64, float64, string) {}}
}

// Args are the decoded JSON arguments of a call. The getters return the zero
// value (or the default given) when a parameter is absent; the pipeline has
// already checked required parameters and types against the schema.
type Args map[string]any

// Has reports whether name was given.
func (a Args) Has(name string) bool {
	v, ok := a[name]
	return ok && v != nil
}

// String returns a string parameter.
func (a Args) String(name string) string {
	s, _ := a[name].(string)
	return s
}

// StringOr returns a string parameter or def when absent or empty.
func (a Args) StringOr(name, def string) string {
	if s := a.String(name); s != "" {
		return s
	}
	return def
}

// Int returns an integer parameter or def.
func (a Args) Int(name string, def int) int {
	switch v := a[name].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case int64:
		return int(v)
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return int(i)
		}
	}
	return def
}

// Float returns a number parameter or def.
func (a Args) Float(name string, def float64) float64 {
	switch v := a[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
	}
	return def
}

// Bool returns a boolean parameter or def.
func (a Args) Bool(name string, def bool) bool {
	if b, ok := a[name].(bool); ok {
		return b
	}
	return def
}

// Strings returns an array-of-strings parameter.
func (a Args) Strings(name string) []string {
	switch v := a[name].(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Object returns an object parameter.
func (a Args) Object(name string) map[string]any {
	m, _ := a[name].(map[string]any)
	return m
}

// Decode converts one parameter into v through JSON, for structured inputs.
func (a Args) Decode(name string, v any) error {
	raw, err := json.Marshal(a[name])
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return Invalid(name, fmt.Sprintf("cannot read %s: %v", name, err), "")
	}
	return nil
}

// isInteger reports whether a JSON number is integral.
func isInteger(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }

// ExactlyOne checks that exactly one of the alternative inputs names was
// given and returns it; otherwise it is the standard invalid_argument error
// on the first name, with hint saying what to send.
func (a Args) ExactlyOne(hint string, names ...string) (string, error) {
	var given []string
	for _, n := range names {
		if a.Has(n) {
			given = append(given, n)
		}
	}
	if len(given) == 1 {
		return given[0], nil
	}
	msg := "give exactly one of " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if len(given) > 1 {
		msg += " (got " + strings.Join(given, " and ") + ")"
	}
	return "", Invalid(names[0], msg, hint)
}
