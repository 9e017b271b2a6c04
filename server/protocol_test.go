package server

import (
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Protocol details checked through real mcp-go clients.

func initialize(t *testing.T, url, version string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	if err := c.Start(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "protocol-test", Version: "1"}
	res, err := c.Initialize(ctxFor(t), req)
	if err != nil {
		t.Fatal(err)
	}
	return c, res
}

func TestProtocol_Capabilities(t *testing.T) {
	f := newFixture(t, "token", 3)
	_, res := initialize(t, f.http(t), mcp.ProtocolVersion20251125)
	caps := res.Capabilities
	if caps.Logging == nil {
		t.Error("the server must declare logging: it sends notifications/message")
	}
	if caps.Elicitation != nil {
		t.Error("elicitation is a client capability; the server must not declare it")
	}
	if caps.Tools == nil || !caps.Tools.ListChanged {
		t.Error("tools.listChanged must be declared: views change per session")
	}
}

func TestPrompt_MissingRequiredArgumentIsInvalidParams(t *testing.T) {
	f := newFixture(t, "token", 3)
	url := f.http(t)
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		c, _ := initialize(t, url, version)
		for _, args := range []map[string]string{nil, {"request": "  "}, {"other": "x"}} {
			req := mcp.GetPromptRequest{}
			req.Params.Name = "task"
			req.Params.Arguments = args
			_, err := c.GetPrompt(ctxFor(t), req)
			if !errors.Is(err, mcp.ErrInvalidParams) || !strings.Contains(err.Error(), `missing required argument "request"`) {
				t.Fatalf("%s %v: want -32602 naming the argument, got %v", version, args, err)
			}
		}
		req := mcp.GetPromptRequest{}
		req.Params.Name = "task"
		req.Params.Arguments = map[string]string{"request": "merge two PDFs"}
		if res, err := c.GetPrompt(ctxFor(t), req); err != nil || len(res.Messages) == 0 {
			t.Fatalf("%s: the prompt with its argument must answer: %v", version, err)
		}
	}
}
