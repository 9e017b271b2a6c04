package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/benchpage"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// The generated references under docs/reference. UPDATE_DOCS=1 rewrites
// them; otherwise a reference that differs from what this build generates
// fails with the command that regenerates it.
const regenerate = "UPDATE_DOCS=1 go test ./internal/cli -run TestDocs_Reference"

// TestDocs_ReferenceTools: docs/reference/tools.md is every registered tool,
// its actions with their levels and their parameters, as `clawbridge tools`
// prints them.
func TestDocs_ReferenceTools(t *testing.T) {
	cliEnv(t)
	checkGenerated(t, "docs/reference/tools.md", toolReference(registry(t)))
}

// TestDocs_ReferenceConfig: docs/reference/config.md is the commented
// template `clawbridge config init` writes, one section per top-level key.
func TestDocs_ReferenceConfig(t *testing.T) {
	checkGenerated(t, "docs/reference/config.md", configReference(config.Template))
}

// TestDocs_BenchmarksBlock: docs/benchmarks.md has the block `make bench`
// rewrites (scripts/benchpage), so that a run does not fail at its end.
func TestDocs_BenchmarksBlock(t *testing.T) {
	if _, err := benchpage.Rewrite(docs(t)["docs/benchmarks.md"], ""); err != nil {
		t.Errorf("docs/benchmarks.md: %v", err)
	}
}

func checkGenerated(t *testing.T, rel, got string) {
	t.Helper()
	path := filepath.Join("..", "..", rel)
	if os.Getenv("UPDATE_DOCS") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v; run %s", rel, err, regenerate)
	}
	if string(want) != got {
		t.Errorf("%s is stale; run %s and commit the diff\n%s", rel, regenerate, lineDiff(string(want), got))
	}
}

func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return "length differs"
}

// toolReference renders the registry as Markdown: an index, then each tool
// with its description, programs, actions, levels and parameters.
func toolReference(ts []*tool.Tool) string {
	var b strings.Builder
	b.WriteString("# Tool reference\n\n")
	b.WriteString("Generated from the registry of this build; do not edit. After a tool changes, run\n`" + regenerate + "`.\n")
	b.WriteString("`clawbridge tools TOOL` prints the same for one tool; [tools.md](../tools.md) says what each\ntool is built on, with longer notes. Levels: `read` (no side effects), `write` (changes\ninside the workspace or data dir), `read/write` (a read unless the call names an `output` or\nsets `save`), `high` (asks first: see [How a call runs](../security.md)).\n\n")
	b.WriteString("| tool | title | actions (level) |\n|---|---|---|\n")
	for _, t := range ts {
		var acts []string
		for _, ac := range t.Actions {
			acts = append(acts, fmt.Sprintf("%s (%s)", actionName(ac), ac.LevelNote()))
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, mdCell(t.Title), strings.Join(acts, ", "))
	}
	for _, t := range ts {
		fmt.Fprintf(&b, "\n## %s\n\n%s. %s\n", t.Name, t.Title, oneLine(t.Description))
		if len(t.Programs) > 0 {
			fmt.Fprintf(&b, "\nUses: %s (`clawbridge doctor` checks them).\n", strings.Join(slices.Sorted(maps.Keys(t.Programs)), ", "))
		}
		if t.MultiAction() {
			b.WriteString("\nActions (give one as `action`):\n")
		} else {
			b.WriteString("\nOne action, no `action` field:\n")
		}
		for _, ac := range t.Actions {
			fmt.Fprintf(&b, "\n- **%s** (%s)", actionName(ac), ac.LevelNote())
			if ac.Description != "" {
				b.WriteString(": " + oneLine(ac.Description))
			}
			b.WriteString("\n")
			n := 0
			for _, p := range ac.Params {
				if p.Disabled == "" {
					writeParamMD(&b, p, "  ")
					n++
				}
			}
			if n == 0 {
				b.WriteString("  - no parameters\n")
			}
		}
	}
	return b.String()
}

// writeParamMD is writeParam as a nested Markdown list item.
func writeParamMD(b *strings.Builder, p tool.Param, indent string) {
	head := "`" + p.Name + "` (" + paramTerms(p, func(v string) string { return "`" + v + "`" })
	if enum := enumOf(p); len(enum) > 0 {
		head += "; one of " + strings.Join(enum, ", ")
	}
	head += ")"
	if p.Description != "" {
		head += ": " + oneLine(p.Description)
	}
	fmt.Fprintf(b, "%s- %s\n", indent, head)
	for _, q := range fieldsOf(p) {
		writeParamMD(b, q, indent+"  ")
	}
}

// oneLine joins a text's lines, so it stays one list item.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mdCell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

var topKey = regexp.MustCompile(`^([a-z_]+):`)

// configReference renders the template as Markdown: its opening comment as
// the introduction, then each paragraph of the template (split at blank
// lines) under a heading naming its top-level keys.
func configReference(tmpl string) string {
	paras := strings.Split(strings.TrimSpace(tmpl), "\n\n")
	var b strings.Builder
	b.WriteString("# Configuration reference\n\n")
	b.WriteString("Generated from the commented template `clawbridge config init` writes\n(`internal/config/template.go`); do not edit. After the template changes, run\n`" + regenerate + "`.\n")
	b.WriteString("[Configuration](../configuration.md) explains the settings; this page is the file itself.\n\n")
	for _, line := range strings.Split(paras[0], "\n") {
		b.WriteString(strings.TrimSpace(strings.TrimPrefix(line, "#")) + "\n")
	}
	for _, para := range paras[1:] {
		var keys []string
		for _, line := range strings.Split(para, "\n") {
			if m := topKey.FindStringSubmatch(line); m != nil {
				keys = append(keys, "`"+m[1]+"`")
			}
		}
		if len(keys) > 0 {
			fmt.Fprintf(&b, "\n## %s\n", strings.Join(keys, ", "))
		}
		fmt.Fprintf(&b, "\n```yaml\n%s\n```\n", para)
	}
	return b.String()
}
