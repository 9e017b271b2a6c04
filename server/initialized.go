package server

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// A streamable HTTP session-era client's initialize is answered before
// mcp-go registers its session; a GET stream opened at once registers a
// session of its own first, and that one never saw the initialize: it
// carries no client name and no capabilities (mcp-go v1.2.1,
// streamable_http.go). So the server keeps what each initialize said, by
// session id, and heals such a session on first use: elicitation is not
// lost to a race the client cannot see.

// initialized records what an initialize request declared.
func (s *Server) initialized(ctx context.Context, req *mcp.InitializeRequest) {
	cs := mcpserver.ClientSessionFromContext(ctx)
	if cs == nil || req == nil || cs.SessionID() == "" {
		return
	}
	s.inits.Store(cs.SessionID(), req.Params)
}

// healed returns the client session of ctx with what its initialize
// declared, when mcp-go's registered session lost it.
func (s *Server) healed(ctx context.Context) mcpserver.SessionWithClientInfo {
	cs := mcpserver.ClientSessionFromContext(ctx)
	ci, ok := cs.(mcpserver.SessionWithClientInfo)
	if !ok {
		return nil
	}
	if ci.GetClientInfo().Name == "" {
		if v, ok := s.inits.Load(cs.SessionID()); ok {
			p := v.(mcp.InitializeParams)
			ci.SetClientInfo(p.ClientInfo)
			ci.SetClientCapabilities(p.Capabilities)
		}
	}
	return ci
}
