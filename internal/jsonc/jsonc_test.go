package jsonc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestSet_KeepsCommentsAndOtherMembers: a member is added or replaced in a
// file with both comment styles and trailing commas; the result is valid
// JSONC, holds the new value and every other value, and each comment is
// still there.
func TestSet_KeepsCommentsAndOtherMembers(t *testing.T) {
	entry := map[string]any{"command": "/bin/cb", "args": []any{"serve"}}
	cases := map[string]string{
		"add to existing object": `{
  // my servers
  "servers": {
    "other": {"command": "x", "args": ["a,b // not a comment"]}, // keep me
  },
  /* block
     comment */
  "inputs": [],
}
`,
		"add object": `// top
{ "inputs": [1, 2,], /* tail */ }`,
		"replace": `{
  "servers": {
    "clawbridge": {"command": "old"}, // old one
    "other": {}
  }
}`,
		"empty object": `{ "servers": { /* none yet */ } }`,
		"empty file":   ``,
		"not object": `{"servers": null // later
}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Set([]byte(in), []string{"servers", "clawbridge"}, entry)
			if err != nil {
				t.Fatal(err)
			}
			var before, after map[string]any
			if in != "" {
				if err := Unmarshal([]byte(in), &before); err != nil {
					t.Fatal(err)
				}
			}
			if err := Unmarshal(out, &after); err != nil {
				t.Fatalf("result is not JSONC: %v\n%s", err, out)
			}
			servers, _ := after["servers"].(map[string]any)
			if got, _ := json.Marshal(servers["clawbridge"]); string(got) != `{"args":["serve"],"command":"/bin/cb"}` {
				t.Fatalf("entry = %s\n%s", got, out)
			}
			// Everything else is unchanged.
			delete(servers, "clawbridge")
			if b, _ := before["servers"].(map[string]any); b != nil {
				delete(b, "clawbridge")
				if !reflect.DeepEqual(b, servers) {
					t.Fatalf("other servers changed: %v -> %v", b, servers)
				}
			}
			delete(before, "servers")
			delete(after, "servers")
			if len(before) > 0 && !reflect.DeepEqual(before, after) {
				t.Fatalf("other members changed: %v -> %v", before, after)
			}
			for _, c := range []string{"// my servers", "// keep me", "/* block", "comment */", "// top", "/* tail */", "/* none yet */", "// later", "\"a,b // not a comment\""} {
				if strings.Contains(in, c) && !strings.Contains(string(out), c) {
					t.Fatalf("lost %q:\n%s", c, out)
				}
			}
			if strings.Contains(in, "// old one") && strings.Contains(string(out), `"old"`) {
				t.Fatalf("old entry kept:\n%s", out)
			}
		})
	}
}

func TestStandard_KeepsOffsetsAndStrings(t *testing.T) {
	in := `{"a": "x // y /* z */", /* c */ "b": [1,], // d
}`
	out := Standard([]byte(in))
	if len(out) != len(in) {
		t.Fatalf("length changed")
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["a"] != "x // y /* z */" {
		t.Fatalf("%v %v", err, v)
	}
	// An escaped quote does not end the string: what follows it is text.
	esc := []byte(`{"e": "q\" // ,]", "f": "\\"}`)
	if got := Standard(esc); !bytes.Equal(got, esc) {
		t.Fatalf("escaped quote: %s", got)
	}
	if HasComments([]byte(`{"a": "//"}`)) || !HasComments([]byte(in)) {
		t.Fatal("HasComments")
	}
}
