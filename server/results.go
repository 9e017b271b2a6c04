package server

import (
	"context"
	"encoding/base64"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// resultStore keeps full results that were cut for the model, readable as
// resources clawbridge://results/{id}. It is bounded: the oldest go first.
type resultStore struct {
	mu    sync.Mutex
	order []string
	data  map[string]string
	max   int
}

func newResultStore(max int) *resultStore {
	return &resultStore{data: map[string]string{}, max: max}
}

func (r *resultStore) keep(id, text string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.data[id]; !ok {
		r.order = append(r.order, id)
	}
	r.data[id] = text
	for len(r.order) > r.max {
		delete(r.data, r.order[0])
		r.order = r.order[1:]
	}
	return resultURI(id)
}

func (r *resultStore) get(id string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.data[id]
	return t, ok
}

func resultURI(id string) string { return "clawbridge://results/" + id }

func (s *Server) readResult(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	id := req.Params.URI[len("clawbridge://results/"):]
	text, ok := s.results.get(id)
	if !ok {
		return nil, mcpNotFound(req.Params.URI)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: text}}, nil
}

func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
