package server

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// inFlight counts the tool calls running (and, for stdio, the requests not
// yet answered), so that shutdown can wait for them within the grace period.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0
}

// track is the tool handler middleware that counts a call while it runs.
func (f *inFlight) track(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		f.start()
		defer f.done()
		return next(ctx, req)
	}
}

func (f *inFlight) start() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inFlight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// wait blocks until no call runs or ctx ends, and returns how many still run.
func (f *inFlight) wait(ctx context.Context) int {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return 0
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	idle := f.idle
	f.mu.Unlock()
	select {
	case <-idle:
		return 0
	case <-ctx.Done():
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.n
	}
}
