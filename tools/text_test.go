package tools_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/server"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Limits on what a model reads of each published tool, in characters. The
// action description has a line per action; per-action detail belongs in
// the parameters' own descriptions, which carry their actions in a tag.
const (
	maxToolDescription   = 350
	maxParamDescription  = 400
	maxActionDescription = 500
	maxActionLine        = 120
)

// TestPublishedText: every text a client receives of every tool (its
// description, title, action lines, and each parameter's description,
// nested ones too) is within its limit and not broken (wording.Fault:
// unbalanced brackets, a dangling "(", doubled spaces or punctuation).
func TestPublishedText(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	published := server.PublishedMeta()
	for i := range all {
		published = append(published, server.Published(&all[i]))
	}
	for _, p := range published {
		check := func(where, text string, limit int) {
			if n := utf8.RuneCountInString(text); n > limit {
				t.Errorf("%s %s: %d characters, limit %d", p.Name, where, n, limit)
			}
			if f := wording.Fault(text); f != "" {
				t.Errorf("%s %s: %s: %q", p.Name, where, f, text)
			}
		}
		check("description", p.Description, maxToolDescription)
		check("title", p.Title, 60)
		schema := p.InputSchema
		if p.RawInputSchema != nil {
			schema = mcp.ToolInputSchema{}
			if err := json.Unmarshal(p.RawInputSchema, &schema); err != nil {
				t.Fatal(err)
			}
		}
		for name, raw := range schema.Properties {
			prop, _ := raw.(map[string]any)
			if name == "action" {
				desc, _ := prop["description"].(string)
				check("action", desc, maxActionDescription)
				for _, line := range strings.Split(desc, "\n") {
					check("action line", line, maxActionLine)
				}
				continue
			}
			walkDescriptions(name, prop, func(where, desc string) { check(where, desc, maxParamDescription) })
		}
	}
}

// walkDescriptions calls f with the description of a parameter and of each
// field or element schema nested in it.
func walkDescriptions(where string, s map[string]any, f func(where, desc string)) {
	if d, ok := s["description"].(string); ok {
		f(where, d)
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkDescriptions(where+"[]", items, f)
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		if m, ok := p.(map[string]any); ok {
			walkDescriptions(where+"."+name, m, f)
		}
	}
}
