package server

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) newSession(key, client string, limit int) *session {
	return &session{key: key, client: client, sem: make(chan struct{}, limit)}
}

func (s *Server) filterList(ctx context.Context, id any, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
}

func (s *Server) beforeCall(sess *session, name string)        {}
func (s *Server) afterCall(sess *session, name string, ok bool) {}
func (s *Server) addMeta()                                      {}
func (s *Server) addPrompts()                                   {}
