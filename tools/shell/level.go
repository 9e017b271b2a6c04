package shell

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// CallLevel is the permission level of one shell call; the server uses it
// instead of the declared action level (High), which stays the tool's
// published level and annotations.
//
// A call is Read when all of these hold, and High otherwise (a call that is
// not Read still runs, after confirmation, directly on the host):
//
//   - the jail works on this machine (jail.Check): a Read call runs only
//     in the jail, with the workspace read-only, no network and nothing
//     else of the host visible, so what the program does with its options
//     (sort --compress-program, file -f -, grep -R through a symlink,
//     hostname NAME) cannot write, escape or read secrets;
//   - it uses argv, not a `shell` command line;
//   - argv[0] is a bare program name (looked up on PATH) or an absolute path
//     in a system bin directory, and its base name is in
//     cfg.Shell.ReadOnlyPrograms: `./ls` or `/tmp/x/ls` may be anything the
//     model wrote, so they are not trusted;
//   - cwd is inside the workspace roots in force (roots: the sandbox's,
//     which the client's MCP roots may have narrowed), symlinks resolved.
//
// Invalid arguments give High; the handler rejects them afterwards.
func CallLevel(cfg *config.Config, workspace []string, args tool.Args) tool.Level {
	if cfg == nil || args.Has("shell") {
		return tool.High
	}
	argv := args.Strings("argv")
	if len(argv) == 0 || !trustedProgram(argv[0]) {
		return tool.High
	}
	if !slices.Contains(cfg.Shell.ReadOnlyPrograms, filepath.Base(argv[0])) {
		return tool.High
	}
	roots := realRoots(workspace)
	if len(roots) == 0 {
		return tool.High
	}
	cwd := args.String("cwd")
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = filepath.Join(roots[0], cwd)
	}
	if !insideRoots(roots, cwd) {
		return tool.High
	}
	if !jail.Available() {
		return tool.High
	}
	return tool.Read
}

// systemBinDirs are where an absolute argv[0] may point and still count as
// the system's program of that name.
var systemBinDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}

func trustedProgram(p string) bool {
	if !strings.Contains(p, "/") {
		return p != ""
	}
	return filepath.IsAbs(p) && filepath.Clean(p) == p && slices.Contains(systemBinDirs, filepath.Dir(p))
}

func realRoots(ws []string) []string {
	var out []string
	for _, r := range ws {
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if real := resolveExisting(abs); real != "" {
			out = append(out, real)
		}
	}
	return out
}

// insideRoots reports whether p, with the symlinks of its existing part
// resolved, is inside one of roots.
func insideRoots(roots []string, p string) bool {
	real := resolveExisting(filepath.Clean(p))
	for _, r := range roots {
		if real == r || strings.HasPrefix(real, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// resolveExisting evaluates symlinks in the longest existing prefix of an
// absolute path and appends the rest. A path it cannot resolve (a dangling
// or looping link) is returned as "" so that it counts as outside.
func resolveExisting(abs string) string {
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return ""
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return "" // dangling link: its target is not known to be inside
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
