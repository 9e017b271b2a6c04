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
		case c == '-' && i+1 < n && sql[i+1] == '-':
			if d == MySQL && i+2 < n && !(sql[i+2] == ' ' || sql[i+2] == '\t' || sql[i+2] == '\n' || sql[i+2] == '\r') {
				out = append(out, Token{Kind: Punct, Text: "-", Pos: i})
				i++
				continue
			}
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j + 1
			}
		case c == '#' && d == MySQL:
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j + 1
			}
		case c == '/' && i+1 < n && sql[i+1] == '*':
			if i+2 < n && (sql[i+2] == '!' || sql[i+2] == '+' && d == MySQL) {
				return nil, refuse(i, "executable or hint comments (/*! ... */) are not accepted")
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
				return nil, refuse(i, "unterminated comment")
			}
			i = j
		case c == '\'':
			s, end, err := quoted(sql, i, '\'', d == MySQL)
			if err != nil {
				return nil, err
			}
			if strings.Contains(s, `\`) && d != SQLite {
				return nil, refuse(i, "backslashes in string literals are not accepted (their meaning depends on server settings); use E'...' in PostgreSQL or avoid them")
			}
			out = append(out, Token{Kind: String, Text: s, Pos: i})
			i = end
		case c == '"':
			s, end, err := quoted(sql, i, '"', d == MySQL)
			if err != nil {
				return nil, err
			}
			if d == MySQL && strings.Contains(s, `\`) {
				return nil, refuse(i, "backslashes in quoted text are not accepted")
			}
			out = append(out, Token{Kind: QuotedIdent, Text: s, Pos: i})
			i = end
		case c == '`' && d != Postgres:
			s, end, err := quoted(sql, i, '`', false)
			if err != nil {
				return nil, err
			}
			out = append(out, Token{Kind: QuotedIdent, Text: s, Pos: i})
			i = end
		case c == '[' && d == SQLite:
			j := strings.IndexByte(sql[i+1:], ']')
			if j < 0 {
				return nil, refuse(i, "unterminated [identifier]")
			}
			out = append(out, Token{Kind: QuotedIdent, Text: sql[i+1 : i+1+j], Pos: i})
			i += j + 2
		case c == '$' && d == Postgres:
			// $1 parameter, or $tag$ ... $tag$ dollar quote.
			j := i + 1
			if j < n && sql[j] >= '0' && sql[j] <= '9' {
				for j < n && sql[j] >= '0' && sql[j] <= '9' {
					j++
				}
				out = append(out, Token{Kind: Param, Text: sql[i:j], Pos: i})
				i = j
				continue
			}
			for j < n {
				r2, s2 := utf8.DecodeRuneInString(sql[j:])
				if r2 == '$' || !isIdentPart(r2, SQLite) {
					break
				}
				j += s2
			}
			if j >= n || sql[j] != '$' {
				return nil, refuse(i, "unexpected '$'")
			}
			tag := sql[i : j+1]
			k := strings.Index(sql[j+1:], tag)
			if k < 0 {
				return nil, refuse(i, "unterminated dollar-quoted string")
			}
			out = append(out, Token{Kind: String, Text: sql[j+1 : j+1+k], Pos: i})
			i = j + 1 + k + len(tag)
		case (c == 'E' || c == 'e') && d == Postgres && i+1 < n && sql[i+1] == '\'':
			s, end, err := quoted(sql, i+1, '\'', true)
			if err != nil {
				return nil, err
			}
			out = append(out, Token{Kind: String, Text: s, Pos: i})
			i = end
		case (c == 'U' || c == 'u') && d == Postgres && i+2 < n && sql[i+1] == '&' && (sql[i+2] == '\'' || sql[i+2] == '"'):
			return nil, refuse(i, "unicode-escaped literals (U&'...') are not accepted")
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && sql[i+1] >= '0' && sql[i+1] <= '9':
			j := i
			for j < n && (sql[j] >= '0' && sql[j] <= '9' || sql[j] == '.' || sql[j] == '_' || sql[j] == 'e' || sql[j] == 'E' || sql[j] == 'x' || sql[j] == 'X' ||
				(sql[j] >= 'a' && sql[j] <= 'f') || (sql[j] >= 'A' && sql[j] <= 'F') ||
				((sql[j] == '+' || sql[j] == '-') && j > i && (sql[j-1] == 'e' || sql[j-1] == 'E'))) {
				j++
			}
			// A number glued to letters (1union) is how filters get evaded.
			if j < n {
				if r2, _ := utf8.DecodeRuneInString(sql[j:]); isIdentStart(r2) {
					return nil, refuse(i, "a number is directly followed by letters near %q", snippet(sql, i))
				}
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
		case c == '?' || (c == ':' || c == '@') && i+1 < n && isIdentStart(rune(sql[i+1])):
			j := i + 1
			for j < n && isIdentPart(rune(sql[j]), d) {
				j++
			}
			out = append(out, Token{Kind: Param, Text: sql[i:j], Pos: i})
			i = j
		case c == '@' && d == MySQL && i+1 < n && sql[i+1] == '@':
			j := i + 2
			for j < n && (isIdentPart(rune(sql[j]), d) || sql[j] == '.') {
				j++
			}
			out = append(out, Token{Kind: Param, Text: sql[i:j], Pos: i})
			i = j
		default:
			out = append(out, Token{Kind: Punct, Text: string(r), Pos: i})
			i += size
		}
	}
	return out, nil
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
