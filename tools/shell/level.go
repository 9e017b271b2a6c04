package shell

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"clawbridge/internal/config"
	"clawbridge/tools/tool"
)

// CallLevel is the permission level of one shell call; the server uses it
// instead of the declared action level (High), which stays the tool's
// published level and annotations.
//
// A call is Read when all of these hold, and High otherwise (a call that is
// not Read still runs, after confirmation):
//
//   - it uses argv, not a `shell` command line (sh can do anything);
//   - argv[0] is a bare program name (looked up on PATH) or an absolute path
//     in a system bin directory, and its base name is in
//     cfg.Shell.ReadOnlyPrograms: `./ls` or `/tmp/x/ls` may be anything the
//     model wrote, so they are not trusted;
//   - the arguments do not turn a read-only program into one that writes or
//     runs other programs: `env CMD`, `find -exec/-delete/-fprint`,
//     `sort -o`, `uniq IN OUT`, `tree -o/-R`, `date -s`, `hostname NAME`,
//     `file -C`, and `ps e` (which prints other processes' environments,
//     including the server's own);
//   - every argument that can name a file stays inside the workspace roots
//     (cfg.Workspace), symlinks included, and so does cwd: `cat
//     ~/.ssh/id_rsa` or `cat /proc/PID/environ` reads no more than `rm`
//     writes without asking. Arguments are checked as paths whether or not
//     the program reads them as such, so `echo /etc` asks too; that errs on
//     the side of asking.
//
// Invalid arguments give High; the handler rejects them afterwards.
func CallLevel(cfg *config.Config, args tool.Args) tool.Level {
	if cfg == nil || args.Has("shell") {
		return tool.High
	}
	argv := args.Strings("argv")
	if len(argv) == 0 || !trustedProgram(argv[0]) {
		return tool.High
	}
	prog := filepath.Base(argv[0])
	if !slices.Contains(cfg.Shell.ReadOnlyPrograms, prog) {
		return tool.High
	}
	if writesOrExecs(prog, argv[1:]) {
		return tool.High
	}
	roots := realRoots(cfg.Workspace)
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
	for _, p := range pathCandidates(argv[1:]) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if !insideRoots(roots, p) {
			return tool.High
		}
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

// writesOrExecs reports arguments that make a read-only program write files,
// change the system, run another program or print secrets.
func writesOrExecs(prog string, args []string) bool {
	opts, operands := splitArgs(args)
	hasOpt := func(names ...string) bool {
		for _, o := range opts {
			for _, n := range names {
				if o == n || (strings.HasPrefix(n, "--") && strings.HasPrefix(o, n+"=")) {
					return true
				}
			}
		}
		return false
	}
	// shortFlag reports a single-dash cluster containing c (e.g. -uo).
	shortFlag := func(c byte) bool {
		for _, o := range opts {
			if len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o[1:], c) >= 0 {
				return true
			}
		}
		return false
	}
	switch prog {
	case "env":
		// Only a plain listing: any NAME=VALUE, command or -S runs something.
		for _, a := range args {
			if a != "-0" && a != "--null" {
				return true
			}
		}
	case "find":
		for _, a := range args {
			switch a {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return true
			}
		}
	case "sort":
		return shortFlag('o') || hasOpt("--output", "--compress-program")
	case "uniq":
		return len(operands) > 1 // the second operand is an output file
	case "tree":
		return shortFlag('o') || shortFlag('R') || hasOpt("--output")
	case "date":
		if shortFlag('s') || hasOpt("--set") {
			return true
		}
		for _, o := range valueOperands(args, "-d", "--date", "-f", "--file", "-r", "--reference") {
			if !strings.HasPrefix(o, "+") {
				return true // MMDDhhmm sets the clock
			}
		}
	case "hostname":
		return len(operands) > 0 || shortFlag('F') || shortFlag('b') || hasOpt("--file", "--boot")
	case "file":
		return shortFlag('C') || hasOpt("--compile")
	case "ps":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && strings.ContainsRune(a, 'e') {
				return true // BSD "e": show the environment of each process
			}
		}
	}
	return false
}

// splitArgs separates options from operands; everything after "--" is an
// operand.
func splitArgs(args []string) (opts, operands []string) {
	for i, a := range args {
		if a == "--" {
			return opts, append(operands, args[i+1:]...)
		}
		if len(a) > 1 && a[0] == '-' {
			opts = append(opts, a)
		} else {
			operands = append(operands, a)
		}
	}
	return opts, operands
}

// valueOperands returns the operands of args, skipping the value that
// follows any of the given options.
func valueOperands(args []string, withValue ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if slices.Contains(withValue, a) {
			i++
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}

// pathCandidates lists every argument text that a program might open as a
// file: operands, the value of --opt=value, and the tail of a short option
// with an attached value (-f/etc/x).
func pathCandidates(args []string) []string {
	var out []string
	rest := false
	for _, a := range args {
		switch {
		case rest || a == "-" || a == "" || a[0] != '-':
			if a != "-" && a != "" {
				out = append(out, a)
			}
		case a == "--":
			rest = true
		case strings.HasPrefix(a, "--"):
			if _, v, ok := strings.Cut(a, "="); ok && v != "" {
				out = append(out, v)
			}
		case len(a) > 2 && strings.ContainsRune(a[2:], '/'):
			out = append(out, a[2:])
		}
	}
	return out
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
