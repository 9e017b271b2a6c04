package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestInstructions_NameOnlyRegisteredTools: the instructions name every
// tool of the build and no catalog tool it lacks, list as core only the
// configured core tools it has, and stay under 6,000 characters.
func TestInstructions_NameOnlyRegisteredTools(t *testing.T) {
	s := registryServer(t, "tiered")
	text := buildInstructions(s.order, []string{"file", "shell", "search", "web_fetch"})
	if len(text) > 6000 {
		t.Errorf("instructions are %d characters", len(text))
	}
	have := map[string]bool{exposure.FindTools: true, exposure.CallTool: true}
	for _, tl := range s.order {
		have[tl.Name] = true
		if !regexp.MustCompile(`\b` + tl.Name + `\b`).MatchString(text) {
			t.Errorf("registered tool %s not named", tl.Name)
		}
	}
	for _, c := range s.router.Tables().Catalog {
		if !have[c.Name] && regexp.MustCompile(`\b`+c.Name+`\b`).MatchString(text) {
			t.Errorf("names %s, which this build does not have", c.Name)
		}
	}
	if !strings.Contains(text, "Always listed ([core]): file, shell, search, web_fetch.\n") {
		t.Errorf("core line:\n%s", text)
	}

	// A smaller build: rules about tools it lacks are left out.
	few := []*tool.Tool{{Name: "file"}, {Name: "pdf_tool"}}
	text = buildInstructions(few, []string{"file", "shell"})
	for _, absent := range []string{"shell", "browser", "data_processor", "format_converter", "screen"} {
		if regexp.MustCompile(`\b` + absent + `\b`).MatchString(text) {
			t.Errorf("small build: names %s\n%s", absent, text)
		}
	}
	if !strings.Contains(text, "Tools of this server: file, pdf_tool.") || !strings.Contains(text, "([core]): file.") {
		t.Errorf("small build:\n%s", text)
	}
}

// TestInstructions_EssentialsFirst: clients cut the instructions (Claude
// Code at 2,048 characters, Codex shows about 200), so what a model must
// know comes first: the first 200 characters say what clawbridge is and
// name find_tools; the first 2,048 hold the confirmation paths (the
// client's own question, confirm_token, clawbridge approve) and results.
func TestInstructions_EssentialsFirst(t *testing.T) {
	s := registryServer(t, "tiered")
	text := buildInstructions(s.order, []string{"file", "shell", "search", "web_fetch"})
	first := text[:200]
	for _, want := range []string{"clawbridge", "find_tools", "callable"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first 200 characters lack %q:\n%s", want, first)
		}
	}
	head := text[:2048]
	for _, want := range []string{"confirm_token", "clawbridge approve ID", "clawbridge://results/", "A refusal by the user is final", "Errors name the field"} {
		if !strings.Contains(head, want) {
			t.Errorf("the first 2,048 characters lack %q", want)
		}
	}
}
