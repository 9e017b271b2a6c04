package codeassist

import (
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// langSpec says how to count one language's lines: its comment and string
// syntax, and the line patterns that start a function. It is a scanner, not
// a parser: functions outside Go are found by pattern (one per line), which
// counts ordinary code correctly and can be fooled by unusual layouts.
type langSpec struct {
	exts   []string
	line   []string    // line-comment starts
	block  [][2]string // block-comment delimiters
	quotes []string    // string delimiters, longest first; a string may span lines only for triple quotes and backticks
	// wordComment: a line comment starts only at the start of a word (shell's #).
	wordComment bool
	// rawQuote is the quote inside which a backslash escapes nothing.
	rawQuote string
	funcs    []*regexp.Regexp // the first non-empty group is the name
	notNames []string         // words a function pattern may catch that are not functions
}

var (
	cKeywords = []string{"if", "for", "while", "switch", "catch", "return", "else", "do", "sizeof", "new", "delete", "throw", "case", "goto", "typedef", "using", "synchronized", "await", "typeof", "super", "this"}

	languages = map[string]*langSpec{
		"go": {exts: []string{".go"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{"`", `"`, "'"}, rawQuote: "`"},
		"python": {exts: []string{".py", ".pyw"}, line: []string{"#"}, quotes: []string{`"""`, "'''", `"`, "'"},
			funcs: res(`^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(`)},
		"javascript": {exts: []string{".js", ".mjs", ".cjs", ".jsx"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{"`", `"`, "'"},
			funcs: jsFuncs, notNames: cKeywords},
		"typescript": {exts: []string{".ts", ".tsx", ".mts", ".cts"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{"`", `"`, "'"},
			funcs: jsFuncs, notNames: cKeywords},
		"java": {exts: []string{".java"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{`"""`, `"`, "'"},
			funcs: res(
				`^\s*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp)\s+)*(?:<[^>]+>\s+)?[\w$.<>\[\],?]+(?:\s*\[\])*\s+([A-Za-z_$][\w$]*)\s*`+definition,
				`^\s*(?:public|protected|private)\s+([A-Z][\w$]*)\s*`+definition),
			notNames: cKeywords},
		"c": {exts: []string{".c", ".h"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{`"`, "'"},
			funcs: cFuncs, notNames: cKeywords},
		"cpp": {exts: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{`"`, "'"},
			funcs: cFuncs, notNames: cKeywords},
		"rust": {exts: []string{".rs"}, line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []string{`"`},
			funcs: res(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+([A-Za-z_]\w*)`)},
		"shell": {exts: []string{".sh", ".bash", ".zsh", ".ksh"}, line: []string{"#"}, quotes: []string{`"`, "'"}, wordComment: true, rawQuote: "'",
			funcs: res(`^\s*function\s+([A-Za-z_][\w.:-]*)`, `^\s*([A-Za-z_][\w.:-]*)\s*\(\s*\)`)},
	}

	jsFuncs = res(
		`\bfunction\b\s*\*?\s*([A-Za-z_$][\w$]*)?\s*[<(]`,
		`([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[\w<>\[\]|, .]+)?\s*=>`,
		`^\s*(?:(?:public|private|protected|static|async|get|set|readonly|override)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^()]*\)\s*(?::\s*[^{]+)?\{\s*(?:\}\s*)?$`)
	// A C or C++ definition: a type, then a name and its parameters.
	cFuncs = res(`^\s*(?:[\w:<>,*&~]+[\s*&]+)+\**([A-Za-z_~][\w:~]*)\s*` + definition)
	// definition: the parameter list of a definition, not of a declaration
	// or a call: no ";" after "(" on the line, or a body opened after ")".
	definition = `\((?:[^;]*$|[^()]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:throws\s+[\w.,\s]+)?\{)`
)

func res(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = regexp.MustCompile(p)
	}
	return out
}

func analyzeLanguages() []string { return slices.Sorted(maps.Keys(languages)) }

// languageOf names the language of a file from its extension, or "".
func languageOf(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".json" {
		return "json"
	}
	for name, l := range languages {
		if slices.Contains(l.exts, ext) {
			return name
		}
	}
	return ""
}

// lineCounts are the line kinds of one file or a total.
type lineCounts struct {
	Lines   int `json:"lines"`
	Code    int `json:"code"`
	Comment int `json:"comment"` // lines with comments and no code
	Blank   int `json:"blank"`
}

func (c *lineCounts) add(o lineCounts) {
	c.Lines += o.Lines
	c.Code += o.Code
	c.Comment += o.Comment
	c.Blank += o.Blank
}

// foundFunc is a function found by pattern.
type foundFunc struct {
	Name string
	Line int
}

// countLines classifies every line of text and, when the language has
// function patterns, finds the functions on the code part of each line.
func countLines(l *langSpec, text string) (lineCounts, []foundFunc) {
	var n lineCounts
	var funcs []foundFunc
	var inBlock string // the end delimiter of an open block comment
	var inQuote string // the open multi-line string's delimiter
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		n.Lines++
		if strings.TrimSpace(line) == "" {
			n.Blank++
			continue
		}
		var code strings.Builder
		comment := false
		for j := 0; j < len(line); {
			switch {
			case inBlock != "":
				comment = true
				if k := strings.Index(line[j:], inBlock); k >= 0 {
					j += k + len(inBlock)
					inBlock = ""
				} else {
					j = len(line)
				}
			case inQuote != "":
				code.WriteByte('s') // a string continued from an earlier line is code
				j = l.closeQuote(line, j, inQuote, &inQuote)
			case line[j] == ' ' || line[j] == '\t':
				code.WriteByte(line[j])
				j++
			default:
				if m := l.lineComment(line, j); m {
					comment = true
					j = len(line)
					continue
				}
				if end, ok := l.blockStart(line[j:]); ok {
					inBlock = end
					j += len(l.blockOpener(end))
					comment = true
					continue
				}
				if q := l.quoteAt(line[j:]); q != "" {
					start := j
					inQuote = q
					j = l.closeQuote(line, j+len(q), q, &inQuote)
					code.WriteString(line[start:j])
					if inQuote != "" && !multiLine(q) {
						inQuote = "" // an unterminated one-line string ends with its line
					}
					continue
				}
				code.WriteByte(line[j])
				j++
			}
		}
		c := code.String()
		switch {
		case strings.TrimSpace(c) != "":
			n.Code++
			if name, ok := l.function(c); ok {
				funcs = append(funcs, foundFunc{Name: name, Line: i + 1})
			}
		case comment:
			n.Comment++
		default:
			n.Blank++
		}
	}
	return n, funcs
}

// multiLine reports whether a string opened by q may continue on the next line.
func multiLine(q string) bool { return len(q) == 3 || q == "`" }

func (l *langSpec) lineComment(line string, j int) bool {
	for _, m := range l.line {
		if strings.HasPrefix(line[j:], m) {
			if l.wordComment && j > 0 && line[j-1] != ' ' && line[j-1] != '\t' && line[j-1] != ';' {
				return false // echo a#b, ${#x}: not a comment
			}
			return true
		}
	}
	return false
}

func (l *langSpec) blockStart(s string) (end string, ok bool) {
	for _, b := range l.block {
		if strings.HasPrefix(s, b[0]) {
			return b[1], true
		}
	}
	return "", false
}

func (l *langSpec) blockOpener(end string) string {
	for _, b := range l.block {
		if b[1] == end {
			return b[0]
		}
	}
	return ""
}

func (l *langSpec) quoteAt(s string) string {
	for _, q := range l.quotes {
		if strings.HasPrefix(s, q) {
			return q
		}
	}
	return ""
}

// closeQuote scans line from j for the end of a string opened with q and
// returns the index after it, clearing *open when the string ended.
func (l *langSpec) closeQuote(line string, j int, q string, open *string) int {
	for j < len(line) {
		if line[j] == '\\' && q != l.rawQuote {
			j += 2
			continue
		}
		if strings.HasPrefix(line[j:], q) {
			*open = ""
			return j + len(q)
		}
		j++
	}
	if j > len(line) {
		j = len(line)
	}
	return j
}

// function matches the code of one line against the function patterns.
func (l *langSpec) function(code string) (string, bool) {
	first := strings.Fields(code)
	if len(first) > 0 && slices.Contains(l.notNames, strings.TrimRight(first[0], "({")) {
		return "", false
	}
	for _, re := range l.funcs {
		m := re.FindStringSubmatch(code)
		if m == nil {
			continue
		}
		name := "(anonymous)"
		for _, g := range m[1:] {
			if g != "" {
				name = g
				break
			}
		}
		if slices.Contains(l.notNames, name) {
			continue
		}
		return name, true
	}
	return "", false
}
