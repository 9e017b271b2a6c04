package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Codex keeps its MCP servers in TOML (~/.codex/config.toml) as
// [mcp_servers.NAME] tables with command and args. There is no TOML
// library in the module, and the edit is small: the clawbridge table is
// replaced where it is, or appended, and every other line is kept as
// written.

// codexHeader matches the clawbridge table's header, quoted or not.
var codexHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("clawbridge"|'clawbridge'|clawbridge)\s*\]\s*(#.*)?$`)

// codexOtherForm matches clawbridge set in a form this edit does not
// rewrite (a dotted key or an inline table under [mcp_servers]).
var codexOtherForm = regexp.MustCompile(`^\s*(mcp_servers\s*\.\s*)?("clawbridge"|'clawbridge'|clawbridge)\s*(=|\.)`)

// anyHeader matches a table or array-of-tables header.
var anyHeader = regexp.MustCompile(`^\s*\[`)

// codexTable is the clawbridge table as TOML.
func codexTable(entry map[string]any) []byte {
	var b strings.Builder
	b.WriteString("[mcp_servers.clawbridge]\n")
	fmt.Fprintf(&b, "command = %s\n", tomlString(entry["command"].(string)))
	var args []string
	for _, a := range entry["args"].([]string) {
		args = append(args, tomlString(a))
	}
	fmt.Fprintf(&b, "args = [%s]\n", strings.Join(args, ", "))
	return []byte(b.String())
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mergeCodexConfig sets [mcp_servers.clawbridge] in a Codex config.toml.
// The table's own lines (up to the next header) are replaced; its
// sub-tables, such as [mcp_servers.clawbridge.env], and everything else
// stay.
func mergeCodexConfig(path, _ string, entry map[string]any) (entryState, error) {
	table := codexTable(entry)
	return mergeFile(path, func(data []byte) ([]byte, entryState, error) {
		lines := strings.SplitAfter(string(data), "\n")
		start, end := -1, len(lines)
		section := ""
		for i, line := range lines {
			if anyHeader.MatchString(line) {
				section = strings.TrimSpace(line)
				if start >= 0 && end == len(lines) && i > start {
					end = i
				}
			}
			if codexHeader.MatchString(line) && start < 0 {
				start = i
				continue
			}
			if (section == "" || section == "[mcp_servers]") && codexOtherForm.MatchString(line) {
				return nil, entryAdded, fmt.Errorf("%s sets clawbridge on line %d in a form install does not rewrite; change it to a [mcp_servers.clawbridge] table or remove it, then run install again", path, i+1)
			}
		}
		if start < 0 {
			out := bytes.Clone(data)
			if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
				out = append(out, '\n')
			}
			if len(bytes.TrimSpace(out)) > 0 {
				out = append(out, '\n')
			}
			return append(out, table...), entryAdded, nil
		}
		// Keep blank and comment lines that end the old table: they
		// belong to what follows.
		for end > start+1 && isTOMLTrivia(lines[end-1]) {
			end--
		}
		old := strings.Join(lines[start:end], "")
		if normalizeTOML(old) == normalizeTOML(string(table)) {
			return nil, entryPresent, nil
		}
		out := strings.Join(lines[:start], "") + string(table) + strings.Join(lines[end:], "")
		return []byte(out), entryReplaced, nil
	})
}

func isTOMLTrivia(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// normalizeTOML drops spacing so a table written by hand with other spacing
// compares equal.
func normalizeTOML(s string) string {
	return strings.Join(strings.Fields(s), "")
}
