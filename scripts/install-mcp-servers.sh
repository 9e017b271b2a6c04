#!/bin/sh
# Installs the real downstream MCP servers that the bridge's tests and
# benchmarks run (pinned versions, from npm) into .cache/mcp-servers.
# Quiet and instant when they are there; does nothing without npm (the tests
# then skip, unless CLAWBRIDGE_REQUIRE_PROGRAMS is set).
set -eu
dir="${1:-.cache/mcp-servers}"
pkgs="@modelcontextprotocol/server-everything@2026.8.31
@modelcontextprotocol/server-filesystem@2026.8.31
@modelcontextprotocol/server-memory@2026.8.31"
command -v npm >/dev/null 2>&1 || { echo "install-mcp-servers: npm not found; bridge tests will skip" >&2; exit 0; }
stamp="$dir/.installed"
want=$(echo "$pkgs" | tr '\n' ' ')
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0
mkdir -p "$dir"
echo "install-mcp-servers: npm install $want into $dir" >&2
npm install --silent --no-audit --no-fund --prefix "$dir" $want >&2
echo "$want" >"$stamp"
