package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// ServeStdio serves one client over stdin/stdout until stdin ends or ctx is
// cancelled (SIGTERM, SIGINT). Nothing but JSON-RPC is written to out; logs
// go to the logger. A line longer than http.max_body_bytes is answered with
// a JSON-RPC error and skipped without being held in memory. On shutdown no
// new request is taken, requests in flight get up to shutdown_grace to be
// answered, then what is left is cancelled. Stdin's end is handled the same
// way, so `echo request | clawbridge` gets its answer.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s.stdioKey = randomKey("stdio:")
	defer s.startLoops(ctx)() // the scheduler; stopped once calls are done
	std := mcpserver.NewStdioServer(s.mcp)
	std.SetErrorLogger(stdLogger(s.log))
	w := &stdioWriter{w: out, pending: map[string]bool{}}
	lines := &stdioLines{max: int(s.cfg.HTTP.MaxBodyBytes), out: w, log: s.log}
	pr, pw := io.Pipe()
	inputEnded := make(chan struct{})
	go func() {
		if err := lines.pump(in, pw); err != nil {
			s.log.Warn().Err(err).Msg("stdin read failed")
		}
		close(inputEnded)
	}()
	// mcp-go cancels every call once its input ends, so it gets its own
	// context and sees EOF only after the grace period.
	listenCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- std.Listen(listenCtx, pr, w) }()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
		s.log.Info().Msg("signal received: finishing calls in flight")
	case <-inputEnded:
	}
	lines.stop()
	grace, cancelGrace := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancelGrace()
	if n := w.wait(grace); n > 0 {
		s.log.Warn().Int("requests", n).Dur("grace", s.cfg.ShutdownGrace).Msg("shutdown grace expired: cancelling requests in flight")
	}
	pw.Close()
	select {
	case <-served:
	case <-time.After(2 * time.Second): // a handler that ignores cancellation
		s.log.Warn().Msg("a request did not stop after cancellation")
	}
	return nil
}

// stdioWriter serialises writes to stdout (each mcp-go message is one Write)
// and tracks the client requests not yet answered.
type stdioWriter struct {
	mu         sync.Mutex
	w          io.Writer
	pending    map[string]bool // ids of requests read and not yet answered
	unanswered inFlight        // counts pending, for wait
}

func (sw *stdioWriter) Write(p []byte) (int, error) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	answered := ""
	if json.Unmarshal(p, &msg) == nil && msg.Method == "" && len(msg.ID) > 0 {
		answered = string(msg.ID)
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	n, err := sw.w.Write(p)
	if answered != "" && sw.pending[answered] {
		delete(sw.pending, answered)
		sw.unanswered.done()
	}
	return n, err
}

func (sw *stdioWriter) started(id string) {
	sw.mu.Lock()
	if !sw.pending[id] {
		sw.pending[id] = true
		sw.unanswered.start()
	}
	sw.mu.Unlock()
}

// wait blocks until every request read has been answered or ctx ends, and
// returns how many are still unanswered.
func (sw *stdioWriter) wait(ctx context.Context) int {
	return sw.unanswered.wait(ctx)
}

// answer writes a JSON-RPC error for request id (nil when unknown).
func (sw *stdioWriter) answer(id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	sw.Write(append(b, '\n'))
}

// stdioLines copies stdin to mcp-go line by line, holding at most max bytes
// of a line: a longer one is answered with an error and its rest skipped.
type stdioLines struct {
	max int
	out *stdioWriter
	log zerolog.Logger

	mu       sync.Mutex
	stopping bool
}

func (l *stdioLines) stop() {
	l.mu.Lock()
	l.stopping = true
	l.mu.Unlock()
}

func (l *stdioLines) pump(in io.Reader, to *io.PipeWriter) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > l.max {
			l.tooLarge(append(line, chunk...))
			line = line[:0]
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				_, err = r.ReadSlice('\n')
			}
		} else {
			line = append(line, chunk...)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if werr := l.forward(line, to); werr != nil {
					return nil // mcp-go has stopped reading: shutting down
				}
			}
			line = line[:0]
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			return err
		}
	}
}

// forward passes one line on, noting a request's id so that shutdown can
// wait for its answer; once stopping, a request is refused instead.
func (l *stdioLines) forward(line []byte, to *io.PipeWriter) error {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	isRequest := json.Unmarshal(line, &msg) == nil && msg.Method != "" && len(msg.ID) > 0 && string(msg.ID) != "null"
	l.mu.Lock()
	stopping := l.stopping
	l.mu.Unlock()
	if stopping {
		if isRequest {
			l.out.answer(msg.ID, mcp.INTERNAL_ERROR, "server is shutting down: request not taken; reconnect and retry")
		}
		return nil
	}
	if isRequest {
		l.out.started(string(msg.ID))
	}
	if line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	_, err := to.Write(line)
	return err
}

// tooLarge answers an oversized line, with its id when the line starts with
// one at the top level.
func (l *stdioLines) tooLarge(head []byte) {
	id := topLevelID(head[:min(len(head), 64<<10)])
	l.log.Warn().Int("limit", l.max).RawJSON("id", nonEmptyJSON(id)).Msg("stdio request over the size limit dropped")
	l.out.answer(id, mcp.INVALID_REQUEST, fmt.Sprintf("request too large: over the limit of %d bytes (http.max_body_bytes); pass large content as a file in the workspace", l.max))
}

// topLevelID finds the "id" member of the JSON object that head begins,
// reading tokens so that an "id" nested in params is never taken.
func topLevelID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		var v json.RawMessage
		if key == "id" {
			if dec.Decode(&v) != nil {
				return nil
			}
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
				return v
			}
			return nil
		}
		if dec.Decode(&v) != nil { // the value runs past head
			return nil
		}
	}
	return nil
}

func nonEmptyJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}
