package server

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"clawbridge/internal/logging"
	"clawbridge/internal/store"
	"clawbridge/internal/wording"
	"clawbridge/tools/tool"
)

// Call results for the dashboard: the text a call's answer gave the model
// (after shaping and the result cap), one trace_results row per trace id,
// queued on its own appender like the trace row, so the call never waits
// for the store. The text is redacted like a log line and capped; a tool
// that takes private content (any Private parameter: a diary, mail) keeps
// only the length of its answer, since its answers show that content too.

// keptResultChars bounds a stored result: enough to see what the model
// got, not a copy of every page it read.
const keptResultChars = 4000

// redactMargin is how far past the cut redaction reads.
const redactMargin = 256

const resultInsert = `INSERT INTO trace_results(trace_id, result, at) VALUES ($1,$2,$3) ON CONFLICT (trace_id) DO NOTHING`

// resultStep is the traces component's version 2: the results table, at in
// Unix milliseconds.
var resultStep = store.Migration{Version: 2, Stmts: []string{`CREATE TABLE IF NOT EXISTS trace_results (
	trace_id TEXT PRIMARY KEY, result TEXT NOT NULL, at BIGINT NOT NULL)`}}

// keepResult queues res as trace traceID's result; t is the called tool
// (nil for the meta tools, which take no private content). Only the text
// parts are taken here; redaction and the cut run when the appender writes
// the row (keptResult is a driver.Valuer), off the call path.
func (s *Server) keepResult(traceID string, t *tool.Tool, res *mcp.CallToolResult) {
	if res == nil || s.resultLog == nil {
		return
	}
	parts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			parts = append(parts, c.Text)
		case mcp.ResourceLink:
			parts = append(parts, "[link: "+c.URI+"]")
		case mcp.ImageContent:
			parts = append(parts, "[image: "+c.MIMEType+"]")
		default:
			parts = append(parts, "[other content]")
		}
	}
	s.resultLog.Add(traceID, keptResult{t, parts}, time.Now().UnixMilli())
}

// keptResult is a result row's text before redaction.
type keptResult struct {
	tool  *tool.Tool
	parts []string
}

func (k keptResult) Value() (driver.Value, error) { return keptText(k.tool, k.parts), nil }

// keptText is what is stored for a result of t made of parts: their text,
// one part a line, redacted, then capped with a note of the cut.
func keptText(t *tool.Tool, parts []string) string {
	text := strings.Join(parts, "\n")
	if takesPrivate(t) {
		return fmt.Sprintf("[withheld: %s takes private content; %s]", t.Name, wording.Count(utf8.RuneCountInString(text), "character", "characters"))
	}
	// Redaction sees a margin past the cut, so a key or a name=value pair
	// that straddles it is masked whole (a PEM key is masked to the end of
	// the text). It is slow (regular expressions, ~0.5 µs a character), so
	// it sees no more than that, whatever the result's size.
	n := utf8.RuneCountInString(text)
	text = logging.RedactString(cutRunes(text, keptResultChars+redactMargin))
	if m := utf8.RuneCountInString(text); m > keptResultChars || n > keptResultChars+redactMargin {
		text = cutRunes(text, keptResultChars) + fmt.Sprintf("\n…[cut for the dashboard: %s in all]", wording.Count(n, "character", "characters"))
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
