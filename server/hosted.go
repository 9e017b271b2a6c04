package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// host is the server's side of tool.Host: tools that work between calls
// (cron) notify the connected sessions and run calls through it.
type host struct {
	s *Server

	mu        sync.Mutex
	connected map[string]bool // initialized MCP sessions, by mcp-go session id
	loops     []func(ctx context.Context)
}

var _ tool.Host = (*host)(nil)

func newHost(s *Server) *host { return &host{s: s, connected: map[string]bool{}} }

func (h *host) sessionUp(ctx context.Context) {
	if cs := mcpserver.ClientSessionFromContext(ctx); cs != nil {
		h.mu.Lock()
		h.connected[cs.SessionID()] = true
		h.mu.Unlock()
	}
}

func (h *host) sessionDown(id string) {
	h.mu.Lock()
	delete(h.connected, id)
	h.mu.Unlock()
}

// Notify broadcasts a notifications/message. It goes to every initialized
// session whatever log level it set: a fired job is what the user asked to
// be told about.
func (h *host) Notify(level, logger string, data map[string]any) bool {
	// Counted before the send: a session that became initialized between
	// the send and the count would be reported as told when it was not.
	h.mu.Lock()
	n := len(h.connected)
	h.mu.Unlock()
	if n == 0 {
		return false
	}
	h.s.mcp.SendNotificationToAllClients(string(mcp.MethodNotificationMessage), map[string]any{"level": level, "logger": logger, "data": data})
	return true
}

func (h *host) Level(name, action string, args map[string]any) (tool.Level, error) {
	t, ok := h.s.lookupTool(name)
	if !ok {
		return "", fmt.Errorf("no tool %q", name)
	}
	if _, ok := t.Action(action); !ok {
		return "", fmt.Errorf("%s has no action %q (actions: %s)", name, action, strings.Join(t.ActionNames(), ", "))
	}
	return t.LevelOf(tool.NewCall(action, args)), nil
}

func (h *host) Run(ctx context.Context, name, action string, args map[string]any) (string, error) {
	all := make(map[string]any, len(args)+1)
	for k, v := range args {
		all[k] = v
	}
	if t, ok := h.s.lookupTool(name); ok && t.MultiAction() {
		all["action"] = action
	}
	sess := h.s.sessions.get("scheduler", "cron", kindScheduled)
	r := h.s.run(ctx, sess, name, all, func(float64, float64, string) {})
	var text []string
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	out := strings.Join(text, "\n")
	if r.IsError {
		return "", errors.New(out)
	}
	return out, nil
}

// startLoops runs the tools' loops until the returned stop is called, which
// cancels them and waits for them to return.
func (s *Server) startLoops(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, loop := range s.host.loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loop(ctx)
		}()
	}
	return func() {
		cancel()
		wg.Wait()
	}
}
