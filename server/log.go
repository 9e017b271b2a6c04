package server

import (
	"log"
	"strings"

	"github.com/rs/zerolog"
)

type zlWriter struct{ l zerolog.Logger }

func (w zlWriter) Write(p []byte) (int, error) {
	w.l.Warn().Str("component", "mcp").Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}

// stdLogger routes mcp-go's standard logger into zerolog, away from stdout.
func stdLogger(l zerolog.Logger) *log.Logger { return log.New(zlWriter{l}, "", 0) }
