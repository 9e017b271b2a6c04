// Package logging sets up zerolog and redacts secrets from what is logged.
// Logs go to stderr or a file, never stdout: under stdio, stdout carries
// JSON-RPC only. Redaction (redact.go) is pattern-based: it masks what looks
// like a credential; it cannot know that an arbitrary word is a password.
package logging

import (
	"io"
	"os"

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
