// Package jsonc reads and edits JSON with comments and trailing commas
// (JSONC, what VS Code, Gemini CLI and others accept in their settings),
// changing one member in place so the rest of the file, comments included,
// stays as the user wrote it.
package jsonc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Standard returns data as plain JSON: comments and trailing commas become
// spaces, so every offset in the result is the same as in data.
func Standard(data []byte) []byte {
	return dropTrailingCommas(blankComments(data))
}

// HasComments reports whether data holds a // or /* */ comment.
func HasComments(data []byte) bool {
	return !bytes.Equal(blankComments(data), data)
}

// blankComments replaces each comment (outside strings) with spaces,
// keeping its newlines.
func blankComments(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '"':
			i = stringEnd(out, i)
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out
}

// dropTrailingCommas blanks a comma that only whitespace separates from a
// closing } or ]. data holds no comments.
func dropTrailingCommas(data []byte) []byte {
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			i = stringEnd(data, i)
		case c == ',':
			j := skipSpace(data, i+1)
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				data[i] = ' '
			}
		}
	}
	return data
}

// stringEnd is the offset of the quote that closes the string opening at
// i, or len(data) when the string is not closed.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(data)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// Unmarshal decodes JSONC into v.
func Unmarshal(data []byte, v any) error {
	return json.Unmarshal(Standard(data), v)
}

// member is one object member: where its value starts and ends.
type member struct {
	name               string
	valueStart, valEnd int
}

// object is an object's members and the offsets of its braces.
type object struct {
	open, close int
	members     []member
}

// readObject reads the object whose '{' is at start in plain (Standard) text.
func readObject(plain []byte, start int) (object, error) {
	obj := object{open: start}
	dec := json.NewDecoder(bytes.NewReader(plain[start:]))
	if _, err := dec.Token(); err != nil { // {
		return obj, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return obj, err
		}
		name, _ := tok.(string)
		// The value starts after the colon that follows the key.
		i := start + int(dec.InputOffset())
		i = skipSpace(plain, i)
		if i >= len(plain) || plain[i] != ':' {
			return obj, errors.New("expected ':'")
		}
		i = skipSpace(plain, i+1)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return obj, err
		}
		obj.members = append(obj.members, member{name: name, valueStart: i, valEnd: start + int(dec.InputOffset())})
	}
	if _, err := dec.Token(); err != nil { // }
		return obj, err
	}
	obj.close = start + int(dec.InputOffset()) - 1
	return obj, nil
}

// Set returns data with the member at path (object keys from the top) set
// to value, which is marshalled with indentation that fits the file. Objects
// missing on the way are created. Everything else — other members, comments,
// formatting — is kept byte for byte. An empty data is an empty object.
func Set(data []byte, path []string, value any) ([]byte, error) {
	if len(path) == 0 {
		return nil, errors.New("jsonc: empty path")
	}
	if len(bytes.TrimSpace(Standard(data))) == 0 {
		data = []byte("{}\n")
	}
	plain := Standard(data)
	if err := json.Unmarshal(plain, new(map[string]any)); err != nil {
		return nil, err
	}
	at := skipSpace(plain, 0)
	for depth := 0; ; depth++ {
		obj, err := readObject(plain, at)
		if err != nil {
			return nil, err
		}
		indent := lineIndent(data, obj.open) + "  "
		var found *member
		for i := range obj.members {
			if obj.members[i].name == path[depth] {
				found = &obj.members[i] // the last one wins, as in encoding/json
			}
		}
		last := depth == len(path)-1
		if found != nil && (last || plain[found.valueStart] != '{') {
			// Replace the value in place (a non-object on the way becomes one).
			var v any = value
			if !last {
				v = nest(path[depth+1:], value)
			}
			text, err := marshal(v, lineIndent(data, found.valueStart))
			if err != nil {
				return nil, err
			}
			return splice(data, found.valueStart, found.valEnd, text), nil
		}
		if found != nil {
			at = found.valueStart
			continue
		}
		// Add a member at the end of the object.
		var v any = value
		if !last {
			v = nest(path[depth+1:], value)
		}
		text, err := marshal(v, indent)
		if err != nil {
			return nil, err
		}
		name, _ := json.Marshal(path[depth])
		entry := "\n" + indent + string(name) + ": " + string(text)
		if len(obj.members) == 0 {
			return splice(data, obj.open+1, obj.open+1, []byte(entry+"\n"+lineIndent(data, obj.open))), nil
		}
		prev := obj.members[len(obj.members)-1]
		// After the last member's line (so a comment there stays with it),
		// with a comma after its value unless one is there already.
		insertAt := obj.close
		if nl := bytes.IndexByte(data[prev.valEnd:obj.close], '\n'); nl >= 0 {
			insertAt = prev.valEnd + nl
		}
		out := splice(data, insertAt, insertAt, []byte(entry))
		if !bytes.Contains(blankComments(data[prev.valEnd:insertAt]), []byte(",")) {
			out = splice(out, prev.valEnd, prev.valEnd, []byte(","))
		}
		return out, nil
	}
}

// nest wraps value in objects named by path.
func nest(path []string, value any) any {
	for i := len(path) - 1; i >= 0; i-- {
		value = map[string]any{path[i]: value}
	}
	return value
}

func marshal(v any, indent string) ([]byte, error) {
	b, err := json.MarshalIndent(v, indent, "  ")
	if err != nil {
		return nil, fmt.Errorf("jsonc: %w", err)
	}
	return b, nil
}

// lineIndent is the leading whitespace of the line holding offset i.
func lineIndent(data []byte, i int) string {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

func splice(data []byte, from, to int, text []byte) []byte {
	out := make([]byte, 0, len(data)+len(text))
	out = append(out, data[:from]...)
	out = append(out, text...)
	return append(out, data[to:]...)
}
