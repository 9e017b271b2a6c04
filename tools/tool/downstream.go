package tool

import "context"

// Downstream is the user's other MCP servers (config's bridge.servers) as
// mcp_bridge reaches them. tools/bridge adapts internal/bridge's manager to
// it, so the contract links no MCP library.
type Downstream interface {
	// Servers lists every configured server in config order.
	Servers() []DownstreamServer
	// Tools lists one server's usable tools, starting it when needed.
	Tools(ctx context.Context, server string) ([]DownstreamTool, error)
	// Level is the permission level one downstream tool's call runs at.
	Level(server, tool string) Level
	// Call runs one downstream tool and turns its answer into a result.
	Call(ctx context.Context, server, tool string, args map[string]any, progress func(done, total float64, msg string)) (*Result, error)
}

// DownstreamServer is one downstream server's state, as list_servers shows it.
type DownstreamServer struct {
	Name      string `json:"name"`
	State     string `json:"state"`
	Tools     int    `json:"tools"`
	Level     string `json:"level"`
	Publish   string `json:"publish"`
	Held      int    `json:"held,omitempty"`
	PID       int    `json:"pid,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// DownstreamTool is one tool of a downstream server.
type DownstreamTool struct {
	Name, Description string
}
