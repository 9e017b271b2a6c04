package tools_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/clawbridge/clawbridge/server"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestNonsenseArguments gives every string parameter of every action that
// runs on this machine (as TestFirstCalls picks them) values no model
// should send — a NUL byte, a path out of the workspace — in the action's
// full first call. The answer is a result or a tool error of an allowed
// code; invalid_argument and not_found name the field they are about; no
// call panics or fails with a plain error.
func TestNonsenseArguments(t *testing.T) {
	all := allTools(t, tooltest.Deps(t))
	allowed := []string{"", tool.CodeInvalid, tool.CodeNotFound, tool.CodeDenied, tool.CodeExists, tool.CodeUnavailable}
	runs := 0
	for i := range all {
		tl := &all[i]
		var schema map[string]any
		if err := json.Unmarshal(server.Published(tl).RawInputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		gen := parseSchema(schema)
		for _, action := range gen.actions {
			base := gen.call(action, true)
			for name, v := range base {
				if _, ok := v.(string); !ok || name == "action" {
					continue
				}
				for _, bad := range []string{"a\x00b", "../../../../etc/passwd"} {
					args := map[string]any{}
					for k, x := range base {
						args[k] = x
					}
					args[name] = bad
					c, err := tl.Prepare(args)
					if err == nil {
						if !runnable(tl, c) {
							continue
						}
						runs++
						err = runHandler(tl, c)
					}
					code := errorCode(err)
					where := fmt.Sprintf("%s %s %s=%q", tl.Name, action, name, bad)
					if !slices.Contains(allowed, code) {
						t.Errorf("%s: %s: %v", where, code, err)
						continue
					}
					if te, ok := tool.AsError(err); ok && (code == tool.CodeInvalid || code == tool.CodeNotFound) && te.Field == "" {
						t.Errorf("%s: %s names no field: %v", where, code, err)
					}
				}
			}
		}
	}
	t.Logf("%d handler runs", runs)
}
