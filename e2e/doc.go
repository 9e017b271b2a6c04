// Package e2e holds the end-to-end tests of the built clawbridge binary:
// TestMain builds it once with -race, and the tests run it as a client or a
// user would — MCP over stdio, SSE and streamable HTTP with mcp-go's client,
// signals, stdout purity, the jail and the browser through MCP, read-only
// commands that must create nothing. Tests of CLI behaviour that the binary
// adds nothing to call cli.Main in-process instead, in internal/cli.
// The package has no code of its own.
package e2e
