package server

import (
	"context"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestConfirmPreview_ActionPreviewAndPrivateParams: a High action's own
// preview is what the person confirms, and a Private parameter (a message
// body) reaches neither the audit arguments nor the default description.
func TestConfirmPreview_ActionPreviewAndPrivateParams(t *testing.T) {
	tl := &tool.Tool{Name: "mailer", Title: "M", Description: "d", Actions: []tool.Action{
		{Name: "send", Level: tool.High, Timeout: tool.Normal, Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return nil, nil },
			Params: []tool.Param{{Name: "text", Type: tool.String, Private: true, Description: "body"}, {Name: "to", Type: tool.String, Description: "to"}},
			Preview: func(_ context.Context, c *tool.Call) (string, error) {
				return "to " + c.Args.String("to") + "\n\n" + c.Args.String("text"), nil
			}},
		{Name: "raw", Level: tool.High, Timeout: tool.Normal, Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return nil, nil },
			Params: []tool.Param{{Name: "text", Type: tool.String, Private: true, Description: "body"}}},
	}}
	args := map[string]any{"to": "a@example.org", "text": "the confidential body"}
	w := withholdPrivate(tl, args)
	if w["text"] != "[withheld: 21 chars]" || w["to"] != "a@example.org" || args["text"] != "the confidential body" {
		t.Fatalf("withheld %v (original %v)", w, args)
	}
	what, err := describeCall(t.Context(), tl, tool.NewCall("send", args))
	if err != nil || what != "mailer.send: to a@example.org\n\nthe confidential body" {
		t.Fatalf("preview %q %v", what, err)
	}
	what, _ = describeCall(t.Context(), tl, tool.NewCall("raw", map[string]any{"text": "the confidential body"}))
	if strings.Contains(what, "confidential") {
		t.Fatalf("default description holds the body: %s", what)
	}
}
