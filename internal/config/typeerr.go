package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A value of the wrong type in a tool section is reported by yaml.v3 with
// its line and, for a scalar, the value, but not the key. The key is found
// here from those two, so that the message names it like an unknown key.

// typeErrorRE splits yaml.v3's "line N: cannot unmarshal !!str `v` into T".
var typeErrorRE = regexp.MustCompile("^line ([0-9]+): cannot unmarshal ([^ ]+)(?: `([^`]*)`)?")

// keyOfTypeError returns the dotted path of the key whose value the yaml
// error e is about, under n (the section at path), or path itself when the
// key cannot be told.
func keyOfTypeError(n *yaml.Node, path, e string) string {
	m := typeErrorRE.FindStringSubmatch(e)
	if m == nil {
		return path
	}
	line, _ := strconv.Atoi(m[1])
	quoted, value := strings.Contains(m[0], "`"), m[3]
	kind := yaml.ScalarNode
	switch m[2] {
	case "!!seq":
		kind = yaml.SequenceNode
	case "!!map":
		kind = yaml.MappingNode
	}
	// the value the error is about: on the line, of the kind, with the value
	about := func(v *yaml.Node) bool {
		return v.Line == line && v.Kind == kind && (!quoted || v.Value == value)
	}
	var found []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := join(path, k.Value)
				if about(v) {
					found = append(found, p)
				}
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				if about(c) {
					found = append(found, p)
				}
				walk(c, p)
			}
		}
	}
	walk(n, path)
	if len(found) == 0 {
		return path
	}
	return strings.Join(found, " or ")
}

// sectionDecodeErrors turns the error of decoding the section n at path
// into one error per problem, "line N: <path.key>: ...", values left out.
func sectionDecodeErrors(n *yaml.Node, path string, err error) []error {
	var raw []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		raw = te.Errors
	} else {
		raw = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	out := make([]error, len(raw))
	for i, e := range raw {
		line, rest, ok := strings.Cut(e, ": ")
		if !ok || !strings.HasPrefix(line, "line ") {
			out[i] = fmt.Errorf("%s: %s", path, hideValues(e))
			continue
		}
		out[i] = fmt.Errorf("%s: %s: %s", line, keyOfTypeError(n, path, e), hideValues(rest))
	}
	return out
}
