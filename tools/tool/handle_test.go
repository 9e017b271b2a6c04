package tool

import (
	"context"
	"strings"
	"testing"
)

// tagged answers with the name it was built with, so a test sees which
// handler ran.
func tagged(name string) Handler {
	return func(context.Context, *Call) (*Result, error) { return &Result{Summary: name}, nil }
}

func TestActionDispatch_EachActionRunsItsOwnHandler(t *testing.T) {
	tl := multi()
	for i := range tl.Actions {
		tl.Actions[i].Handler = tagged(tl.Actions[i].Name)
	}
	for _, name := range tl.ActionNames() {
		c, err := tl.Prepare(map[string]any{"action": name, "path": "a", "most": "m"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tl.Handle(t.Context(), c)
		if err != nil || res.Summary != name {
			t.Errorf("action %s ran %v (%v)", name, res, err)
		}
	}
	// A call that skipped Prepare with an unknown action is refused, not run.
	_, err := tl.Handle(t.Context(), NewCall("delta", nil))
	wantInvalid(t, err, "action")
}

func TestActionDispatch_SingleActionTool(t *testing.T) {
	tl := typed()
	tl.Actions[0].Handler = tagged("only")
	res, err := tl.Handle(t.Context(), NewCall("", nil))
	if err != nil || res.Summary != "only" {
		t.Fatalf("single action: %v %v", res, err)
	}
}

func TestActionDispatch_ValidateRefusesAnActionWithoutHandler(t *testing.T) {
	tl := multi()
	tl.Actions[1].Handler = nil
	err := tl.Validate()
	if err == nil || !strings.Contains(err.Error(), `action "beta": no handler`) {
		t.Fatalf("Validate = %v", err)
	}
}
