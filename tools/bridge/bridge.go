// Package bridge is the mcp_bridge tool: it lists the downstream MCP servers
// named in config (bridge.servers), lists their tools and calls them. The
// servers themselves are managed by internal/bridge; this package only
// turns its answers into tool results. Calls pass through the server's
// pipeline like any tool's, at the level config gives the server.
package bridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// New builds mcp_bridge on the servers in d.Bridge (nil: none configured).
func New(d *tool.Deps) (tool.Tool, error) {
	m := d.Bridge
	server := tool.Param{Name: "server", Type: tool.String, Required: true, Description: "Server name from list_servers."}
	return tool.Tool{
		Name:  "mcp_bridge",
		Title: "MCP bridge",
		Description: "Use the user's other MCP servers configured in clawbridge: list_servers (state and tool count), " +
			"list_tools (names and one-line descriptions, paged), call (run one of their tools with its own arguments).",
		OpenWorld: true,
		Examples:  []string{"list the tools of my github MCP server", "call the notion server's search tool", "用另一个 MCP 服务器的工具", "call the jira mcp server to create a ticket", "which MCP servers are configured", "use the filesystem MCP server tool", "list tools on the notion server", "调用配置好的 MCP 服务器上的工具", "列出所有 MCP 服务", "通过 MCP 在博客平台发布文章", "用外部 mcp 工具完成任务"},
		Actions: []tool.Action{
			{Name: "list_servers", Description: "servers with state, tool count and permission level", Level: tool.Read, Timeout: tool.Fast,
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return listServers(m) }},
			{Name: "list_tools", Description: "one server's tools, paged", Level: tool.Read, Timeout: tool.Normal,
				Params: []tool.Param{server,
					{Name: "offset", Type: tool.Integer, Default: 0, Min: tool.Ptr(0), Description: "First tool to list."},
					{Name: "limit", Type: tool.Integer, Default: 50, Min: tool.Ptr(1), Max: tool.Ptr(200), Description: "How many tools to list."}},
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return listTools(ctx, m, c) }},
			{Name: "call", Description: "run one downstream tool", Level: tool.High, Timeout: tool.Slow,
				Params: []tool.Param{server,
					{Name: "tool", Type: tool.String, Required: true, Description: "Tool name as list_tools gives it."},
					{Name: "arguments", Type: tool.Object, Description: "The tool's arguments, as its own schema defines them."}},
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return call(ctx, m, c) }},
		},
		// A call runs at the level config gives its server (default high).
		CallLevel: func(c *tool.Call) tool.Level {
			if c.Action != "call" || m == nil {
				return tool.High
			}
			return m.Level(c.Args.String("server"), c.Args.String("tool"))
		},
	}, nil
}

// Level is the permission level of one downstream tool: its server's, or
// read for a tool that declares itself read-only on a server whose
// annotations config trusts.
func Level(m *downstream.Manager, server, name string) tool.Level {
	cfg, ok := m.Server(server)
	if !ok {
		return tool.High
	}
	if cfg.TrustAnnotations {
		for _, t := range m.CachedTools(server) {
			if t.Name == name && t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
				return tool.Read
			}
		}
	}
	return tool.Level(cfg.Level)
}

func none() error {
	return tool.Errorf(tool.CodeUnavailable, "add servers under bridge.servers in the config (clawbridge config init writes an example)", "no downstream MCP servers are configured")
}

func listServers(m tool.Downstream) (*tool.Result, error) {
	if m == nil {
		return nil, none()
	}
	rows := m.Servers()
	if len(rows) == 0 {
		return nil, none()
	}
	return &tool.Result{Data: map[string]any{"servers": rows}}, nil
}

func listTools(ctx context.Context, m tool.Downstream, c *tool.Call) (*tool.Result, error) {
	if m == nil {
		return nil, none()
	}
	name := c.Args.String("server")
	tools, err := m.Tools(ctx, name)
	if err != nil {
		return nil, err
	}
	off, limit := c.Args.Int("offset", 0), c.Args.Int("limit", 50)
	type row struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	page := []row{}
	for i := off; i < len(tools) && i < off+limit; i++ {
		page = append(page, row{tools[i].Name, oneLine(tools[i].Description)})
	}
	data := map[string]any{"server": name, "total": len(tools), "offset": off, "tools": page}
	if off+limit < len(tools) {
		data["next_offset"] = off + limit
	}
	return &tool.Result{Data: data}, nil
}

// oneLine is a description's first line, cut to 160 characters.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

func call(ctx context.Context, m tool.Downstream, c *tool.Call) (*tool.Result, error) {
	if m == nil {
		return nil, none()
	}
	return m.Call(ctx, c.Args.String("server"), c.Args.String("tool"), c.Args.Object("arguments"), c.Progress)
}

// Call runs one downstream tool and turns its answer into a tool result.
func Call(ctx context.Context, m *downstream.Manager, server, name string, args map[string]any, progress func(done, total float64, msg string)) (*tool.Result, error) {
	res, err := m.Call(ctx, server, name, args, progress)
	if err != nil {
		return nil, err
	}
	return Result(server, name, res)
}

// Result turns a downstream CallToolResult into a tool result: its text,
// its structured content, inline images and the resources it names. An
// isError answer is a tool error carrying the server's own message.
func Result(server, name string, res *mcp.CallToolResult) (*tool.Result, error) {
	var text []string
	var images []tool.Image
	var resources []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			text = append(text, v.Text)
		case mcp.ImageContent:
			if b, err := decodeBase64(v.Data); err == nil {
				images = append(images, tool.Image{MIME: v.MIMEType, Data: b})
			}
		case mcp.ResourceLink:
			resources = append(resources, v.URI)
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				text = append(text, r.Text)
				resources = append(resources, r.URI)
			case mcp.BlobResourceContents:
				resources = append(resources, r.URI)
			}
		}
	}
	body := strings.Join(text, "\n")
	if res.IsError {
		return nil, tool.Errorf(tool.CodeFailed, "this is the downstream server's own message; fix the arguments or try another tool",
			"%s on %s answered with an error: %s", name, server, body)
	}
	data := map[string]any{"server": server, "tool": name}
	if body != "" {
		data["text"] = body
	}
	if res.StructuredContent != nil {
		data["structured"] = res.StructuredContent
	}
	if len(resources) > 0 {
		data["resources"] = resources
	}
	return &tool.Result{Data: data, Images: images, Summary: fmt.Sprintf("%s on %s", name, server)}, nil
}
