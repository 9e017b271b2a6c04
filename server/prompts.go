package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// requirePromptArguments runs before mcp-go routes a prompts/get. A prompt
// asked for without one of its required arguments must answer -32602
// (invalid params), but mcp-go turns every error a prompt handler returns
// into -32603. So, as for unreadable results, the request is pointed at a
// prompt name that does not exist and that names the missing argument:
// mcp-go's own prompt-not-found answer is -32602 and its message carries
// that name. The handlers still check their arguments themselves.
func (s *Server) requirePromptArguments(ctx context.Context, id any, req *mcp.GetPromptRequest) {
	p, ok := s.mcp.ListPrompts()[req.Params.Name]
	if !ok {
		return
	}
	for _, a := range p.Prompt.Arguments {
		if a.Required && strings.TrimSpace(req.Params.Arguments[a.Name]) == "" {
			req.Params.Name = fmt.Sprintf("%s: missing required argument %q", req.Params.Name, a.Name)
			return
		}
	}
}
