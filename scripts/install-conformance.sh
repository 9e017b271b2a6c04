#!/bin/sh
# Installs the official MCP conformance suite (pinned, from npm) into
# .cache/conformance, for e2e's TestConformance2026 (the 2026-07-28 server
# scenarios, input-required among them). The suite needs Node 22 (it imports
# fs.globSync) while Debian's and nodesource's node here is 20, so a pinned
# Node 22 binary comes from npm too (node-linux-<arch>), used only to run the
# suite. Quiet and instant when it is there; does nothing without npm (the
# test then skips, unless CLAWBRIDGE_REQUIRE_PROGRAMS is set).
set -eu
dir="${1:-.cache/conformance}"
case "$(uname -m)" in
x86_64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "install-conformance: no Node 22 build for $(uname -m); the conformance test will skip" >&2; exit 0 ;;
esac
pkgs="@modelcontextprotocol/conformance@0.2.0-alpha.12 node-linux-$arch@22.23.5"
command -v npm >/dev/null 2>&1 || { echo "install-conformance: npm not found; the conformance test will skip" >&2; exit 0; }
stamp="$dir/.installed"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs" ] && exit 0
mkdir -p "$dir"
echo "install-conformance: npm install $pkgs into $dir" >&2
npm install --silent --no-audit --no-fund --prefix "$dir" $pkgs >&2
echo "$pkgs" >"$stamp"
