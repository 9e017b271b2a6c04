#!/bin/sh
# Makes an MCP bundle (.mcpb) for each binary goreleaser built into DIST
# (default dist), and DIST/server.json for the MCP Registry naming them:
#   DIST/clawbridge_VERSION_OS_ARCH.mcpb
# Each bundle holds manifest.json, server/clawbridge[.exe], LICENSE and
# README.md; the official mcpb CLI validates the manifest, packs the folder
# and reads the bundle back. The tools listed in the manifest are those the
# binary for this machine publishes (it must be among the built ones).
set -eu
dist="${1:-dist}"
scripts/install-mcpb.sh
mcpb="$(pwd)/.cache/mcpb/node_modules/.bin/mcpb"
go run ./release binaries "$dist" >"$dist/binaries.txt"
hostos=$(go env GOOS)
hostarch=$(go env GOARCH)
host=$(awk -v o="$hostos" -v a="$hostarch" '$2 == o && $3 == a { print $4 }' "$dist/binaries.txt")
[ -n "$host" ] || { echo "bundle.sh: no $hostos/$hostarch binary in $dist to list the tools with" >&2; exit 1; }
bundles=""
while read -r version goos goarch bin; do
	stage="$dist/mcpb/${goos}_$goarch"
	rm -rf "$stage"
	mkdir -p "$stage/server"
	cp "$bin" "$stage/server/"
	cp LICENSE README.md "$stage/"
	go run ./release manifest -bin "$host" -os "$goos" -version "$version" >"$stage/manifest.json"
	out="$dist/clawbridge_${version}_${goos}_$goarch.mcpb"
	"$mcpb" validate "$stage/manifest.json"
	"$mcpb" pack "$stage" "$out" >/dev/null
	"$mcpb" info "$out"
	bundles="$bundles $out"
done <"$dist/binaries.txt"
go run ./release server-json -version "$(awk 'NR == 1 { print $1 }' "$dist/binaries.txt")" $bundles >"$dist/server.json"
rm "$dist/binaries.txt"
echo "bundle.sh: $(echo $bundles | wc -w) bundle(s) and $dist/server.json"
