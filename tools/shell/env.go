package shell

import (
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/logging"
)

// baseEnv are the variables every command gets (when the server has them).
// Everything else in the server's environment (API keys, tokens, the
// CLAWBRIDGE_* settings) stays out of reach of the program and of `env`.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"}

// defaultPath is used when the server itself runs without a PATH.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

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
	add("PATH", cleanPath(getenv("PATH")))
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

// cleanPath keeps only absolute PATH entries: an empty or relative entry
// would make a program name resolve to a file in the working directory,
// which the model may have written.
func cleanPath(p string) string {
	var keep []string
	for _, dir := range filepath.SplitList(p) {
		if filepath.IsAbs(dir) {
			keep = append(keep, dir)
		}
	}
	if len(keep) == 0 {
		return defaultPath
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}
