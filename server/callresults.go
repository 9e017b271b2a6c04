package server

import (
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

const resultInsert = `INSERT INTO trace_results(trace_id, result, at) VALUES ($1,$2,$3) ON CONFLICT (trace_id) DO NOTHING`

// resultStep is the traces component's version 2: the results table, at in
// Unix milliseconds.
var resultStep = store.Migration{Version: 2, Stmts: []string{`CREATE TABLE IF NOT EXISTS trace_results (
	trace_id TEXT PRIMARY KEY, result TEXT NOT NULL, at BIGINT NOT NULL)`}}

// keepResult queues res as trace traceID's result; t is the called tool
// (nil for the meta tools, which take no private content).
func (s *Server) keepResult(traceID string, t *tool.Tool, res *mcp.CallToolResult) {
	if res == nil || s.resultLog == nil {
		return
	}
	s.resultLog.Add(traceID, keptText(t, res), time.Now().UnixMilli())
}

// keptText is what is stored for res: its text content, a line per
// link or image, redacted, then capped with a note of the cut.
func keptText(t *tool.Tool, res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch c := c.(type) {
		case mcp.TextContent:
			b.WriteString(c.Text)
		case mcp.ResourceLink:
			b.WriteString("[link: " + c.URI + "]")
		case mcp.ImageContent:
			b.WriteString("[image: " + c.MIMEType + "]")
		default:
			b.WriteString("[other content]")
		}
	}
	text := b.String()
	if takesPrivate(t) {
		return fmt.Sprintf("[withheld: %s takes private content; %s]", t.Name, wording.Count(utf8.RuneCountInString(text), "character", "characters"))
	}
	text = logging.RedactString(text)
	if n := utf8.RuneCountInString(text); n > keptResultChars {
		text = cutRunes(text, keptResultChars) + fmt.Sprintf("\n…[cut for the dashboard: %s more]", wording.Count(n-keptResultChars, "character", "characters"))
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
