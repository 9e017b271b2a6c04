package codeassist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/itchyny/gojq"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// Limits of one jq run: the results kept and their size. The worker's
// limits (jqworker.go) and the call's timeout stop a query that never ends.
const (
	maxJQResults = 1000
	maxJQOut     = 1 << 20
	maxJQQuery   = 8 << 10
)

func (a *assistant) json(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, err := a.readSource(c, `text is the JSON itself, path a workspace .json file; e.g. text: "{\"a\": 1}"`)
	if err != nil {
		return nil, err
	}
	if pos, msg := firstJSONError(src.text); msg != "" {
		line, col := lineCol(src.text, pos)
		return &tool.Result{
			Summary: fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, msg),
			Data:    map[string]any{"valid": false, "error": msg, "line": line, "column": col, "offset": pos},
		}, nil
	}
	if !c.Args.Has("query") {
		out, err := indentJSON(src.text, c.Args.Int("indent", 2))
		if err != nil {
			return nil, err
		}
		return &tool.Result{Summary: "valid JSON, pretty-printed", Data: map[string]any{"valid": true, "pretty": string(out)}}, nil
	}
	return a.runJQ(ctx, c.Args.String("query"), src.text)
}

// firstJSONError returns the byte offset and message of the first error in
// text, or "" when text is exactly one JSON value.
func firstJSONError(text string) (int64, string) {
	if strings.TrimSpace(text) == "" {
		return 0, "empty input: no JSON value"
	}
	dec := json.NewDecoder(strings.NewReader(text))
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// Offset is just past the offending byte; point at the byte.
			return max(se.Offset-1, 0), se.Error()
		case errors.Is(err, io.ErrUnexpectedEOF):
			return int64(len(text)), "unexpected end of input: a string, array or object is not closed"
		}
		return dec.InputOffset(), err.Error()
	}
	// One value only: anything after it but spaces is an error.
	rest := text[dec.InputOffset():]
	if trimmed := strings.TrimLeft(rest, " \t\r\n"); trimmed != "" {
		return dec.InputOffset() + int64(len(rest)-len(trimmed)), "unexpected content after the JSON value"
	}
	return 0, ""
}

// lineCol turns a byte offset into a 1-based line and column (in characters).
func lineCol(text string, off int64) (int, int) {
	if off > int64(len(text)) {
		off = int64(len(text))
	}
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// indentJSON pretty-prints valid JSON keeping key order; indent 0 compacts.
func indentJSON(text string, indent int) ([]byte, error) {
	var out bytes.Buffer
	var err error
	if indent == 0 {
		err = json.Compact(&out, []byte(text))
	} else {
		err = json.Indent(&out, []byte(strings.TrimSpace(text)), "", strings.Repeat(" ", indent))
		out.WriteByte('\n')
	}
	if err != nil {
		if pos, msg := firstJSONError(text); msg != "" {
			line, col := lineCol(text, pos)
			return nil, tool.Invalid("text", fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, msg), "fix the JSON first")
		}
		return nil, tool.Invalid("text", "invalid JSON: "+err.Error(), "")
	}
	return out.Bytes(), nil
}

// evalJQ runs a jq program with gojq over one JSON value, in the jq worker
// (jqworker.go), never in the server. The program sees no environment
// ($ENV and env are empty), no other inputs and no modules. It returns the
// results as JSON and, when a cap stopped them, why.
func evalJQ(ctx context.Context, program, text string) ([]json.RawMessage, string, error) {
	q, err := gojq.Parse(program)
	if err != nil {
		return nil, "", tool.Invalid("query", "jq syntax: "+err.Error(), "see the jq manual; e.g. '.items[] | .name'")
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, "", tool.Invalid("query", "jq: "+err.Error(), "functions reading files, inputs or the environment are not available")
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var input any
	if err := dec.Decode(&input); err != nil {
		return nil, "", tool.Invalid("text", "invalid JSON: "+err.Error(), "")
	}
	input = normalizeNumbers(input)
	results := []json.RawMessage{}
	size := 0
	iter := code.RunWithContext(ctx, input)
	for {
		v, ok := iter.Next()
		if !ok {
			return results, "", nil
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return results, "", nil
			}
			return nil, "", tool.Invalid("query", "jq: "+err.Error(), "")
		}
		raw, err := gojq.Marshal(v)
		if err != nil {
			return nil, "", tool.Invalid("query", "jq result cannot be written as JSON: "+err.Error(), "")
		}
		if len(results) >= maxJQResults || size+len(raw) > maxJQOut {
			return results, fmt.Sprintf("stopped after %d results (limits: %d results, %d bytes)", len(results), maxJQResults, maxJQOut), nil
		}
		size += len(raw)
		results = append(results, raw)
	}
}

// normalizeNumbers turns json.Number into the number types gojq takes: int,
// *big.Int for integers too large for an int (kept exact, as jq 1.7 does),
// float64 for the others.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return b
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
