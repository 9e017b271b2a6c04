package notify

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// An endpoint may echo what it was sent — the URL with its token, a header,
// the bearer token — whole, URL-encoded or cut, in an error or in a 2xx
// answer. So every text that comes back from a send, and every message made
// from a secret, passes the target's redactor before it reaches a result, a
// log line or the idempotency store.

// minPiece is the shortest part of a secret that is redacted on its own:
// shorter runs match ordinary text too often to mean anything.
const minPiece = 8

// plainWord is a URL path segment or query value that is a word
// ("services", "open-apis", "json"), not a token.
var plainWord = regexp.MustCompile(`^[a-z]+([-_.][a-z]+)*$`)

// redactor holds one target's secrets.
type redactor struct {
	whole  []string // redacted where they occur whole: a URL
	pieces []string // redacted whole and every part of minPiece bytes or more
}

// addURL adds a URL that carries a credential: the URL whole, and its user
// info, path segments and query values that are not plain words.
func (rd *redactor) addURL(raw string) {
	rd.add(&rd.whole, raw)
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if u.User != nil {
		rd.add(&rd.pieces, u.User.Username())
		p, _ := u.User.Password()
		rd.add(&rd.pieces, p)
	}
	vals := strings.Split(u.Path, "/")
	for _, vs := range u.Query() {
		vals = append(vals, vs...)
	}
	vals = append(vals, u.Fragment)
	for _, v := range vals {
		if !plainWord.MatchString(v) {
			rd.add(&rd.pieces, v)
		}
	}
}

// addValue adds a secret or a secret header's value; of "Basic <base64>"
// also what it decodes to, user and password.
func (rd *redactor) addValue(v string) {
	rd.add(&rd.pieces, v)
	scheme, cred, ok := strings.Cut(v, " ")
	if !ok {
		return
	}
	rd.add(&rd.pieces, cred)
	if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred)); err == nil && strings.EqualFold(scheme, "Basic") {
		user, pass, _ := strings.Cut(string(dec), ":")
		rd.add(&rd.pieces, string(dec))
		rd.add(&rd.pieces, user)
		rd.add(&rd.pieces, pass)
	}
}

// add keeps s and its URL-escaped forms; a secret under 4 bytes is none.
func (rd *redactor) add(list *[]string, s string) {
	if len(s) < 4 {
		return
	}
	*list = append(*list, s, url.QueryEscape(s), url.PathEscape(s))
}

// scrub replaces every run of s that is a secret, or a piece of one at
// least minPiece bytes long, with "[redacted]".
func (rd *redactor) scrub(s string) string {
	if rd == nil || s == "" {
		return s
	}
	hidden := make([]bool, len(s))
	mark := func(sub string) {
		for i := 0; ; {
			j := strings.Index(s[i:], sub)
			if j < 0 {
				return
			}
			for k := i + j; k < i+j+len(sub); k++ {
				hidden[k] = true
			}
			i += j + 1
		}
	}
	for _, w := range rd.whole {
		mark(w)
	}
	for _, p := range rd.pieces {
		if len(p) < minPiece {
			mark(p)
			continue
		}
		// Every window of minPiece bytes: together they cover any part of
		// p of that length or more that s holds.
		for i := 0; i+minPiece <= len(p); i++ {
			mark(p[i : i+minPiece])
		}
	}
	var b strings.Builder
	in := false
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		// A character is hidden when any of its bytes is.
		h := false
		for _, x := range hidden[i : i+size] {
			h = h || x
		}
		switch {
		case h && !in:
			b.WriteString("[redacted]")
		case !h:
			b.WriteString(s[i : i+size])
		}
		in, i = h, i+size
	}
	return b.String()
}
