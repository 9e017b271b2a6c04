package server

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// TestInitialized_SessionRegisteredBeforeInitializeKeepsItsClient: mcp-go
// answers a streamable HTTP initialize before it registers the session, and
// a GET stream opened at once registers a blank session of its own under
// the same id. The server still knows the client and its elicitation
// capability from the initialize.
func TestInitialized_SessionRegisteredBeforeInitializeKeepsItsClient(t *testing.T) {
	s := testServer(t)
	const id = "mcp-session-race"
	init := &mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "racer", Version: "1"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	first := mcpserver.NewInProcessSession(id, nil)
	s.initialized(s.mcp.WithContext(context.Background(), first), init)

	blank := mcpserver.NewInProcessSession(id, nil) // what the GET registered
	ctx := s.mcp.WithContext(context.Background(), blank)
	if !s.canElicit(ctx) {
		t.Error("the elicitation capability of the initialize was lost")
	}
	if got := s.sessionOf(ctx).client; got != "racer" {
		t.Errorf("session's client %q, want racer", got)
	}
}
