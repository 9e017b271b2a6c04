package server

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// redactArgs is args for the audit: redacted, without the confirm token.
// Redact returns a new map, so the token is deleted from that copy.
func redactArgs(args map[string]any) map[string]any {
	out := logging.Redact(args).(map[string]any)
	delete(out, confirmParam)
	return out
}

// withholdPrivate replaces the values of t's Private parameters (message
// bodies) by their length, so the audit and the traces never hold them.
func withholdPrivate(t *tool.Tool, args map[string]any) map[string]any {
	return withheld(privateNames(t), args)
}

// withhold is withholdPrivate with a native tool's Private parameters
// found once, at New, instead of on every call.
func (s *Server) withhold(t *tool.Tool, args map[string]any) map[string]any {
	names, known := s.private[t]
	if !known {
		names = privateNames(t)
	}
	return withheld(names, args)
}

// privateNames are the names of t's Private parameters, of every action:
// the audit records the arguments of a refused call too.
func privateNames(t *tool.Tool) []string {
	if t == nil {
		return nil
	}
	var names []string
	for _, a := range t.Actions {
		for _, p := range a.Params {
			if p.Private && !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// withheld is args with the values of the named parameters replaced by
// their length; args itself when it holds none of them.
func withheld(names []string, args map[string]any) map[string]any {
	var out map[string]any
	for _, n := range names {
		v, ok := args[n]
		if !ok {
			continue
		}
		if out == nil {
			out = maps.Clone(args)
		}
		s, _ := v.(string)
		out[n] = fmt.Sprintf("[withheld: %d chars]", utf8.RuneCountInString(s))
	}
	if out == nil {
		return args
	}
	return out
}

// audit writes one JSON line per call through zerolog and queues a trace
// row for the store's trace appender, which commits rows in groups off the
// call path (the call never waits for the disk). Arguments are redacted:
// secret-named fields and credentials inside values never reach the log.
func (s *Server) audit(traceID string, sess *session, name, action string, args map[string]any, status string, failure *tool.Error, d time.Duration) {
	// The redacted arguments are marshalled once, for the log line and the
	// trace row alike.
	b, _ := json.Marshal(redactArgs(args))
	if ev := s.log.Info(); ev != nil { // nil: the level drops audit lines
		ev = ev.Str("kind", "audit").Str("trace_id", traceID).Str("session", sess.key).
			Str("client", sess.client).Str("tool", name).Str("action", action).
			RawJSON("args", b).Str("status", status).Dur("duration", d)
		if failure != nil {
			ev = ev.Str("error_code", failure.Code).Str("error", logging.RedactString(failure.Message))
		}
		ev.Msg("call")
	}
	code := ""
	if failure != nil {
		code = failure.Code
	}
	s.called(name, action, status, d)
	s.traceLog.Add(traceID, rfc3339(time.Now()), sess.key, sess.client, name, action, string(b), status, code, d.Milliseconds())
}

// audited runs a call the pipeline does not (the meta tools' own work)
// and audits it like one. f returns nil when the call goes on to the
// pipeline, which then audits it; nothing is written for it here.
func (s *Server) audited(sess *session, name string, args map[string]any, f func(traceID string) *mcp.CallToolResult) *mcp.CallToolResult {
	traceID, start := newTraceID(), time.Now()
	res := f(traceID)
	if res == nil {
		return nil
	}
	status := "ok"
	var failure *tool.Error
	if res.IsError {
		status = "error"
		if sc, ok := res.StructuredContent.(map[string]any); ok {
			failure, _ = sc["error"].(*tool.Error)
		}
	}
	s.audit(traceID, sess, name, "", args, status, failure, time.Since(start))
	s.keepResult(traceID, nil, res)
	return res
}

// rfc3339 is a trace row's time, formatted as RFC 3339 UTC text when the
// appender writes the row, off the call path.
type rfc3339 time.Time

func (t rfc3339) Value() (driver.Value, error) {
	return time.Time(t).UTC().Format(time.RFC3339Nano), nil
}

const traceInsert = `INSERT INTO traces(trace_id, at, session, client, tool, action, args, status, error_code, duration_ms) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`

// traceSteps: at is RFC 3339 UTC text, which sorts as time on both engines.
var traceSteps = []store.Migration{{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS traces (
	trace_id TEXT PRIMARY KEY, at TEXT NOT NULL, session TEXT, client TEXT, tool TEXT,
	action TEXT, args TEXT, status TEXT, error_code TEXT, duration_ms BIGINT)`}}, resultStep}

// traceRetention bounds the trace table: traces are for debugging recent
// sessions, not an archive (the audit log lines are the record).
const traceRetention = 30 * 24 * time.Hour

// pruneTraces deletes the traces, and their kept results, older than
// traceRetention.
func pruneTraces(st *store.Store, log zerolog.Logger) {
	cut := time.Now().Add(-traceRetention)
	if _, err := st.DB().Exec(`DELETE FROM traces WHERE at < $1`, cut.UTC().Format(time.RFC3339Nano)); err != nil {
		log.Warn().Err(err).Msg("old traces not pruned")
	}
	if _, err := st.DB().Exec(`DELETE FROM trace_results WHERE at < $1`, cut.UnixMilli()); err != nil {
		log.Warn().Err(err).Msg("old call results not pruned")
	}
}
