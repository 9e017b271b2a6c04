package cli

import (
	"encoding/json"
	"io"
	"strings"

	"clawbridge/exposure"
)

// cmdRoute prints routing decisions: one request as JSON, or JSONL in and
// out (the interface shared/eval/score_routing.py scores).
func cmdRoute(args []string, stdin io.Reader, stdout io.Writer) error {
	fs, cfgPath := newFlags("route")
	jsonl := fs.Bool("jsonl", false, `read {"id","q"} lines from stdin, write one decision per line`)
	if err := parseLoose(fs, args); err != nil {
		return err
	}
	a, err := newLookApp(*cfgPath)
	if err != nil {
		return err
	}
	defer a.Close()
	r := a.srv.Router()
	if *jsonl {
		return exposure.RouteJSONL(stdin, stdout, r, a.srv.ViewTokens)
	}
	text := strings.Join(fs.Args(), " ")
	if text == "" {
		return usageError(`route: give the request text, e.g. clawbridge route "合并这三个PDF"`)
	}
	dec := r.Route(text)
	out := struct {
		exposure.Decision
		Recommended []string `json:"recommended"`
		Tokens      int      `json:"tokens"`
	}{dec, dec.Recommended(), a.srv.ViewTokens(dec.Names())}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
