package bridgetest

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Initialize opens c's session at protocol version as client name.
func Initialize(ctx context.Context, c *client.Client, version, name string) (*mcp.InitializeResult, error) {
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	return c.Initialize(ctx, req)
}

// Tools is the tools c lists, by name; an error fails tb.
func Tools(ctx context.Context, tb testing.TB, c *client.Client) map[string]mcp.Tool {
	tb.Helper()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

// Call calls tool name with args through c; a protocol error fails tb (a
// tool's failure is an isError result, not an error).
func Call(ctx context.Context, tb testing.TB, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	tb.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("call %s: protocol error %v (tool failures must be isError results)", name, err)
	}
	return res
}

// Answer returns the answer to request id from the decoded JSON-RPC lines
// of a stdio server, skipping everything else; lines ending first, or no
// answer within the given time, fails tb.
func Answer(tb testing.TB, lines <-chan map[string]any, id float64, within time.Duration) map[string]any {
	tb.Helper()
	timeout := time.After(within)
	for {
		select {
		case m, ok := <-lines:
			if !ok {
				tb.Fatalf("stdout ended before the answer to %v", id)
			}
			if got, _ := m["id"].(float64); got == id && m["method"] == nil {
				return m
			}
		case <-timeout:
			tb.Fatalf("no answer to %v", id)
		}
	}
}
