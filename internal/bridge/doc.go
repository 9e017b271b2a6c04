// Package bridge manages the downstream MCP servers of mcp_bridge: the
// user's other MCP servers, named in config (bridge.servers), that
// clawbridge starts over stdio or reaches over HTTP with mcp-go's client.
//
// It keeps each server's manifest (tools, prompts, resources) cached in the
// data dir so listing and routing need no running server; starts a server
// lazily on the first call; restarts a crashed one on the next call, with
// backoff after failed starts; stops an idle stdio server; bounds every
// call with a timeout and forwards cancellation and progress; pins every
// tool definition by hash and holds a changed one until it is approved
// (`clawbridge bridge approve`); flags descriptions that carry instructions
// aimed at the model or hidden Unicode tag characters.
//
// It does not decide permission levels or confirmation, audit, or shape
// results: calls reach it through the server's pipeline like any tool's.
package bridge
