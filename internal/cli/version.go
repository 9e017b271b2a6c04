package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the version the binary reports (in `clawbridge version`, the
// HTTP banner and the MCP serverInfo); Commit and Date are the commit it was
// built from and that commit's time. SetBuild fills them in.
var (
	Version = "0.1.0-dev"
	Commit  = ""
	Date    = ""
)

// SetBuild records what main was stamped with at build time (-ldflags
// "-X main.version=... -X main.commit=... -X main.date=...", as the Makefile,
// goreleaser and the end-to-end tests build it). A field left unstamped
// comes from the Go build info instead: the module version of a
// `go install ...@vX.Y.Z` build, the VCS revision and time of a build made
// in a checkout with VCS stamping on.
func SetBuild(version, commit, date string) {
	info, _ := debug.ReadBuildInfo()
	if version == "" && info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" {
		version = info.Main.Version
	}
	if info != nil {
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && commit == "":
				commit = s.Value
			case s.Key == "vcs.time" && date == "":
				date = s.Value
			}
		}
	}
	if version != "" {
		Version = strings.TrimPrefix(version, "v")
	}
	Commit, Date = commit, date
}

// versionLine is what `clawbridge version` and `--version` print.
func versionLine() string {
	commit, date := Commit, Date
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("clawbridge %s (commit %s, built %s, %s/%s)\n", Version, commit, date, runtime.GOOS, runtime.GOARCH)
}
