package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// screenWidth is the width `tools` output fits in.
const screenWidth = 100

// cmdTools prints the registry: with no argument an overview (tool, title,
// actions with their levels), with a tool's name that tool in full — its
// description, every action with its level and parameters.
func cmdTools(args []string, stdout io.Writer) error {
	fs, cfgPath := newFlags("tools")
	if err := parseLoose(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError(fmt.Sprintf("tools: name one tool, got %q", fs.Args()))
	}
	a, err := newLookApp(*cfgPath)
	if err != nil {
		return err
	}
	defer a.Close()
	if fs.NArg() == 1 {
		name := fs.Arg(0)
		for _, t := range a.srv.Tools() {
			if t.Name == name {
				writeTool(stdout, t)
				return nil
			}
		}
		return fmt.Errorf("no tool %q in this build; `clawbridge tools` lists them: %s", name, strings.Join(toolNames(a.srv.Tools()), ", "))
	}
	writeOverview(stdout, a.srv.Tools())
	return nil
}

func toolNames(ts []*tool.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func actionName(a tool.Action) string {
	if a.Name == "" {
		return "run"
	}
	return a.Name
}

// writeOverview prints one block per tool: its name and title, then its
// actions with their levels wrapped under the title.
func writeOverview(w io.Writer, ts []*tool.Tool) {
	col := len("TOOL")
	for _, t := range ts {
		col = max(col, len(t.Name))
	}
	col += 2
	pad := strings.Repeat(" ", col)
	fmt.Fprintf(w, "%-*sTITLE, then ACTIONS (level)\n", col, "TOOL")
	for _, t := range ts {
		fmt.Fprintf(w, "%-*s%s\n", col, t.Name, t.Title)
		var acts []string
		for _, ac := range t.Actions {
			acts = append(acts, fmt.Sprintf("%s(%s)", actionName(ac), ac.LevelNote()))
		}
		for _, line := range wrap(strings.Join(acts, " "), screenWidth-col-2) {
			fmt.Fprintf(w, "%s  %s\n", pad, line)
		}
	}
	fmt.Fprintln(w, "\n`clawbridge tools TOOL` shows a tool's actions and parameters.")
}

// writeTool prints one tool in full.
func writeTool(w io.Writer, t *tool.Tool) {
	fmt.Fprintf(w, "%s — %s\n\n", t.Name, t.Title)
	for _, line := range wrap(t.Description, screenWidth) {
		fmt.Fprintln(w, line)
	}
	if len(t.Programs) > 0 {
		progs := slices.Sorted(maps.Keys(t.Programs))
		fmt.Fprintf(w, "\nUses: %s (`clawbridge doctor` checks them)\n", strings.Join(progs, ", "))
	}
	if t.MultiAction() {
		fmt.Fprintf(w, "\nActions (give one as \"action\"):\n")
	} else {
		fmt.Fprintf(w, "\nOne action, no \"action\" field:\n")
	}
	for _, ac := range t.Actions {
		fmt.Fprintf(w, "\n  %s (%s)\n", actionName(ac), ac.LevelNote())
		for _, line := range wrap(ac.Description, screenWidth-4) {
			fmt.Fprintf(w, "    %s\n", line)
		}
		var params []tool.Param
		for _, p := range ac.Params {
			if p.Disabled == "" {
				params = append(params, p)
			}
		}
		if len(params) == 0 {
			fmt.Fprintln(w, "    no parameters")
			continue
		}
		for _, p := range params {
			writeParam(w, p, "    ")
		}
	}
	if t.MaxLevel() == tool.High {
		fmt.Fprintln(w, "\nhigh actions need confirmation: see `clawbridge call --help`.")
	}
	fmt.Fprintf(w, "\nRun one: clawbridge call %s --args '{...}'\n", t.Name)
}

// writeParam prints a parameter line — name, type, required, default,
// allowed values — with its description below, then an object's fields or
// an array's element fields indented under it.
func writeParam(w io.Writer, p tool.Param, indent string) {
	fmt.Fprintln(w, indent+"- "+p.Name+" ("+paramTerms(p, func(v string) string { return v })+")")
	if enum := enumOf(p); len(enum) > 0 {
		for _, line := range wrap("one of: "+strings.Join(enum, ", "), screenWidth-len(indent)-4) {
			fmt.Fprintf(w, "%s    %s\n", indent, line)
		}
	}
	for _, line := range wrap(p.Description, screenWidth-len(indent)-4) {
		fmt.Fprintf(w, "%s    %s\n", indent, line)
	}
	for _, q := range fieldsOf(p) {
		writeParam(w, q, indent+"    ")
	}
}

// paramTerms is what a parameter's line says in brackets: its type, whether
// it is required, its default (as code renders it) and its bounds.
func paramTerms(p tool.Param, code func(string) string) string {
	t := paramType(p)
	if p.Required {
		t += ", required"
	}
	if p.Default != nil {
		b, _ := json.Marshal(p.Default)
		t += ", default " + code(string(b))
	}
	if p.Min != nil {
		t += ", min " + wording.Number(*p.Min)
	}
	if p.Max != nil {
		t += ", max " + wording.Number(*p.Max)
	}
	return t
}

// paramType is the JSON type, with an array's element type.
func paramType(p tool.Param) string {
	if p.Type == tool.Array && p.Items != nil {
		return "array of " + paramType(*p.Items)
	}
	return string(p.Type)
}

// fieldsOf is the fields of p's value: its own, or an array's items'.
func fieldsOf(p tool.Param) []tool.Param {
	if p.Items != nil {
		return p.Items.Properties
	}
	return p.Properties
}

func enumOf(p tool.Param) []string {
	if len(p.Enum) == 0 && p.Items != nil {
		return p.Items.Enum
	}
	return p.Enum
}

// wrap breaks text into lines of at most width characters at spaces (a
// longer word gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case len([]rune(line))+1+len([]rune(word)) <= width:
				line += " " + word
			default:
				lines = append(lines, line)
				line = word
			}
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}
