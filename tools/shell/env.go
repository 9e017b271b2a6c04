package shell

import (
	"strings"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/logging"
)

// baseEnv are the variables every command gets (when the server has them).
// Everything else in the server's environment (API keys, tokens, the
// CLAWBRIDGE_* settings) stays out of reach of the program and of `env`.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"}

// ScrubbedEnv builds the environment of a command from getenv: the base
// variables plus the configured pass-through names. A pass-through name
// that looks like a secret (TOKEN, PASSWORD, API_KEY...) is dropped, and so
// is any value that carries a credential (a bearer token, a URL with a
// password, a known key format): read-only programs such as `env` run
// without confirmation, so nothing secret may be in what they can print.
func ScrubbedEnv(passEnv []string, getenv func(string) string) []string {
	var env []string
	seen := map[string]bool{}
	add := func(name, value string) {
		if seen[name] || value == "" || strings.ContainsRune(value, 0) {
			return
		}
		if logging.RedactString(value) != value {
			return
		}
		seen[name] = true
		env = append(env, name+"="+value)
	}
	add("PATH", jail.AbsPath(getenv("PATH")))
	for _, name := range baseEnv[1:] {
		add(name, getenv(name))
	}
	for _, name := range passEnv {
		if name == "" || strings.ContainsAny(name, "=\x00") || logging.SecretName(name) {
			continue
		}
		add(name, getenv(name))
	}
	return env
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}
