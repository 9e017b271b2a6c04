package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clawbridge/clawbridge/exposure"
)

// routeTool is one tool of a routed view. Registered is shown only with
// --catalog, where the view may hold catalog tools this build lacks.
type routeTool struct {
	Name       string `json:"name"`
	Tag        string `json:"tag,omitempty"`
	Registered *bool  `json:"registered,omitempty"`
}

// cmdRoute prints routing decisions. One request as JSON: the view holds
// the tools this build registers — what a session would be offered;
// --catalog shows the whole product catalog's view with each tool marked
// registered or not. JSONL in and out (the interface the routing eval
// scores) always routes over the catalog and names the tools not built.
func cmdRoute(args []string, stdin io.Reader, stdout io.Writer) error {
	fs, cfgPath := newFlags("route")
	jsonl := fs.Bool("jsonl", false, `read {"id","q"} lines from stdin, write one decision per line`)
	catalog := fs.Bool("catalog", false, "show the product catalog's view, tools this build lacks included and marked")
	if err := parseLoose(fs, args); err != nil {
		return err
	}
	a, err := newLookApp(*cfgPath)
	if err != nil {
		return err
	}
	defer a.Close()
	r := a.srv.Router()
	keep := func(name string) bool { return *catalog || r.IsRegistered(name) }
	if *jsonl {
		// The eval interface: decisions over the whole catalog, so routing is
		// scored the same whatever this build holds; not_built names the
		// view's tools this build lacks.
		var buf bytes.Buffer
		if err := exposure.RouteJSONL(stdin, &buf, r, a.srv.ViewTokens); err != nil {
			return err
		}
		return markNotBuilt(&buf, stdout, r.IsRegistered)
	}
	text := strings.Join(fs.Args(), " ")
	if text == "" {
		return usageError(`route: give the request text, e.g. clawbridge route "合并这三个PDF"`)
	}
	dec := r.Route(text)
	var view []routeTool
	var names, recommended, lacking []string
	for _, v := range dec.Tools {
		if !keep(v.Name) {
			if v.Tag == exposure.TagRecommended {
				lacking = append(lacking, v.Name)
			}
			continue
		}
		rt := routeTool{Name: v.Name, Tag: v.Tag}
		if *catalog {
			reg := r.IsRegistered(v.Name)
			rt.Registered = &reg
		}
		view = append(view, rt)
		names = append(names, v.Name)
		if v.Tag == exposure.TagRecommended {
			recommended = append(recommended, v.Name)
		}
	}
	det := dec.Detection
	det.Tools = filter(det.Tools, keep)
	out := struct {
		Tier        exposure.Tier      `json:"tier"`
		Intents     []string           `json:"intents"`
		Primary     string             `json:"primary_intent"`
		Confidence  float64            `json:"confidence"`
		Lang        string             `json:"lang"`
		Tools       []routeTool        `json:"tools"`
		Recommended []string           `json:"recommended"`
		Tokens      int                `json:"tokens"`
		Note        string             `json:"note,omitempty"`
		Detection   exposure.Detection `json:"detection"`
	}{dec.Tier, nonNil(dec.Intents), dec.Primary, dec.Confidence, dec.Lang, view, nonNil(recommended), a.srv.ViewTokens(names), "", det}
	if len(lacking) > 0 {
		out.Note = "the catalog recommends " + strings.Join(lacking, ", ") + ", which this build does not have (--catalog shows the catalog's view)"
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// registeredLines rewrites RouteJSONL's lines with only the tools keep
// admits, the tokens counted again for that view.
// routeLine is a JSONL decision with the tools this build lacks named.
type routeLine struct {
	exposure.RouteLine
	NotBuilt []string `json:"not_built"`
}

func markNotBuilt(in io.Reader, out io.Writer, registered func(string) bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		var l routeLine
		if err := json.Unmarshal(sc.Bytes(), &l.RouteLine); err != nil {
			return fmt.Errorf("route jsonl: %w", err)
		}
		l.NotBuilt = nonNil(filter(l.Tools, func(n string) bool { return !registered(n) }))
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return sc.Err()
}

func filter(names []string, keep func(string) bool) []string {
	var out []string
	for _, n := range names {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
