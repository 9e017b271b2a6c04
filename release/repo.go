package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// home is where the project is published: github.com/OWNER/NAME.
type home struct{ path, owner, name string }

// repository reads the module path this program was built in (go.mod).
func repository() (home, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return home{}, fmt.Errorf("no build info: run with go run ./release")
	}
	return homeOf(info.Main.Path)
}

func homeOf(module string) (home, error) {
	parts := strings.Split(module, "/")
	if len(parts) != 3 || parts[0] != "github.com" {
		return home{}, fmt.Errorf("module path %q is not github.com/OWNER/NAME", module)
	}
	return home{path: module, owner: parts[1], name: parts[2]}, nil
}

func (h home) url() string { return "https://" + h.path }

// registryName is the server's name in the MCP Registry: the reverse-DNS
// namespace the registry grants a GitHub owner, and the repository's name.
func (h home) registryName() string { return "io.github." + h.owner + "/" + h.name }

// releaseURL is where a release asset is downloaded from.
func (h home) releaseURL(version, file string) string {
	return h.url() + "/releases/download/v" + version + "/" + file
}
