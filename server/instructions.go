package server

import (
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// The server's guide to choosing tools, sent at initialize. It names only
// the tools this build registers: a rule is kept when every tool it names is
// registered, and the tool and core lists are the registry's. Clients cut
// it (Claude Code keeps 2,048 characters, Codex shows the model about 200),
// so it opens with the essentials — find_tools, confirmation, results — in
// that order: the first 200 characters stand on their own, and everything
// a model must know fits in the first 2,048. Keep it under 6,000.

const instructionsEssentials = `clawbridge: local tools for files, commands, web, documents, data, media and messages. Unsure which fits? Call find_tools with the user's request; every tool stays callable even when not listed.

Confirmation
- High-risk actions (arbitrary commands, sending, deleting outside the trash) need the user's confirmation. The client may ask the user itself. Or the result is a preview with confirm_token: show the user what will run and, only if they agree, repeat the identical call with confirm_token. Or the result names a pending call and the command that approves it (clawbridge approve ID): tell the user that command, and call again once they have run it.
- A refusal by the user is final unless they ask again. The same call repeated again and again is refused: change the approach.

Results
- Structured data plus a short text; produced files come back as resource links (file:// paths in the workspace). Very long results are cut and kept whole as a clawbridge://results/... resource named in the result.
- Errors name the field and the allowed values: fix the call rather than guessing again.`

const instructionsPick = `How to pick a tool
- The tool list may start with only the core tools, find_tools and call_tool; every other tool (a bridged server's too) is found with find_tools.
- find_tools takes the request in the user's own words (any language) and returns the best tools; a client that re-reads the tool list then lists them (a tool you call by name is listed too), otherwise call them by name or through call_tool. After two failed calls in a row the list widens.
- Tags in descriptions: [recommended] is the first choice for the current task, [alternative] a fallback, [core] always available.
- Multi-action tools take a required "action" field; each action lists its own required fields.
- Network tools cannot reach private or loopback addresses unless the operator allowed them.`

// instructionRule is one decision rule and the tools it names.
type instructionRule struct {
	tools []string
	text  string
}

var decisionRules = []instructionRule{
	{[]string{"file"}, "Files: use file (read, write, list, find, grep, zip...). Paths are relative to the workspace; outputs land in outputs/. Deleting moves to a trash that restore can undo."},
	{[]string{"shell"}, "Commands: use shell with an argv list (no shell syntax). Read-only programs run at once; others ask for confirmation."},
	{[]string{"web_fetch", "browser", "browser_use"}, "Web pages: web_fetch for reading an article or page as Markdown; browser for interaction (click, type, forms, screenshots), snapshot first and act on element refs; browser_use for several steps in one call or structured extraction."},
	{[]string{"pdf_tool", "format_converter"}, "PDF files: pdf_tool (merge, split, encrypt, watermark, extract text, forms). Converting formats: format_converter. Do not use a document generator to edit an existing PDF."},
	{[]string{"doc_generator", "ppt_generator"}, "Writing documents: Word .docx -> doc_generator; slides .pptx -> ppt_generator (never answer a PPT request with a Word file)."},
	{[]string{"contract_generator"}, "Contracts -> contract_generator."},
	{[]string{"resume_builder"}, "Résumés -> resume_builder."},
	{[]string{"mind_map"}, "Mind maps -> mind_map."},
	{[]string{"data_processor"}, "Spreadsheets and data (xlsx, csv, json): data_processor to read, describe, query with SQL, filter, group, pivot, clean, join, export."},
	{[]string{"data_visualization"}, "Charts: data_visualization."},
	{[]string{"financial_report"}, "Financial statements from a ledger: financial_report."},
	{[]string{"db_query"}, "Read-only SQL against configured databases: db_query."},
	{[]string{"system"}, "System state: system (info, processes, ports, services, logs)."},
	{[]string{"screen"}, "A screenshot of the desktop: screen."},
}

// buildInstructions renders the instructions for the registered tools and
// the configured core set (core names not registered are left out).
func buildInstructions(registered []*tool.Tool, core []string) string {
	have := map[string]bool{}
	var names []string
	for _, t := range registered {
		have[t.Name] = true
		names = append(names, t.Name)
	}
	var b strings.Builder
	b.WriteString(instructionsEssentials + "\n\n")
	b.WriteString("Tools of this server: " + strings.Join(names, ", ") + ".\n")
	var cores []string
	for _, c := range core {
		if have[c] && !slices.Contains(cores, c) {
			cores = append(cores, c)
		}
	}
	if len(cores) > 0 {
		b.WriteString("Always listed ([core]): " + strings.Join(cores, ", ") + ".\n")
	}
	b.WriteString("\n" + instructionsPick + "\n\nDecision rules\n")
	for _, r := range decisionRules {
		all := true
		for _, n := range r.tools {
			all = all && have[n]
		}
		if all {
			b.WriteString("- " + r.text + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
