package browsertool

import (
	"maps"
	"slices"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestDispatch_EveryActionHasItsOwnVerb: the published actions and the
// verbs their handlers run are the same set, so no action falls through to
// an "unknown action" and no verb is unreachable.
func TestDispatch_EveryActionHasItsOwnVerb(t *testing.T) {
	names := ActionNames()
	slices.Sort(names)
	if keys := slices.Sorted(maps.Keys(verbs)); !slices.Equal(names, keys) {
		t.Fatalf("actions %v\nverbs   %v", names, keys)
	}
	for _, a := range New(&tool.Deps{}, nil).Actions {
		if a.Handler == nil {
			t.Errorf("%s has no handler", a.Name)
		}
	}
	// browser_use names its steps: an unknown one is the caller's error.
	_, err := NewRunner(&tool.Deps{}, nil).Do(t.Context(), "", "teleport", nil)
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "action" {
		t.Fatalf("unknown step blamed on %q", te.Field)
	}
}

// TestDispatch_HandlerRunsItsOwnAction: an action's handler does its own
// work whatever the call's Action field says; nothing re-dispatches on the
// name inside.
func TestDispatch_HandlerRunsItsOwnAction(t *testing.T) {
	const sess = "dispatch"
	tl, d, srv := startTool(t, sess)
	must(t, tl, sess, map[string]any{"action": "navigate", "url": srv.At("/form.html")})

	a, ok := tl.Action("snapshot")
	if !ok {
		t.Fatal("no snapshot action")
	}
	c := tool.NewCall("navigate", map[string]any{})
	c.Session = sess
	res, err := a.Handler(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Data.(map[string]any)["snapshot"]; !ok {
		t.Fatalf("the snapshot handler did something else: %v", res.Summary)
	}
	// browser_use's path: the same verbs by name.
	res, err = NewRunner(d, mgr).Do(t.Context(), sess, "console", tool.Args{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Data.(map[string]any)["messages"]; !ok {
		t.Fatalf("console step: %v", res.Data)
	}
}
