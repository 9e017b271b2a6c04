package bridge

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/config"
)

// baseEnv are the variables every stdio server gets from clawbridge's own
// environment; everything else (API keys, CLAWBRIDGE_* settings) stays out
// unless the server's entry names it in env or pass_env.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"}

// serverEnv builds a stdio server's environment: the base variables, the
// names in pass_env, then env's values (which win).
func serverEnv(s config.BridgeServer, getenv func(string) string) []string {
	vals := map[string]string{}
	for _, n := range baseEnv {
		vals[n] = getenv(n)
	}
	vals["PATH"] = absPath(vals["PATH"])
	for _, n := range s.PassEnv {
		vals[n] = getenv(n)
	}
	for n, v := range s.Env {
		vals[n] = v
	}
	out := make([]string, 0, len(vals))
	for n, v := range vals {
		if v != "" && !strings.ContainsRune(v, 0) {
			out = append(out, n+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

// absPath keeps absolute PATH entries only, so a program name never
// resolves in the working directory.
func absPath(p string) string {
	var keep []string
	for _, d := range filepath.SplitList(p) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		}
	}
	if len(keep) == 0 {
		return "/usr/local/bin:/usr/bin:/bin"
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}
