// Package logging sets up zerolog. Logs go to stderr or a file, never stdout:
// under stdio, stdout carries JSON-RPC only.
package logging

import (
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/rs/zerolog"
)

// New returns a logger writing JSON lines to file (or stderr when empty).
func New(file, level string) (zerolog.Logger, io.Closer, error) {
	var w io.Writer = os.Stderr
	var closer io.Closer = io.NopCloser(nil)
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return zerolog.Nop(), nil, err
		}
		w, closer = f, f
	}
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), closer, nil
}

var secretKey = regexp.MustCompile(`(?i)(pass(word)?|secret|token|api_?key|auth|credential|private|cookie|session_?key|dsn)`)

// SecretName reports whether a field or variable name suggests a secret.
func SecretName(name string) bool { return secretKey.MatchString(name) }

var secretValue = regexp.MustCompile(`(?i)(bearer\s+[a-z0-9._~+/=-]+|://[^:/@\s]+:[^@\s]+@|sk-[a-z0-9_-]{16,}|gh[pousr]_[a-z0-9]{20,}|xox[baprs]-[a-z0-9-]+|AKIA[0-9A-Z]{16})`)

// RedactString masks credentials that appear inside a value.
func RedactString(s string) string {
	return secretValue.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "://") {
			return "://***@"
		}
		return "***"
	})
}

// Redact returns a copy of v with secret-named fields masked and long
// strings cut, for audit lines.
func Redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if SecretName(k) {
				out[k] = "***"
				continue
			}
			out[k] = Redact(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = Redact(val)
		}
		return out
	case string:
		s := RedactString(x)
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return s
	}
	return v
}
