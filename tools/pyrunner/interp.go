package pyrunner

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// language is one interpreter the tool runs.
type language struct {
	name    string   // "python", "javascript"
	ext     string   // the script's extension in the work dir
	program string   // the interpreter's file name
	flags   []string // before the script
}

var languages = map[string]language{
	// -u: unbuffered, so stdout lines arrive as progress while it runs;
	// -B: no .pyc files among the outputs; -s, -E: no user site directory
	// and no PYTHON* variables; -X utf8: UTF-8 I/O whatever the locale.
	"python":     {name: "python", ext: ".py", program: "python3", flags: []string{"-u", "-B", "-s", "-E", "-X", "utf8"}},
	"javascript": {name: "javascript", ext: ".js", program: "node"},
}

// languageOf picks the language from the argument, else the script's
// extension, else python.
func languageOf(given, path string) (language, bool) {
	if given != "" {
		l, ok := languages[given]
		return l, ok
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".js", ".mjs", ".cjs":
		return languages["javascript"], true
	}
	return languages["python"], true
}

// interpreterDirs are where interpreters are looked for: only under /usr,
// the one system tree the jail shows (a pyenv or nvm install in $HOME is
// not visible inside it).
var interpreterDirs = []string{"/usr/local/bin", "/usr/bin"}

// jailPath is the PATH inside the jail.
const jailPath = "/usr/local/bin:/usr/bin:/bin"

// programs are the interpreters (and bwrap) for the tool's Programs, which
// `clawbridge doctor` checks: each interpreter by the path run uses, not the
// first of its name on PATH (a pyenv python3 there is not what the jail runs).
func programs() map[string]string {
	progs := []string{"bwrap"}
	for _, l := range languages {
		p := interpreter(l)
		if p == "" {
			p = filepath.Join(interpreterDirs[len(interpreterDirs)-1], l.program) // where Debian's package puts it
		}
		progs = append(progs, p)
	}
	return tool.ProgramsOf(progs...)
}

// interpreter finds l's program, "" when it is not installed.
func interpreter(l language) string {
	for _, dir := range interpreterDirs {
		p := filepath.Join(dir, l.program)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
