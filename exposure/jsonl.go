package exposure

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// EstimateTokens approximates the cl100k_base token count of s without a
// tokenizer: ASCII text at 4 bytes a token (cl100k's English average, JSON
// punctuation included) and one token per non-ASCII character (CJK runs
// close to one token per character in cl100k; rarer characters take two,
// common pairs share one, so this is a middle estimate). No pure-Go cl100k
// module with an embedded BPE file was available; swap in a real tokenizer
// through RouteJSONL's tokens argument when one is.
func EstimateTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		other++
		i += size
	}
	return (ascii+3)/4 + other
}

// SchemaTokens is the assumed token cost of one tool's input schema and
// annotations in a tools/list payload when only catalog metadata is known
// (the server counts the real payload).
const SchemaTokens = 220

// EstimateViewTokens estimates the tools/list payload of a view from the
// catalog: each tool's name, description and SchemaTokens.
func (r *Router) EstimateViewTokens(names []string) int {
	total := 0
	for _, n := range names {
		desc := ""
		for _, ti := range r.t.Catalog {
			if ti.Name == n {
				desc = ti.Description
				break
			}
		}
		total += EstimateTokens(`{"name":"`+n+`","description":"`+desc+`"},`) + SchemaTokens
	}
	return total
}

// RouteLine is one output line of RouteJSONL (the interface
// shared/eval/score_routing.py scores).
type RouteLine struct {
	ID          string   `json:"id"`
	Q           string   `json:"q"`
	Intents     []string `json:"intents"`
	Primary     string   `json:"primary_intent"`
	Confidence  float64  `json:"confidence"`
	Tier        Tier     `json:"tier"`
	Tools       []string `json:"tools"`
	Recommended []string `json:"recommended"`
	Tokens      int      `json:"tokens"`
}

// RouteJSONL reads lines {"id":…,"q":…} and writes one RouteLine per input
// line. tokens counts the tools/list payload of a view; nil uses
// router.EstimateViewTokens. Blank lines are skipped; a malformed line is an
// error naming its line number.
func RouteJSONL(r io.Reader, w io.Writer, router *Router, tokens func(names []string) int) error {
	return routeJSONL(r, w, router, router.Route, tokens)
}

func routeJSONL(r io.Reader, w io.Writer, router *Router, route func(string) Decision, tokens func(names []string) int) error {
	if tokens == nil {
		tokens = router.EstimateViewTokens
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(trimSpace(b)) == 0 {
			continue
		}
		var in struct {
			ID json.RawMessage `json:"id"`
			Q  string          `json:"q"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			return fmt.Errorf("route jsonl: line %d: %w", line, err)
		}
		id := string(in.ID)
		var s string
		if json.Unmarshal(in.ID, &s) == nil {
			id = s
		}
		d := route(in.Q)
		out := RouteLine{ID: id, Q: in.Q, Intents: d.Intents, Primary: d.Primary, Confidence: d.Confidence,
			Tier: d.Tier, Tools: d.Names(), Recommended: d.Recommended()}
		if out.Intents == nil {
			out.Intents = []string{}
		}
		if out.Recommended == nil {
			out.Recommended = []string{}
		}
		out.Tokens = tokens(out.Tools)
		if err := enc.Encode(out); err != nil {
			return fmt.Errorf("route jsonl: write: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("route jsonl: read: %w", err)
	}
	return nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
