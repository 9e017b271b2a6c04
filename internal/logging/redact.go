package logging

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// mask replaces every redacted value.
const mask = "***"

// Audit lines keep at most auditChars bytes of a string value; redaction
// looks at no more than scanChars of it (patterns that could run past the
// scan window, such as a PEM block or a quoted value, mask to its end).
const (
	auditChars = 200
	scanChars  = 16 << 10
)

var secretKey = regexp.MustCompile(`(?i)(pass(word)?|secret|token|api_?key|auth|credential|private|cookie|session_?key|dsn)`)

// SecretName reports whether a field or variable name suggests a secret.
// It is deliberately broad (it matches "author" too): for field names a
// masked harmless value costs less than a leaked secret.
// The verdict is remembered for short names (the same argument names come
// with every call, and the regex and word split cost ~1.5 µs a name); the
// memo is bounded, since the names come from clients.
func SecretName(name string) bool {
	if len(name) > memoNameLen {
		return secretName(name)
	}
	if v, ok := secretNames.Load(name); ok {
		return v.(bool)
	}
	secret := secretName(name)
	if secretNamesLen.Load() < memoNames {
		if _, loaded := secretNames.LoadOrStore(name, secret); !loaded {
			secretNamesLen.Add(1)
		}
	}
	return secret
}

func secretName(name string) bool { return secretKey.MatchString(name) || secretWord(name) }

// SecretName's memo: at most memoNames names of at most memoNameLen bytes.
const (
	memoNames   = 4096
	memoNameLen = 64
)

var (
	secretNames    sync.Map // name -> bool
	secretNamesLen atomic.Int64
)

// secretWords are the words that, alone in a name split at -, _, ., space
// and camelCase, mark the name's value as a secret.
var secretWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true,
	"secret": true, "token": true, "auth": true, "authorization": true,
	"credential": true, "credentials": true, "cookie": true, "apikey": true,
	"privatekey": true, "accesskey": true, "key": true, "sig": true, "signature": true,
}

// secretInWord: substrings that mark a name however it is joined
// (PGPASSWORD, authtoken, dbpasswd).
var secretInWord = []string{"password", "passwd", "token", "secret", "apikey", "credential"}

// secretWord reports whether a name (a flag, a key=value key, a header)
// names a secret, judged word by word so that --passive or --keyboard do
// not count while --db-pass, X-Api-Key and accessToken do.
func secretWord(name string) bool {
	name = strings.TrimLeft(name, "-")
	if name == "" {
		return false
	}
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case r == '-' || r == '_' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	for i, w := range words {
		if secretWords[w] {
			return true
		}
		if i > 0 && w == "key" {
			switch words[i-1] {
			case "api", "access", "private", "secret", "session", "signing", "encryption", "master":
				return true
			}
		}
		if strings.HasSuffix(w, "tokens") { // max_tokens: a count, not a credential
			continue
		}
		for _, s := range secretInWord {
			if strings.Contains(w, s) {
				return true
			}
		}
	}
	return false
}

// Value patterns, applied in order by RedactString.
var (
	// A PEM private key, to its END line or, cut off, to the end.
	pemKey = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)`)
	// Known key formats: OpenAI/Anthropic, GitHub, GitLab, Slack, AWS,
	// Google, Stripe, Hugging Face, npm, JWTs.
	knownKey = regexp.MustCompile(`\b(sk-(ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{8,}|(AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|[sr]k_(live|test)_[0-9A-Za-z]{16,}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+)`)
	// scheme://user:password@host — the password may hold ':' '/' or '@'
	// (the last '@' before white space ends it).
	urlUserinfo = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://[^\s:/@]*:)(\S*)@`)
	// go-sql-driver/mysql DSNs: user:password@tcp(host:3306)/db.
	mysqlDSN = regexp.MustCompile(`(?i)([^\s:/@()"']+:)([^\s]*)@(tcp6?|udp|unix)\(`)
	// Authorization / Proxy-Authorization header values, scheme kept.
	authHeader = regexp.MustCompile(`(?i)\b((?:proxy-)?authorization"?\s*[:=]\s*"?)([A-Za-z0-9-]+\s+)?([^\s"',;]+)`)
	// Cookie headers: every cookie is a credential.
	cookieHeader = regexp.MustCompile(`(?i)\b((?:set-)?cookie"?\s*[:=]\s*"?)([^\r\n"']+)`)
	// A bearer token anywhere.
	bearerToken = regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]+)`)
	// --flag=value or --flag value inside a string (command lines).
	flagValue = regexp.MustCompile(`(^|[\s"'(])(--?[A-Za-z][A-Za-z0-9_-]+)(=|\s+)("[^"]*"?|'[^']*'?|[^\s"'-][^\s"']*)`)
	// name=value / name: value / "name": "value" (query strings, key/value
	// DSNs, env assignments, JSON or YAML in a string).
	nameValue = regexp.MustCompile(`(^|[^A-Za-z0-9_.-])("?)([A-Za-z][A-Za-z0-9_.-]*)("?\s*[=:]\s*)("[^"]*"?|'[^']*'?|[^\s&;,'"}\])/][^\s&;,'"}\])]*)`)
	// curl -u user:password / --user user:password.
	userFlag = regexp.MustCompile(`(^|\s)(-u|--user|--proxy-user)(=|\s+)([^\s:]+:)(\S+)`)
)

// RedactString masks credentials that appear inside a value: key formats,
// URL and DSN passwords, Authorization and Cookie values, bearer tokens,
// secret-named flags (--password=x, --token x) and name=value pairs
// (token=x, password=x, api_key=x). It works on whole runes and never cuts
// a UTF-8 character.
func RedactString(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	return redactPatterns(s)
}

// redactPatterns applies every value pattern.
func redactPatterns(s string) string {
	s = pemKey.ReplaceAllString(s, mask)
	s = knownKey.ReplaceAllString(s, mask)
	s = urlUserinfo.ReplaceAllString(s, "${1}"+mask+"@")
	s = mysqlDSN.ReplaceAllString(s, "${1}"+mask+"@${3}(")
	s = authHeader.ReplaceAllString(s, "${1}${2}"+mask)
	s = cookieHeader.ReplaceAllString(s, "${1}"+mask)
	s = bearerToken.ReplaceAllString(s, "${1}"+mask)
	s = userFlag.ReplaceAllString(s, "${1}${2}${3}${4}"+mask)
	s = replaceNamed(s, flagValue, 2, 4)
	s = replaceNamed(s, nameValue, 3, 5)
	return s
}

// mayHoldSecret reports whether any pattern of RedactString could match s.
// Every pattern needs one of - : = _ or white space, except three key
// formats, which need their own prefix (AKIA/ASIA, AIza, a JWT's eyJ): a
// plain path or word skips the regular expressions, with the same result.
func mayHoldSecret(s string) bool {
	return strings.ContainsAny(s, "-:=_ \t\n\r\f\v") || strings.Contains(s, "AKIA") || strings.Contains(s, "ASIA") ||
		strings.Contains(s, "AIza") || strings.Contains(s, "eyJ")
}

// headerName: names whose values authHeader and cookieHeader have masked
// already (keeping the scheme, which replaceNamed would mask again).
var headerName = map[string]bool{"authorization": true, "proxy-authorization": true, "cookie": true, "set-cookie": true}

// replaceNamed masks group val of every match of re whose group name is a
// secret name. Matches are found again after each replacement so that
// adjacent pairs (a=1&token=x) are all seen.
func replaceNamed(s string, re *regexp.Regexp, name, val int) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		ns, ne, vs, ve := m[2*name], m[2*name+1], m[2*val], m[2*val+1]
		if ns < 0 || vs < 0 || !secretWord(s[ns:ne]) || s[vs:ve] == mask || headerName[strings.ToLower(s[ns:ne])] {
			continue
		}
		v := s[vs:ve]
		q := ""
		if v[0] == '"' || v[0] == '\'' {
			q = v[:1]
		}
		b.WriteString(s[last:vs])
		b.WriteString(q + mask + q)
		last = ve
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// RedactArgv masks the secrets in an argument vector: the value after a
// secret-named flag (--token abc), --password=abc, name=value pairs and
// credentials inside any argument.
func RedactArgv(argv []string) []string {
	out := make([]string, len(argv))
	maskNext := false
	for i, a := range argv {
		if maskNext && !strings.HasPrefix(a, "-") {
			out[i], maskNext = mask, false
			continue
		}
		maskNext = false
		if isFlag(a) && !strings.Contains(a, "=") && (secretWord(a) || a == "-u" || a == "--user") {
			maskNext = true
		}
		out[i] = RedactString(a)
	}
	return out
}

func isFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--"
}

// Redact returns a copy of v with secret-named fields masked, secrets inside
// values masked and long strings cut (at a rune boundary), for audit lines.
// Lists are treated as argument vectors: the element after a secret-named
// flag is masked.
func Redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if SecretName(k) {
				out[k] = mask
				continue
			}
			out[k] = Redact(val)
		}
		return out
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[k] = val
		}
		return Redact(m)
	case []any:
		out := make([]any, len(x))
		maskNext := false
		for i, val := range x {
			str, isStr := val.(string)
			if maskNext && isStr && !strings.HasPrefix(str, "-") {
				out[i], maskNext = mask, false
				continue
			}
			maskNext = isStr && isFlag(str) && !strings.Contains(str, "=") && (secretWord(str) || str == "-u" || str == "--user")
			out[i] = Redact(val)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = val
		}
		return Redact(out)
	case string:
		return Truncate(RedactString(Truncate(x, scanChars)), auditChars)
	}
	return v
}

// Truncate cuts s to at most n bytes on a rune boundary and marks the cut
// with "…". Invalid UTF-8 in the kept part is replaced, so the result is
// always valid UTF-8.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "\uFFFD") + "…"
}
