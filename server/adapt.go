package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// confirmParam is added to the schema of tools with high actions: the token
// policy's second call carries it.
const confirmParam = "confirm_token"

// mcpTool adapts a registry entry to the MCP tool it is published as.
func mcpTool(t *tool.Tool) mcp.Tool {
	schema := t.InputSchema()
	if t.MaxLevel() == tool.High {
		props := schema["properties"].(map[string]any)
		props[confirmParam] = map[string]any{
			"type":        "string",
			"description": "From the confirmation preview.",
		}
	}
	raw, _ := json.Marshal(schema)
	title := t.Title
	if title == t.Name {
		title = "" // clients fall back to the name
	}
	return mcp.Tool{
		Name:           t.Name,
		Title:          title,
		Description:    t.Description,
		RawInputSchema: raw,
		Annotations:    annotations(t.Annotations()),
	}
}

// annotations publishes only the hints that differ from the protocol's
// defaults (ToolAnnotations: readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true); an absent hint means its
// default to every client. destructiveHint and idempotentHint mean
// something only when readOnlyHint is false, so a read-only tool carries
// neither. The title is Tool.title, which every protocol version this
// server speaks (2025-06-18 on) has, so the annotation does not repeat it.
func annotations(a tool.Annotations) mcp.ToolAnnotation {
	yes, no := true, false
	var out mcp.ToolAnnotation
	if a.ReadOnly {
		out.ReadOnlyHint = &yes
	} else {
		if !a.Destructive {
			out.DestructiveHint = &no
		}
		if a.Idempotent {
			out.IdempotentHint = &yes
		}
	}
	if !a.OpenWorld {
		out.OpenWorldHint = &no
	}
	return out
}

// shape turns a tool result into an MCP result: structured content, a
// compact text form capped at limit characters (the full text is kept as a
// resource of the session and the model is told where; an anonymous stateless
// caller cannot read one back, so nothing is kept for it), resource links for
// files and inline images.
func (s *Server) shape(sess *session, traceID string, r *tool.Result, limit int) *mcp.CallToolResult {
	out := &mcp.CallToolResult{}
	var text strings.Builder
	if r.Summary != "" {
		text.WriteString(r.Summary)
	}
	if r.Data != nil {
		data, err := json.Marshal(r.Data)
		if err == nil {
			if len(data) > 0 && data[0] == '{' {
				// The object is marshalled once: structuredContent is these
				// bytes, and so is the text form unless a long multi-line
				// string has to move below it (only then is it decoded).
				out.RawStructuredContent = data
				var blocks []textBlock
				if bytes.Contains(data, []byte(`\n`)) {
					var obj map[string]any
					if json.Unmarshal(data, &obj) == nil {
						data, blocks = textForm(obj)
					}
				}
				if text.Len() > 0 {
					text.WriteString("\n")
				}
				text.Write(data)
				for _, b := range blocks {
					text.WriteString("\n\n--- " + b.name + " ---\n" + b.text)
				}
			} else {
				out.StructuredContent = map[string]any{"result": json.RawMessage(data)}
				if text.Len() > 0 {
					text.WriteString("\n")
				}
				text.Write(data)
			}
		}
	}
	body := text.String()
	if n := utf8.RuneCountInString(body); n > limit {
		if sess.kind == kindAnonymous {
			body = cutRunes(body, limit) + fmt.Sprintf("\n…[truncated: %s in all; a stateless caller without a token keeps nothing between requests, so narrow the request to see the rest]", wording.Count(n, "character", "characters"))
			out.RawStructuredContent, out.StructuredContent = nil, map[string]any{"truncated": true, "summary": r.Summary}
		} else {
			uri := s.results.keep(sess.key, traceID, body)
			body = cutRunes(body, limit) + fmt.Sprintf("\n…[truncated: %s in all; the full result is the resource %s]", wording.Count(n, "character", "characters"), uri)
			out.RawStructuredContent, out.StructuredContent = nil, map[string]any{"truncated": true, "full_result": uri, "summary": r.Summary}
		}
	}
	if body == "" {
		body = "done"
	}
	out.Content = append(out.Content, mcp.NewTextContent(body))
	for _, f := range r.Files {
		m := f.MIME
		if m == "" {
			m = mime.TypeByExtension(filepath.Ext(f.Path))
		}
		desc := fmt.Sprintf("%s (%s)", s.deps.Sandbox.Rel(f.Path), wording.Count(f.Size, "byte", "bytes"))
		out.Content = append(out.Content, mcp.NewResourceLink("file://"+f.Path, filepath.Base(f.Path), desc, m))
	}
	for _, img := range r.Images {
		if len(img.Data) > maxInlineImage {
			continue
		}
		out.Content = append(out.Content, mcp.NewImageContent(encodeBase64(img.Data), img.MIME))
	}
	return out
}

const maxInlineImage = 2 << 20

type textBlock struct{ name, text string }

// textForm renders structured data for the model's text channel. Long
// multi-line strings (a page snapshot, a file's text, a command's output)
// read badly as escaped JSON, so they are moved out of the JSON and shown
// verbatim below it; structuredContent keeps the object as it is.
func textForm(obj map[string]any) ([]byte, []textBlock) {
	var blocks []textBlock
	compact := make(map[string]any, len(obj))
	for k, v := range obj {
		if s, ok := v.(string); ok && len(s) > 200 && strings.Contains(s, "\n") {
			blocks = append(blocks, textBlock{k, s})
			compact[k] = "(shown below)"
			continue
		}
		compact[k] = v
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].name < blocks[j].name })
	b, _ := json.Marshal(compact)
	return b, blocks
}

func cutRunes(s string, n int) string {
	if len(s) <= n { // no more bytes than n: no more runes either
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// errorResult is how every failure reaches the model: an isError result with
// the code, the message and a hint, never a JSON-RPC error.
func errorResult(traceID string, e *tool.Error) *mcp.CallToolResult {
	text := e.Code + ": " + e.Message
	if e.Hint != "" {
		text += "\nhint: " + e.Hint
	}
	res := mcp.NewToolResultError(text)
	sc := map[string]any{"error": e}
	if traceID != "" {
		sc["trace_id"] = traceID
	}
	res.StructuredContent = sc
	return res
}

// Published is the MCP tool a client receives for t (schema with
// confirm_token, annotations), for snapshots and size measurements.
func Published(t *tool.Tool) mcp.Tool { return mcpTool(t) }

// PublishedMeta are the server's own tools (find_tools, call_tool) as a
// client receives them.
func PublishedMeta() []mcp.Tool { return []mcp.Tool{metaTool(findToolsDef), metaTool(callToolDef)} }
