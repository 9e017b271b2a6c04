package server

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// resultStore keeps full results that were cut for the model, readable as
// resources clawbridge://results/{id} by the session that made them and by
// no other. Each session's store is bounded (the oldest go first), so one
// session cannot push out another's results; a session's results go with it.
type resultStore struct {
	mu  sync.Mutex
	by  map[string]*keptResults // by owner session key
	max int                     // per owner
}

type keptResults struct {
	order []string
	text  map[string]string
}

func newResultStore(max int) *resultStore {
	return &resultStore{by: map[string]*keptResults{}, max: max}
}

func (r *resultStore) keep(owner, id, text string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.by[owner]
	if k == nil {
		k = &keptResults{text: map[string]string{}}
		r.by[owner] = k
	}
	if _, ok := k.text[id]; !ok {
		k.order = append(k.order, id)
	}
	k.text[id] = text
	for len(k.order) > r.max {
		delete(k.text, k.order[0])
		k.order = k.order[1:]
	}
	return resultURI(id)
}

// get returns owner's result id; another session's result is not found.
func (r *resultStore) get(owner, id string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.by[owner]
	if k == nil {
		return "", false
	}
	t, ok := k.text[id]
	return t, ok
}

func (r *resultStore) drop(owner string) {
	r.mu.Lock()
	delete(r.by, owner)
	r.mu.Unlock()
}

const resultsPrefix = "clawbridge://results/"

func resultURI(id string) string { return resultsPrefix + id }

// hideUnreadableResults runs before mcp-go routes a resources/read. A kept
// result the caller may not read (another session's, or none) must answer
// exactly like an absent resource. mcp-go turns every error a resource
// handler returns into -32603, so instead the URI is pointed past the
// template here, and mcp-go answers its own resource-not-found: -32002
// (-32602 for 2026-07-28 requests, as that revision specifies).
func (s *Server) hideUnreadableResults(ctx context.Context, id any, req *mcp.ReadResourceRequest) {
	rid, ok := strings.CutPrefix(req.Params.URI, resultsPrefix)
	if !ok {
		return
	}
	if _, found := s.results.get(s.sessionOf(ctx).key, rid); !found {
		req.Params.URI += "#" // matches no template: not found
	}
}

func (s *Server) readResult(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	id := strings.TrimPrefix(req.Params.URI, resultsPrefix)
	text, ok := s.results.get(s.sessionOf(ctx).key, id) // checked again: the hook is not the only guard
	if !ok {
		return nil, mcpNotFound(req.Params.URI)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: text}}, nil
}

func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
