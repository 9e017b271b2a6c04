package system

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type envData struct {
	Count     int               `json:"count"`
	Variables map[string]string `json:"variables"`
	// Redacted lists the variables whose whole value was hidden because
	// the name looks secret; credentials inside other values are masked in
	// place.
	Redacted []string `json:"redacted,omitempty"`
}

// maxEnvValue cuts long values (LS_COLORS and the like).
const maxEnvValue = 1000

// env snapshots the server's own environment. A secret-looking name hides
// the whole value; any other value still has credentials masked (a
// DATABASE_URL with a password, a bearer token), so nothing secret leaves.
func (s *sys) env(_ context.Context, c *tool.Call) (*tool.Result, error) {
	args := c.Args
	q := strings.ToLower(args.String("query"))
	out := envData{Variables: map[string]string{}}
	for _, kv := range os.Environ() {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || (q != "" && !strings.Contains(strings.ToLower(name), q)) {
			continue
		}
		if logging.SecretName(name) {
			out.Variables[name] = "***"
			out.Redacted = append(out.Redacted, name)
			continue
		}
		value = logging.RedactString(value)
		if len(value) > maxEnvValue {
			value = strings.ToValidUTF8(value[:maxEnvValue], "") + "…"
		}
		out.Variables[name] = value
	}
	slices.Sort(out.Redacted)
	out.Count = len(out.Variables)
	summary := fmt.Sprintf("%d environment variables", out.Count)
	if q != "" {
		summary += fmt.Sprintf(" matching %q", q)
	}
	if len(out.Redacted) > 0 {
		summary += fmt.Sprintf(", %d redacted", len(out.Redacted))
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}
