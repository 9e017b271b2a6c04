#!/bin/sh
# Installs the real downstream MCP servers that the bridge's tests and
# benchmarks run, and the real MCP clients the end-to-end client suite drives
# (e2e/clients_*_test.go), pinned, from npm, into .cache/mcp-servers.
# Quiet and instant when they are there; does nothing without npm (the tests
# then skip, unless CLAWBRIDGE_REQUIRE_PROGRAMS is set).
set -eu
dir="${1:-.cache/mcp-servers}"
pkgs="@modelcontextprotocol/server-everything@2026.8.31
@modelcontextprotocol/server-filesystem@2026.8.31
@modelcontextprotocol/server-memory@2026.8.31
@anthropic-ai/claude-code@2.1.332
@google/gemini-cli@0.61.0
@openai/codex@0.171.0
mcp-remote@0.15.1
@modelcontextprotocol/inspector-cli@1.0.3"
command -v npm >/dev/null 2>&1 || { echo "install-mcp-servers: npm not found; bridge and client tests will skip" >&2; exit 0; }
stamp="$dir/.installed"
want=$(echo "$pkgs" | tr '\n' ' ')
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0
mkdir -p "$dir"
echo "install-mcp-servers: npm install $want into $dir" >&2
# one retry: a registry hiccup or another npm holding the cache fails an install that then succeeds
npm install --silent --no-audit --no-fund --prefix "$dir" $want >&2 || { sleep 5; npm install --loglevel=error --no-audit --no-fund --prefix "$dir" $want >&2; }
echo "$want" >"$stamp"
