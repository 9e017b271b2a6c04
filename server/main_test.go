package server

import (
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the package when goroutines outlive its tests: a session,
// stream, listener or call goroutine that nothing stops is a leak in a
// long-running server (ARCHITECTURE.md promises these checks).
func TestMain(m *testing.M) {
	if os.Getenv(downstreamVar) != "" { // a bridge test's downstream MCP server (bridged_test.go)
		runTestDownstream()
		os.Exit(0)
	}
	if os.Getenv(loadServeEnv) != "" { // BenchmarkLoad's server process, killed by its parent
		os.Exit(m.Run())
	}
	// bleve (knowledge_rag) starts its shared analysis workers at package
	// init; they idle for the life of the process and hold nothing.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"))
}

// testHandler is the HTTP handler ListenAndServe serves, with its streams
// (and mcp-go's sweeper goroutine) closed when the test ends, as
// ListenAndServe does at shutdown. Cleanups run last-in first-out, so a
// httptest server registered after it closes first.
func testHandler(t *testing.T, s *Server, addr string) http.Handler {
	t.Helper()
	h, closeStreams := s.httpHandler(addr)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		closeStreams(ctx)
	})
	return h
}
