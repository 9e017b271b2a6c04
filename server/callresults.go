package server

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Call results for the dashboard: the text a call's answer gave the model
// (after shaping and the result cap), one trace_results row per trace id,
// queued on its own appender like the trace row, so the call never waits
// for the store. The row holds the text cut a little past what the page
// shows; it is redacted like a log line when the page reads it, not when
// it is written: redaction costs ~0.5 µs a character, and most results are
// never looked at. A tool that takes private content (any Private
// parameter: a diary, mail) keeps only the length of its answer, since its
// answers show that content too.

// keptResultChars bounds a stored result: enough to see what the model
// got, not a copy of every page it read.
const keptResultChars = 4000

// redactMargin is how far past the cut redaction reads.
const redactMargin = 256

const resultInsert = `INSERT INTO trace_results(trace_id, result, chars, at) VALUES ($1,$2,$3,$4) ON CONFLICT (trace_id) DO NOTHING`

// resultStep is the traces component's version 2: the results table, at in
// Unix milliseconds.
var resultStep = store.Migration{Version: 2, Stmts: []string{`CREATE TABLE IF NOT EXISTS trace_results (
	trace_id TEXT PRIMARY KEY, result TEXT NOT NULL, chars BIGINT NOT NULL, at BIGINT NOT NULL)`}}

// keepResult queues res as trace traceID's result; t is the called tool
// (nil for the meta tools, which take no private content). Only the text
// parts are taken here; they are joined and cut when the appender writes
// the row (keptResult is a driver.Valuer), off the call path.
func (s *Server) keepResult(traceID string, t *tool.Tool, res *mcp.CallToolResult) {
	if res == nil || s.resultLog == nil {
		return
	}
	parts := make([]string, 0, len(res.Content))
	chars := 0
	for _, c := range res.Content {
		var p string
		switch c := c.(type) {
		case mcp.TextContent:
			p = c.Text
		case mcp.ResourceLink:
			p = "[link: " + c.URI + "]"
		case mcp.ImageContent:
			p = "[image: " + c.MIMEType + "]"
		default:
			p = "[other content]"
		}
		parts = append(parts, p)
		chars += utf8.RuneCountInString(p) + 1
	}
	s.resultLog.Add(traceID, keptResult{t, parts}, max(chars-1, 0), time.Now().UnixMilli())
}

// keptResult is a result row's text as the call left it.
type keptResult struct {
	tool  *tool.Tool
	parts []string
}

func (k keptResult) Value() (driver.Value, error) { return storedText(k.tool, k.parts), nil }

// storedText is what the row holds for a result of t made of parts: their
// text, one part a line, cut redactMargin past what the page shows, so that
// redaction at read time masks a key or a name=value pair that straddles
// the cut whole (a PEM key is masked to the end of the text).
func storedText(t *tool.Tool, parts []string) string {
	text := strings.Join(parts, "\n")
	if takesPrivate(t) {
		return fmt.Sprintf("[withheld: %s takes private content; %s]", t.Name, wording.Count(utf8.RuneCountInString(text), "character", "characters"))
	}
	return cutRunes(text, keptResultChars+redactMargin)
}

// shownText is a stored result as the page shows it: redacted, then cut to
// keptResultChars with a note of the result's whole length (chars).
func shownText(stored string, chars int) string {
	text := logging.RedactString(stored)
	if utf8.RuneCountInString(text) > keptResultChars || chars > keptResultChars+redactMargin {
		text = cutRunes(text, keptResultChars) + fmt.Sprintf("\n…[cut for the dashboard: %s in all]", wording.Count(chars, "character", "characters"))
	}
	return text
}

// takesPrivate reports whether any action of t has a Private parameter.
func takesPrivate(t *tool.Tool) bool {
	if t == nil {
		return false
	}
	for _, a := range t.Actions {
		for _, p := range a.Params {
			if p.Private {
				return true
			}
		}
	}
	return false
}
