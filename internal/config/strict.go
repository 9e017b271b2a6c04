package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"

	"gopkg.in/yaml.v3"
)

// Strict decoding. yaml.v3's KnownFields does not reach through a custom
// UnmarshalYAML or Node.Decode (both start a fresh, lenient decoder), which
// is how the file and the tool sections are decoded; so the keys are checked
// here instead, against the yaml tags of the type they decode into, and a
// misspelled key is an error with its line and dotted path.

var (
	nodeType        = reflect.TypeFor[yaml.Node]()
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
)

// unknownKeys lists the mapping keys under n that type t has no field for,
// walking structs, maps, slices and pointers. Values of the wrong kind are
// left to the decoder, which reports them; a type with its own UnmarshalYAML
// and a yaml.Node (the tool sections) are not entered.
func unknownKeys(n *yaml.Node, t reflect.Type, path string) []error {
	for n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nodeType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	var errs []error
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		fields, open := yamlFields(t)
		if open {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" { // a merge key: its mapping belongs here
				if v.Kind == yaml.SequenceNode {
					for _, m := range v.Content {
						errs = append(errs, unknownKeys(m, t, path)...)
					}
				} else {
					errs = append(errs, unknownKeys(v, t, path)...)
				}
				continue
			}
			ft, ok := fields[k.Value]
			if !ok {
				errs = append(errs, fmt.Errorf("line %d: unknown key %q%s", k.Line, join(path, k.Value), suggest(k.Value, fields)))
				continue
			}
			errs = append(errs, unknownKeys(v, ft, join(path, k.Value))...)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			errs = append(errs, unknownKeys(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value))...)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return nil
		}
		for i, item := range n.Content {
			errs = append(errs, unknownKeys(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}

// yamlFields maps the keys of struct t to their types as yaml.v3 names them
// (the tag's name, else the lower-cased field name; inline structs merged).
// open is true when an inline map takes any key.
func yamlFields(t reflect.Type) (fields map[string]reflect.Type, open bool) {
	fields = map[string]reflect.Type{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "inline") {
			if f.Type.Kind() == reflect.Map {
				return nil, true
			}
			inner, o := yamlFields(f.Type)
			if o {
				return nil, true
			}
			for k, v := range inner {
				fields[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f.Type
	}
	return fields, false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// suggest names the closest known key, or lists them when none is close.
func suggest(key string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	if best := wording.Closest(key, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	if len(names) == 0 {
		return " (this section takes no keys)"
	}
	return " (known keys: " + strings.Join(names, ", ") + ")"
}

// quotedValue matches the value yaml.v3 quotes in a type error; it is cut
// so that a secret written in the wrong place never reaches a log.
var quotedValue = regexp.MustCompile("`[^`]*`")

// decodeErrors turns a yaml error into one error per problem, each starting
// with its line, with the offending values left out.
func decodeErrors(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range joined.Unwrap() {
			out = append(out, decodeErrors(e)...)
		}
		return out
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return []error{errors.New(hideValues(strings.TrimPrefix(err.Error(), "yaml: ")))}
	}
	out := make([]error, 0, len(te.Errors))
	for _, e := range te.Errors {
		out = append(out, errors.New(hideValues(e)))
	}
	return out
}

func hideValues(s string) string {
	return strings.ReplaceAll(quotedValue.ReplaceAllString(s, ""), "  ", " ")
}
