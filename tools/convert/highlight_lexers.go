package convert

// The Go and Markdown lexers of chroma v2.27.0 (lexers/go.go and
// lexers/markdown.go, MIT, see chroma/LICENSE), which are Go code upstream
// rather than XML. The rules are unchanged; what changed is that they look
// other lexers up in the registry they are built into instead of chroma's
// global one, so that package (and its init) stays out of the binary.

//lint:file-ignore ST1001 the upstream rules are written against chroma's dot import; kept as they are

import (
	"strings"

	. "github.com/alecthomas/chroma/v2"
)

// newGoLexer is chroma's Go lexer; raw strings are lexed as Go text
// templates, as upstream does.
func newGoLexer(goTextTemplate Lexer) (*RegexLexer, error) {
	return NewLexer(
		&Config{
			Name:      "Go",
			Aliases:   []string{"go", "golang"},
			Filenames: []string{"*.go"},
			MimeTypes: []string{"text/x-gosrc"},
		},
		func() Rules { return goRules(goTextTemplate) },
	)
}

func goRules(goTextTemplate Lexer) Rules {
	return Rules{
		"root": {
			rule(`\n`, TextWhitespace, nil),
			rule(`\s+`, TextWhitespace, nil),
			rule(`//[^\s\n\r][^\n\r]*`, CommentPreproc, nil),
			rule(`//[^\n\r]*`, CommentSingle, nil),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, CommentMultiline, nil),
			rule(`(import|package)\b`, KeywordNamespace, nil),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, KeywordDeclaration, nil),
			rule(Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Keyword, nil),
			rule(`(true|false|iota|nil)\b`, KeywordConstant, nil),
			rule(Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), ByGroups(NameBuiltin, Punctuation), nil),
			rule(Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), KeywordType, nil),
			rule(`\d+i`, LiteralNumber, nil),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, LiteralNumber, nil),
			rule(`\.\d+([Ee][-+]\d+)?i`, LiteralNumber, nil),
			rule(`\d+[Ee][-+]\d+i`, LiteralNumber, nil),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, LiteralNumberFloat, nil),
			rule(`\.\d+([eE][+\-]?\d+)?`, LiteralNumberFloat, nil),
			rule(`0[0-7]+`, LiteralNumberOct, nil),
			rule(`0[xX][0-9a-fA-F_]+`, LiteralNumberHex, nil),
			rule(`0b[01_]+`, LiteralNumberBin, nil),
			rule(`(0|[1-9][0-9_]*)`, LiteralNumberInteger, nil),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, LiteralStringChar, nil),
			rule("(`)([^`]*)(`)", ByGroups(LiteralString, UsingLexer(TypeRemappingLexer(goTextTemplate, TypeMapping{{Other, LiteralString, nil}})), LiteralString), nil),
			rule(`"(\\\\|\\"|[^"])*"`, LiteralString, nil),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Operator, nil),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, ByGroups(NameFunction, UsingSelf("root"), Punctuation), nil),
			rule(`[|^<>=!()\[\]{}.,;:~]`, Punctuation, nil),
			rule(`[^\W\d]\w*`, NameOther, nil),
		},
	}
}

// rule is a chroma.Rule with its fields named, so the rules read as upstream's.
func rule(pattern string, typ Emitter, mutator Mutator) Rule {
	return Rule{Pattern: pattern, Type: typ, Mutator: mutator}
}

// newMarkdownLexer is chroma's Markdown lexer: a leading YAML front matter
// is lexed as YAML (from the same registry), the rest with the Markdown rules.
func newMarkdownLexer(registry *LexerRegistry) (Lexer, error) {
	l, err := NewLexer(
		&Config{
			Name:      "markdown",
			Aliases:   []string{"md", "mkd"},
			Filenames: []string{"*.md", "*.mkd", "*.markdown"},
			MimeTypes: []string{"text/x-markdown"},
		},
		markdownRules,
	)
	if err != nil {
		return nil, err
	}
	return &markdownLexer{Lexer: l, registry: registry}, nil
}

// markdownLexer wraps the base Markdown lexer to highlight top-of-file YAML frontmatter.
type markdownLexer struct {
	Lexer
	registry *LexerRegistry
}

// Lexes Markdown, highlighting a leading YAML frontmatter block before delegating to Markdown rules.
func (m *markdownLexer) Tokenise(options *TokeniseOptions, text string) (Iterator, error) {
	frontmatter, rest, ok := splitFrontmatter(text)
	if !ok {
		return m.Lexer.Tokenise(options, text)
	}

	yamlLexer := m.registry.Get("YAML")
	if yamlLexer == nil {
		return m.Lexer.Tokenise(options, text)
	}

	yamlTokens, err := yamlLexer.Tokenise(options, frontmatter)
	if err != nil {
		return nil, err
	}
	markdownTokens, err := m.Lexer.Tokenise(options, rest)
	if err != nil {
		return nil, err
	}
	return Concaterator(yamlTokens, markdownTokens), nil
}

// Extracts a leading YAML frontmatter block if the document starts with one.
func splitFrontmatter(text string) (frontmatter string, rest string, ok bool) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text, false
	}

	lineEnd := strings.IndexByte(text, '\n')
	if lineEnd < 0 {
		return "", text, false
	}
	if strings.TrimSuffix(text[:lineEnd], "\r") != "---" {
		return "", text, false
	}

	for pos := lineEnd + 1; pos < len(text); {
		next := strings.IndexByte(text[pos:], '\n')
		if next < 0 {
			break
		}
		lineEnd = pos + next
		line := strings.TrimSuffix(text[pos:lineEnd], "\r")
		if line == "---" {
			return text[:lineEnd+1], text[lineEnd+1:], true
		}
		pos = lineEnd + 1
	}
	return "", text, false
}

func markdownRules() Rules {
	return Rules{
		"root": {
			rule(`<!--[\w\W]*?-->`, CommentMultiline, nil),
			rule(`^(#[^#].+\n)`, ByGroups(GenericHeading), nil),
			rule(`^(#{2,6}.+\n)`, ByGroups(GenericSubheading), nil),
			rule(`^(\s*)([*-] )(\[[ xX]\])( .+\n)`, ByGroups(Text, Keyword, Keyword, UsingSelf("inline")), nil),
			rule(`^(\s*)([*-])(\s)(.+\n)`, ByGroups(Text, Keyword, Text, UsingSelf("inline")), nil),
			rule(`^(\s*)([0-9]+\.)( .+\n)`, ByGroups(Text, Keyword, UsingSelf("inline")), nil),
			rule(`^(\s*>\s)(.+\n)`, ByGroups(Keyword, GenericEmph), nil),
			rule("^(```\\n)([\\w\\W]*?)(^```$)", ByGroups(String, Text, String), nil),
			rule(
				"^(```)(\\w+)(\\n)([\\w\\W]*?)(^```$)",
				UsingByGroup(2, 4, String, String, String, Text, String),
				nil,
			),
			Include("inline"),
		},
		"inline": {
			rule(`<!--[\w\W]*?-->`, CommentMultiline, nil),
			rule(`\\.`, Text, nil),
			rule(`(\s)(\*|_)((?:(?!\2).)*)(\2)((?=\W|\n))`, ByGroups(Text, GenericEmph, GenericEmph, GenericEmph, Text), nil),
			rule(`(\s)((\*\*|__).*?)\3((?=\W|\n))`, ByGroups(Text, GenericStrong, GenericStrong, Text), nil),
			rule(`(\s)(~~[^~]+~~)((?=\W|\n))`, ByGroups(Text, GenericDeleted, Text), nil),
			rule("`[^`]+`", LiteralStringBacktick, nil),
			rule(`[@#][\w/:]+`, NameEntity, nil),
			rule(`(!?\[)([^]]+)(\])(\()([^)]+)(\))`, ByGroups(Text, NameTag, Text, Text, NameAttribute, Text), nil),
			rule(`.|\n`, Text, nil),
		},
	}
}
