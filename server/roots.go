package server

import (
	"context"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// adoptRoots makes the client's MCP roots the workspace when the client
// offers them. Only for stdio: there the server has exactly one client, so
// its roots may replace the configured ones; an HTTP server is shared and
// keeps its configured workspace.
func (s *Server) adoptRoots(ctx context.Context, sess *session) {
	if sess.kind != kindStdio {
		return
	}
	sess.mu.Lock()
	done := sess.rootsChecked
	sess.rootsChecked = true
	sess.mu.Unlock()
	if done {
		return
	}
	cs, ok := mcpserver.ClientSessionFromContext(ctx).(mcpserver.SessionWithClientInfo)
	if !ok || cs.GetClientCapabilities().Roots == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, err := s.mcp.RequestRoots(ctx, mcp.ListRootsRequest{})
	if err != nil {
		s.log.Warn().Err(err).Msg("client roots unavailable; keeping the configured workspace")
		return
	}
	var paths []string
	for _, r := range res.Roots {
		u, err := url.Parse(r.URI)
		if err == nil && u.Scheme == "file" && u.Path != "" {
			paths = append(paths, u.Path)
		}
	}
	if len(paths) == 0 {
		return
	}
	if err := s.deps.Sandbox.SetRoots(paths); err != nil {
		s.log.Warn().Err(err).Msg("client roots refused; keeping the configured workspace")
		return
	}
	s.log.Info().Strs("roots", paths).Msg("workspace set to the client's roots")
}

// rootsChanged makes the next call read the client's roots again.
func (s *Server) rootsChanged(ctx context.Context, n mcp.JSONRPCNotification) {
	sess := s.sessionOf(ctx)
	sess.mu.Lock()
	sess.rootsChecked = false
	sess.mu.Unlock()
}
