package server

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// listeners are the open subscriptions/listen streams of stateless
// (2026-07-28) principals. mcp-go can broadcast to such streams but not
// address one principal's: a listen stream's session is ephemeral and known
// to mcp-go by no id. Since a principal's tool view is its own, its
// notifications/tools/list_changed must reach its streams only; they are
// recorded here, by principal, while they are open.
type listeners struct {
	mu sync.Mutex
	by map[string]map[mcpserver.ClientSession]bool // principal key → its open streams
}

// opened records a principal's listen stream (hook before subscriptions/listen).
func (s *Server) listenOpened(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
	sess, cs := s.sessionOf(ctx), mcpserver.ClientSessionFromContext(ctx)
	if sess.kind != kindPrincipal || cs == nil {
		return
	}
	l := s.listeners
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[string]map[mcpserver.ClientSession]bool{}
	}
	if l.by[sess.key] == nil {
		l.by[sess.key] = map[mcpserver.ClientSession]bool{}
	}
	l.by[sess.key][cs] = true
}

// closed forgets a stream when its request ends, however it ends.
func (s *Server) listenClosed(ctx context.Context) {
	cs := mcpserver.ClientSessionFromContext(ctx)
	if cs == nil {
		return
	}
	l := s.listeners
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, streams := range l.by {
		if streams[cs] {
			delete(streams, cs)
			if len(streams) == 0 {
				delete(l.by, key)
			}
		}
	}
}

// notifyListChanged sends notifications/tools/list_changed on every open
// stream of the principal that opted in to it (the filter mcp-go recorded
// after intersecting the request with our capabilities). A full stream
// drops the notification rather than stall the call.
func (s *Server) notifyListChanged(principal string) int {
	l := s.listeners
	l.mu.Lock()
	defer l.mu.Unlock()
	sent := 0
	for cs := range l.by[principal] {
		f, ok := cs.(mcpserver.SessionWithSubscriptionFilter)
		if !ok {
			continue
		}
		if filter, active := f.SubscriptionFilter(); !active || !filter.ToolsListChanged {
			continue
		}
		n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{Method: mcp.MethodNotificationToolsListChanged}}
		select {
		case cs.NotificationChannel() <- n:
			sent++
		default:
		}
	}
	return sent
}

// listenerCount is how many streams of principal are open.
func (s *Server) listenerCount(principal string) int {
	s.listeners.mu.Lock()
	defer s.listeners.mu.Unlock()
	return len(s.listeners.by[principal])
}
