package bridge

import (
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jail"
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
	vals["PATH"] = jail.AbsPath(vals["PATH"])
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
