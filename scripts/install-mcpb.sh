#!/bin/sh
# Installs the official MCP bundle CLI (@anthropic-ai/mcpb, pinned) from npm
# into .cache/mcpb, as install-mcp-servers.sh installs the npm clients; quiet
# and instant when it is there. scripts/bundle.sh validates, packs and reads
# bundles with it.
set -eu
dir="${1:-.cache/mcpb}"
want="@anthropic-ai/mcpb@2.1.2"
stamp="$dir/.installed"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0
command -v npm >/dev/null 2>&1 || { echo "install-mcpb: npm not found (apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
echo "install-mcpb: npm install $want into $dir" >&2
# one retry: a registry hiccup or another npm holding the cache fails an install that then succeeds
npm install --silent --no-audit --no-fund --prefix "$dir" "$want" >&2 || { sleep 5; npm install --loglevel=error --no-audit --no-fund --prefix "$dir" "$want" >&2; }
echo "$want" >"$stamp"
