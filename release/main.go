// Command release writes what a release publishes besides the archives
// goreleaser makes: an MCP bundle's manifest.json per platform and the MCP
// Registry's server.json naming the bundles. scripts/bundle.sh runs it.
//
//	go run ./release repo
//	go run ./release binaries DIST
//	go run ./release manifest -bin BIN -os GOOS -version V > manifest.json
//	go run ./release server-json -version V BUNDLE.mcpb... > server.json
//
// The repository's home comes from the module path (go.mod), the one place
// it is written.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: release repo | binaries DIST | manifest FLAGS | server-json FLAGS BUNDLES")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	version := fs.String("version", "", "the release's version (no leading v)")
	bin := fs.String("bin", "", "manifest: a clawbridge binary this machine runs, to list the tools")
	goos := fs.String("os", "", "manifest: the platform the bundle is for (linux, darwin, windows)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	home, err := repository()
	if err != nil {
		return err
	}
	switch args[0] {
	case "repo":
		_, err := fmt.Fprintln(stdout, home.path)
		return err
	case "binaries":
		// One line per binary: VERSION GOOS GOARCH PATH (scripts/bundle.sh).
		if fs.NArg() != 1 {
			return fmt.Errorf("binaries needs the dist dir")
		}
		version, bins, err := distBinaries(fs.Arg(0))
		if err != nil {
			return err
		}
		for _, b := range bins {
			fmt.Fprintln(stdout, version, b.GOOS, b.GOARCH, b.Path)
		}
		return nil
	case "manifest":
		if *version == "" || *bin == "" || *goos == "" {
			return fmt.Errorf("manifest needs -version, -bin and -os")
		}
		tools, err := listTools(*bin)
		if err != nil {
			return err
		}
		m, err := bundleManifest(home, *version, *goos, tools)
		if err != nil {
			return err
		}
		return writeJSON(stdout, m)
	case "server-json":
		if *version == "" || fs.NArg() == 0 {
			return fmt.Errorf("server-json needs -version and the bundles")
		}
		s, err := serverJSON(home, *version, fs.Args())
		if err != nil {
			return err
		}
		return writeJSON(stdout, s)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
