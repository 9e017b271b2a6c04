package resume

import (
	"bytes"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The published JSON Resume schema (npm @jsonresume/schema 1.3.1, MIT; see
// schema/LICENSE.md), embedded so validation works offline.
//
//go:embed schema/jsonresume.schema.json
var schemaJSON []byte

const schemaURL = "https://jsonresume.org/schema/1.3.1.json"

// resumeSchema is compiled on first use, not at start (1 ms of every cold
// start).
var resumeSchema = sync.OnceValues(compileSchema)

func compileSchema() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("resume schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // email and uri formats are checked, as the schema intends
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("resume schema: %w", err)
	}
	return c.Compile(schemaURL)
}

// schemaProblems lists the leaf validation errors as "location: message".
func schemaProblems(err error) []string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			loc := u.InstanceLocation
			if loc == "" {
				loc = "/"
			}
			out = append(out, loc+": "+u.Error.String())
		}
		for _, e := range u.Errors {
			walk(e)
		}
	}
	walk(*ve.BasicOutput())
	sort.Strings(out)
	out = dedupe(out)
	if len(out) > 10 {
		out = append(out[:10], fmt.Sprintf("and %d more", len(out)-10))
	}
	return out
}

func dedupe(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func joinProblems(p []string) string { return strings.Join(p, "; ") }
