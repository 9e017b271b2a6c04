package server

import (
	"context"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// adoptRoots applies the client's MCP roots when the client offers them.
// Only for stdio: there the server has exactly one client; an HTTP server
// is shared and keeps its configured workspace. The roots narrow the
// configured workspace to where they overlap it, or replace it when
// workspace.trust_client_roots is set; a root is never created (see
// sandbox.ApplyClientRoots).
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
	trust := s.cfg != nil && s.cfg.TrustClientRoots
	roots, err := s.deps.Sandbox.ApplyClientRoots(paths, trust)
	if err != nil {
		s.log.Warn().Err(err).Strs("client_roots", paths).Msg("client roots refused; keeping the configured workspace")
		return
	}
	s.log.Info().Strs("client_roots", paths).Strs("roots", roots).Bool("trust_client_roots", trust).Msg("workspace set from the client's roots")
}

// rootsChanged makes the next call read the client's roots again.
func (s *Server) rootsChanged(ctx context.Context, n mcp.JSONRPCNotification) {
	sess := s.sessionOf(ctx)
	sess.mu.Lock()
	sess.rootsChecked = false
	sess.mu.Unlock()
}
