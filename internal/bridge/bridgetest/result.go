package bridgetest

import (
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Text is a tool result's text content, joined, as a client shows it.
func Text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
