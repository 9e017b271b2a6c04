// Package sqlcheck decides whether one SQL text is a single read-only query.
// It tokenizes the text the way the target database would (strings, quoted
// identifiers, comments, dollar quotes), refuses anything it cannot tokenize
// unambiguously, and then admits only SELECT/WITH/VALUES/TABLE/EXPLAIN with
// no data-changing words, locking clauses or dangerous functions. It is the
// first of several layers: the query also runs in a read-only transaction.
package sqlcheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dialect selects the lexical rules.
type Dialect int

const (
	SQLite Dialect = iota
	Postgres
	MySQL
)

// TokenKind classifies tokens.
type TokenKind int

const (
	Word TokenKind = iota
	QuotedIdent
	String
	Number
	Param
	Punct
)

// Token is one lexical token; comments and whitespace are dropped.
type Token struct {
	Kind TokenKind
	Text string // for Word: as written; for QuotedIdent and String: the content
	Pos  int
}

// Upper is the token text in upper case.
func (t Token) Upper() string { return strings.ToUpper(t.Text) }

// Refusal is why a statement was not admitted.
type Refusal struct {
	Reason string
	Pos    int
}

func (r *Refusal) Error() string { return r.Reason }

func refuse(pos int, format string, args ...any) *Refusal {
	return &Refusal{Reason: fmt.Sprintf(format, args...), Pos: pos}
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

func isIdentPart(r rune, d Dialect) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '$' && d != SQLite)
}

// Tokenize splits sql into tokens under the dialect's rules. Any construct
// whose meaning could depend on server settings (backslashes in plain string
// literals, MySQL executable comments) is refused rather than guessed.
func Tokenize(sql string, d Dialect) ([]Token, error) {
	var out []Token
	i := 0
	n := len(sql)
	for i < n {
		c := sql[i]
		r, size := utf8.DecodeRuneInString(sql[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, refuse(i, "the query is not valid UTF-8")
		case c == 0:
			return nil, refuse(i, "the query contains a NUL byte")
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case unicode.IsSpace(r) || unicode.Is(unicode.Cf, r):
			// Databases differ on non-ASCII spaces and invisible format
			// characters; do not guess where they split tokens.
			return nil, refuse(i, "unusual whitespace or invisible character (U+%04X) in the query", r)
		case lineComment(sql, i, d):
			i = lineEnd(sql, i)
		case c == '/' && i+1 < n && sql[i+1] == '*':
			j, err := blockCommentEnd(sql, i, d)
			if err != nil {
				return nil, err
			}
			i = j
		case c == '\'' || (c == 'E' || c == 'e') && d == Postgres && i+1 < n && sql[i+1] == '\'':
			s, end, err := stringLiteral(sql, i, d)
			if err != nil {
				return nil, err
			}
			out = append(out, Token{Kind: String, Text: s, Pos: i})
			i = end
		case c == '"' || c == '`' && d != Postgres || c == '[' && d == SQLite:
			s, end, err := quotedIdent(sql, i, d)
			if err != nil {
				return nil, err
			}
			out = append(out, Token{Kind: QuotedIdent, Text: s, Pos: i})
			i = end
		case c == '$' && d == Postgres:
			tok, end, err := dollar(sql, i)
			if err != nil {
				return nil, err
			}
			out = append(out, tok)
			i = end
		case (c == 'U' || c == 'u') && d == Postgres && i+2 < n && sql[i+1] == '&' && (sql[i+2] == '\'' || sql[i+2] == '"'):
			return nil, refuse(i, "unicode-escaped literals (U&'...') are not accepted")
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && sql[i+1] >= '0' && sql[i+1] <= '9':
			j, err := numberEnd(sql, i)
			if err != nil {
				return nil, err
			}
			out = append(out, Token{Kind: Number, Text: sql[i:j], Pos: i})
			i = j
		case isIdentStart(r):
			j := i + size
			for j < n {
				r2, s2 := utf8.DecodeRuneInString(sql[j:])
				if !isIdentPart(r2, d) {
					break
				}
				j += s2
			}
			out = append(out, Token{Kind: Word, Text: sql[i:j], Pos: i})
			i = j
		case c == '?' || (c == ':' || c == '@') && i+1 < n && isIdentStart(rune(sql[i+1])) ||
			c == '@' && d == MySQL && i+1 < n && sql[i+1] == '@':
			j := paramEnd(sql, i, d)
			out = append(out, Token{Kind: Param, Text: sql[i:j], Pos: i})
			i = j
		default:
			out = append(out, Token{Kind: Punct, Text: string(r), Pos: i})
			i += size
		}
	}
	return out, nil
}

// paramEnd is where the ?, :name, @name or MySQL @@system.variable
// parameter starting at i ends.
func paramEnd(sql string, i int, d Dialect) int {
	n := len(sql)
	if sql[i] == '@' && i+1 < n && sql[i+1] == '@' {
		j := i + 2
		for j < n && (isIdentPart(rune(sql[j]), d) || sql[j] == '.') {
			j++
		}
		return j
	}
	j := i + 1
	for j < n && isIdentPart(rune(sql[j]), d) {
		j++
	}
	return j
}

// quotedIdent reads the "identifier", `identifier` or [identifier]
// starting at i, returning its content and where it ends.
func quotedIdent(sql string, i int, d Dialect) (string, int, error) {
	switch sql[i] {
	case '`':
		return quoted(sql, i, '`', false)
	case '[':
		j := strings.IndexByte(sql[i+1:], ']')
		if j < 0 {
			return "", 0, refuse(i, "unterminated [identifier]")
		}
		return sql[i+1 : i+1+j], i + j + 2, nil
	}
	s, end, err := quoted(sql, i, '"', d == MySQL)
	if err != nil {
		return "", 0, err
	}
	if d == MySQL && strings.Contains(s, `\`) {
		return "", 0, refuse(i, "backslashes in quoted text are not accepted")
	}
	return s, end, nil
}

// lineComment reports whether a line comment starts at i: "--", or "#" in
// MySQL. MySQL needs a space after "--"; without one the first "-" is an
// operator.
func lineComment(sql string, i int, d Dialect) bool {
	n := len(sql)
	switch {
	case sql[i] == '#':
		return d == MySQL
	case sql[i] != '-' || i+1 >= n || sql[i+1] != '-':
		return false
	case d == MySQL && i+2 < n:
		c := sql[i+2]
		return c == ' ' || c == '\t' || c == '\n' || c == '\r'
	}
	return true
}

// stringLiteral reads the '...' (or PostgreSQL E'...') string starting at
// i, returning its content and where it ends.
func stringLiteral(sql string, i int, d Dialect) (string, int, error) {
	if sql[i] != '\'' {
		return quoted(sql, i+1, '\'', true) // E'...': backslash escapes
	}
	s, end, err := quoted(sql, i, '\'', d == MySQL)
	if err != nil {
		return "", 0, err
	}
	if strings.Contains(s, `\`) && d != SQLite {
		return "", 0, refuse(i, "backslashes in string literals are not accepted (their meaning depends on server settings); use E'...' in PostgreSQL or avoid them")
	}
	return s, end, nil
}

// lineEnd is where a line comment starting at i ends: past its newline.
func lineEnd(sql string, i int) int {
	j := strings.IndexByte(sql[i:], '\n')
	if j < 0 {
		return len(sql)
	}
	return i + j + 1
}

// blockCommentEnd is where the /* comment starting at i ends; PostgreSQL
// nests them.
func blockCommentEnd(sql string, i int, d Dialect) (int, error) {
	n := len(sql)
	if i+2 < n && (sql[i+2] == '!' || sql[i+2] == '+' && d == MySQL) {
		return 0, refuse(i, "executable or hint comments (/*! ... */) are not accepted")
	}
	depth := 1
	j := i + 2
	for j < n && depth > 0 {
		if sql[j] == '*' && j+1 < n && sql[j+1] == '/' {
			depth--
			j += 2
			continue
		}
		if d == Postgres && sql[j] == '/' && j+1 < n && sql[j+1] == '*' {
			depth++
			j += 2
			continue
		}
		j++
	}
	if depth > 0 {
		return 0, refuse(i, "unterminated comment")
	}
	return j, nil
}

// dollar reads PostgreSQL's $1 parameter or $tag$ ... $tag$ dollar quote
// starting at i, returning the token and where it ends.
func dollar(sql string, i int) (Token, int, error) {
	n := len(sql)
	j := i + 1
	if j < n && sql[j] >= '0' && sql[j] <= '9' {
		for j < n && sql[j] >= '0' && sql[j] <= '9' {
			j++
		}
		return Token{Kind: Param, Text: sql[i:j], Pos: i}, j, nil
	}
	for j < n {
		r2, s2 := utf8.DecodeRuneInString(sql[j:])
		if r2 == '$' || !isIdentPart(r2, SQLite) {
			break
		}
		j += s2
	}
	if j >= n || sql[j] != '$' {
		return Token{}, 0, refuse(i, "unexpected '$'")
	}
	tag := sql[i : j+1]
	k := strings.Index(sql[j+1:], tag)
	if k < 0 {
		return Token{}, 0, refuse(i, "unterminated dollar-quoted string")
	}
	return Token{Kind: String, Text: sql[j+1 : j+1+k], Pos: i}, j + 1 + k + len(tag), nil
}

// numberEnd is where the number starting at i ends.
func numberEnd(sql string, i int) (int, error) {
	n := len(sql)
	j := i
	for j < n && (sql[j] >= '0' && sql[j] <= '9' || sql[j] == '.' || sql[j] == '_' || sql[j] == 'e' || sql[j] == 'E' || sql[j] == 'x' || sql[j] == 'X' ||
		(sql[j] >= 'a' && sql[j] <= 'f') || (sql[j] >= 'A' && sql[j] <= 'F') ||
		((sql[j] == '+' || sql[j] == '-') && j > i && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
		j++
	}
	// A number glued to letters (1union) is how filters get evaded.
	if j < n {
		if r2, _ := utf8.DecodeRuneInString(sql[j:]); isIdentStart(r2) {
			return 0, refuse(i, "a number is directly followed by letters near %q", snippet(sql, i))
		}
	}
	return j, nil
}

// quoted reads a quoted token starting at sql[start] == q; a doubled quote
// is an escaped quote, and with backslash true a backslash escapes the next
// byte.
func quoted(sql string, start int, q byte, backslash bool) (string, int, error) {
	var b strings.Builder
	i := start + 1
	for i < len(sql) {
		c := sql[i]
		if backslash && c == '\\' && i+1 < len(sql) {
			b.WriteByte(c)
			b.WriteByte(sql[i+1])
			i += 2
			continue
		}
		if c == q {
			if i+1 < len(sql) && sql[i+1] == q {
				b.WriteByte(q)
				i += 2
				continue
			}
			return b.String(), i + 1, nil
		}
		b.WriteByte(c)
		i++
	}
	return "", 0, refuse(start, "unterminated quoted text starting at %q", snippet(sql, start))
}

func snippet(s string, i int) string {
	end := min(len(s), i+20)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return s[i:end]
}
