package table

import (
	"strconv"
	"strings"
	"unicode"
)

// reserved are SQL words that would break unquoted use in a user's query.
var reserved = map[string]bool{
	"select": true, "from": true, "where": true, "group": true, "order": true, "by": true,
	"table": true, "index": true, "limit": true, "offset": true, "join": true, "on": true,
	"as": true, "and": true, "or": true, "not": true, "null": true, "case": true, "when": true,
	"then": true, "else": true, "end": true, "in": true, "is": true, "like": true, "having": true,
	"union": true, "values": true, "default": true, "check": true, "primary": true, "key": true,
	"desc": true, "asc": true, "distinct": true, "all": true, "into": true, "create": true,
	"drop": true, "insert": true, "update": true, "delete": true, "with": true, "date": false,
}

// SanitizeIdent turns a header or file name into a plain SQL identifier:
// letters (any script), digits and underscores, not starting with a digit,
// never a reserved word. It may return "" for a name with no usable letters.
func SanitizeIdent(s string) string {
	var b strings.Builder
	lastUnderscore := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			lastUnderscore = false
		} else if !lastUnderscore {
			b.WriteByte('_')
			lastUnderscore = true
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return ""
	}
	if r := []rune(out)[0]; unicode.IsDigit(r) {
		out = "c_" + out
	}
	if reserved[strings.ToLower(out)] {
		out += "_"
	}
	if len(out) > 60 {
		out = out[:60]
		for !utf8ValidEnd(out) {
			out = out[:len(out)-1]
		}
	}
	return out
}

func utf8ValidEnd(s string) bool {
	if s == "" {
		return true
	}
	r := []rune(s)
	return r[len(r)-1] != unicode.ReplacementChar
}

// UniqueNames sanitises a header row into unique identifiers; empty names
// become col_N (1-based position) and repeats get _2, _3...
func UniqueNames(header []string) []string {
	out := make([]string, len(header))
	seen := map[string]int{}
	for i, h := range header {
		n := SanitizeIdent(h)
		if n == "" {
			n = "col_" + strconv.Itoa(i+1)
		}
		base := n
		for k := 2; seen[strings.ToLower(n)] > 0; k++ {
			n = base + "_" + strconv.Itoa(k)
		}
		seen[strings.ToLower(n)]++
		out[i] = n
	}
	return out
}

// Quote quotes an identifier for SQLite.
func Quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
