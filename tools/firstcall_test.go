package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/server"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestFirstCalls writes, for every action of every tool, the first call a
// model would write from tools/list alone, and makes it. The generator reads
// only the published tool (what a client receives): the `action` enum, the
// top-level `required`, the action lines ("board [takes only charts]"), and
// each parameter's type, enum, default, bounds and description, where a
// leading tag says which actions take it and which require it ("[for add,
// list; required for add]", "[required for all but list]"; no tag: every
// action that lists nothing, and those that list it; optional unless in
// `required`), as tool.InputSchema documents the form.
//
// Two calls per action: the minimal one (its required parameters) and the
// full one (every parameter the schema gives that action). A call is
// refused by the schema when Prepare answers invalid_argument; it must never
// be, for either call. Read and write actions of tools that stay on this
// machine are also run, and what their handlers answer is reported:
// invalid_argument there is a cross-field rule the schema cannot say ("give
// amount or amount_cents"); not_found for made-up paths and ids is fine.
func TestFirstCalls(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	type tally struct{ calls, refused, handlerInvalid, ran int }
	var minimal, full tally
	var refusals []string
	for i := range all {
		tl := &all[i]
		published := server.Published(tl)
		var schema map[string]any
		if err := json.Unmarshal(published.RawInputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		gen := parseSchema(schema)
		for _, action := range gen.actions {
			for _, variant := range []struct {
				name string
				t    *tally
				opt  bool
			}{{"minimal", &minimal, false}, {"full", &full, true}} {
				args := gen.call(action, variant.opt)
				variant.t.calls++
				c, err := tl.Prepare(args)
				if err != nil {
					if te, ok := tool.AsError(err); ok && te.Code == tool.CodeInvalid {
						variant.t.refused++
						refusals = append(refusals, fmt.Sprintf("%s %s %s: %v", tl.Name, action, variant.name, err))
						continue
					}
					t.Fatalf("%s %s: %v", tl.Name, action, err)
				}
				if !runnable(tl, c) {
					continue
				}
				variant.t.ran++
				if err := runHandler(tl, c); errorCode(err) == tool.CodeInvalid {
					if testing.Verbose() {
						t.Logf("handler refused %s %s %s %v: %v", tl.Name, action, variant.name, args, err)
					}
					variant.t.handlerInvalid++
				}
			}
		}
	}
	for _, r := range refusals {
		t.Errorf("refused: %s", r)
	}
	for _, v := range []struct {
		name string
		t    tally
	}{{"minimal", minimal}, {"full", full}} {
		ok := v.t.calls - v.t.refused
		t.Logf("%s first calls: %d/%d (%.1f%%) pass the schema; of %d run, %d refused by the handler as invalid_argument",
			v.name, ok, v.t.calls, 100*float64(ok)/float64(v.t.calls), v.t.ran, v.t.handlerInvalid)
	}
}

// runnable: read and write actions of tools that stay on this machine and
// need no browser; high actions need a person and open-world ones a network.
func runnable(tl *tool.Tool, c *tool.Call) bool {
	a, _ := tl.Action(c.Action)
	return a.Level != tool.High && !tl.OpenWorld && !strings.HasPrefix(tl.Name, "browser") && tl.Name != "screen"
}

// runHandler runs one prepared call; a panic is an error, not
// invalid_argument.
func runHandler(tl *tool.Tool, c *tool.Call) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = tl.Handle(ctx, c)
	return err
}

// errorCode is err's tool error code: "" for none, failed for a plain error.
func errorCode(err error) string {
	if err == nil {
		return ""
	}
	if te, ok := tool.AsError(err); ok {
		return te.Code
	}
	return tool.CodeFailed
}

// generator knows of a tool only its published input schema.
type generator struct {
	actions  []string
	props    map[string]map[string]any
	required []string
	takers   map[string][]string // parameter -> actions that take it (nil: all)
	needers  map[string][]string // parameter -> actions that require it
}

// listedRE is an action line that lists what the action takes.
var listedRE = regexp.MustCompile(`^([a-z_]+) \[takes (?:only ([^\]]*)|nothing)\]`)

// tagRE is the leading tag of a parameter's description.
var tagRE = regexp.MustCompile(`^\[([^\]]*)\]`)

func parseSchema(schema map[string]any) generator {
	g := generator{props: map[string]map[string]any{}, takers: map[string][]string{}, needers: map[string][]string{}}
	for name, p := range schema["properties"].(map[string]any) {
		g.props[name] = p.(map[string]any)
	}
	for _, r := range asList(schema["required"]) {
		g.required = append(g.required, r.(string))
	}
	if a, ok := g.props["action"]; ok {
		for _, v := range asList(a["enum"]) {
			g.actions = append(g.actions, v.(string))
		}
	} else {
		g.actions = []string{""}
	}
	// Lines of the action description that list what an action takes.
	only := map[string][]string{}
	actionDesc, _ := g.props["action"]["description"].(string)
	for _, line := range strings.Split(actionDesc, "\n") {
		if m := listedRE.FindStringSubmatch(line); m != nil {
			only[m[1]] = []string{}
			if m[2] != "" {
				only[m[1]] = splitNames(m[2])
			}
		}
	}
	for name, p := range g.props {
		desc, _ := p["description"].(string)
		m := tagRE.FindStringSubmatch(desc)
		if m == nil {
			if len(only) > 0 { // every action but those listed without it
				for _, a := range g.actions {
					if list, ok := only[a]; !ok || slices.Contains(list, name) {
						g.takers[name] = append(g.takers[name], a)
					}
				}
			}
			continue
		}
		for _, part := range strings.Split(m[1], "; ") {
			switch {
			case strings.HasPrefix(part, "for "):
				g.takers[name] = g.actionList(strings.TrimPrefix(part, "for "))
			case strings.HasPrefix(part, "required for "):
				g.needers[name] = g.actionList(strings.TrimPrefix(part, "required for "))
			}
		}
		if g.takers[name] == nil && g.needers[name] != nil {
			g.takers[name] = g.needers[name]
		}
	}
	return g
}

func splitNames(s string) []string { return strings.Split(s, ", ") }

// actionList reads a tag's list of actions: names, or "all but" names.
func (g generator) actionList(s string) []string {
	but, ok := strings.CutPrefix(s, "all but ")
	if !ok {
		return splitNames(s)
	}
	var out []string
	for _, a := range g.actions {
		if !slices.Contains(splitNames(but), a) {
			out = append(out, a)
		}
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// call writes the first call of action: its required parameters, and with
// optional the others the schema gives it.
func (g generator) call(action string, optional bool) map[string]any {
	args := map[string]any{}
	if action != "" {
		args["action"] = action
	}
	names := make([]string, 0, len(g.props))
	for n := range g.props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == "action" || n == "confirm_token" {
			continue
		}
		if takers := g.takers[n]; takers != nil && !slices.Contains(takers, action) {
			continue
		}
		required := slices.Contains(g.required, n) || slices.Contains(g.needers[n], action)
		if required || optional {
			args[n] = fill(narrowed(g.props[n], action))
		}
	}
	return args
}

// limitsRE finds an action's own limits in the note that ends a
// description: "(snapshot: 500 to 100000; template: one of go, python)".
var limitsRE = regexp.MustCompile(`(?:\(|; )([a-z_]+): ([^;)]*)`)

// narrowed is p with the limits its description gives for action.
func narrowed(p map[string]any, action string) map[string]any {
	desc, _ := p["description"].(string)
	out := map[string]any{}
	for k, v := range p {
		out[k] = v
	}
	for _, m := range limitsRE.FindAllStringSubmatch(desc, -1) {
		if m[1] != action {
			continue
		}
		spec := m[2]
		var lo, hi float64
		switch {
		case strings.HasPrefix(spec, "one of "):
			var enum []any
			for _, v := range splitNames(strings.TrimPrefix(spec, "one of ")) {
				enum = append(enum, v)
			}
			out["enum"] = enum
			delete(out, "default")
		case strings.HasPrefix(spec, "at least "):
			fmt.Sscanf(spec, "at least %g", &lo)
			out["minimum"] = lo
		case strings.HasPrefix(spec, "at most "):
			fmt.Sscanf(spec, "at most %g", &hi)
			out["maximum"] = hi
		default:
			if n, _ := fmt.Sscanf(spec, "%g to %g", &lo, &hi); n == 2 {
				out["minimum"], out["maximum"] = lo, hi
			}
		}
	}
	return out
}

var exampleRE = regexp.MustCompile(`e\.g\. "([^"]*)"`)

// fill makes a value from a parameter's schema: its default, first enum
// value, a quoted example, or a plain value of its type within its bounds.
func fill(p map[string]any) any {
	if d, ok := p["default"]; ok {
		return d
	}
	if e := asList(p["enum"]); len(e) > 0 {
		return e[0]
	}
	switch p["type"] {
	case "string":
		desc, _ := p["description"].(string)
		if m := exampleRE.FindStringSubmatch(desc); m != nil {
			return m[1]
		}
		return "x"
	case "integer", "number":
		v := 1.0
		if lo, ok := p["minimum"].(float64); ok && lo > v {
			v = lo
		}
		if hi, ok := p["maximum"].(float64); ok && hi < v {
			v = hi
		}
		return v
	case "boolean":
		return true
	case "array":
		items, _ := p["items"].(map[string]any)
		return []any{fill(items)}
	case "object":
		out := map[string]any{}
		props, _ := p["properties"].(map[string]any)
		for _, r := range asList(p["required"]) {
			out[r.(string)] = fill(props[r.(string)].(map[string]any))
		}
		return out
	}
	return nil
}
