package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// registry builds the tools the CLI shows, as `tools` does.
func registry(t *testing.T) []*tool.Tool {
	a, err := newLookApp("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a.srv.Tools()
}

// TestToolsCLI_OverviewFits100Columns: every line fits 100 columns and
// every registered tool and action appears with its level.
func TestToolsCLI_OverviewFits100Columns(t *testing.T) {
	cliEnv(t)
	out, err := runCLI(t, "tools")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > screenWidth {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	words := strings.Fields(out)
	for _, tl := range registry(t) {
		if !strings.Contains(out, "\n"+tl.Name+" ") {
			t.Errorf("tool %s missing", tl.Name)
		}
		for _, ac := range tl.Actions {
			if !slices.Contains(words, fmt.Sprintf("%s(%s)", actionName(ac), ac.LevelNote())) {
				t.Errorf("%s: action %s(%s) missing", tl.Name, actionName(ac), ac.LevelNote())
			}
		}
	}
}

// TestToolsCLI_OneToolShowsEveryParameter: `tools TOOL` shows the
// description, every action with its level, and every published parameter
// with its type, required mark, default and allowed values, for every tool.
func TestToolsCLI_OneToolShowsEveryParameter(t *testing.T) {
	cliEnv(t)
	for _, tl := range registry(t) {
		out, err := runCLI(t, "tools", tl.Name)
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, strings.Join(strings.Fields(tl.Description), " ")) {
			t.Errorf("%s: description missing", tl.Name)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > screenWidth && !strings.Contains(strings.TrimSpace(line), " ") {
				continue // one long word (a URL) cannot be wrapped
			} else if n > screenWidth {
				t.Errorf("%s: line of %d columns: %q", tl.Name, n, line)
			}
		}
		// Each action's block, up to the next action's header.
		blocks := map[string]string{}
		rest := out
		for i := len(tl.Actions) - 1; i >= 0; i-- {
			ac := tl.Actions[i]
			head := fmt.Sprintf("\n  %s (%s)\n", actionName(ac), ac.LevelNote())
			at := strings.LastIndex(rest, head)
			if at < 0 {
				t.Fatalf("%s: no header %q in\n%s", tl.Name, head, out)
			}
			blocks[ac.Name], rest = rest[at:], rest[:at]
		}
		for _, ac := range tl.Actions {
			b := blocks[ac.Name]
			for _, p := range ac.Params {
				if p.Disabled != "" {
					if strings.Contains(b, "- "+p.Name+" (") {
						t.Errorf("%s %s: disabled parameter %s shown", tl.Name, ac.Name, p.Name)
					}
					continue
				}
				want := "- " + p.Name + " (" + paramType(p)
				if p.Required {
					want += ", required"
				}
				if !strings.Contains(b, want) {
					t.Errorf("%s %s: want %q in\n%s", tl.Name, ac.Name, want, b)
				}
				if p.Default != nil {
					d, _ := json.Marshal(p.Default)
					if !strings.Contains(b, "default "+string(d)) {
						t.Errorf("%s %s: %s default %s not shown", tl.Name, ac.Name, p.Name, d)
					}
				}
				for _, e := range enumOf(p) {
					if !strings.Contains(strings.Join(strings.Fields(b), " "), e) {
						t.Errorf("%s %s: %s value %q not shown", tl.Name, ac.Name, p.Name, e)
					}
				}
			}
		}
	}
	out, err := runCLI(t, "tools", "no_such_tool")
	if err == nil || !strings.Contains(err.Error(), `no tool "no_such_tool" in this build`) {
		t.Fatalf("unknown tool: %v %s", err, out)
	}
}
