//go:build conformance

package server

// The tools and the prompt that the official conformance suite's
// input-required scenarios (@modelcontextprotocol/conformance, 2026-07-28)
// call by name, built only with `-tags conformance` for e2e's
// TestConformance2026: a product binary never publishes them. They ask
// through the same machinery as the confirmation of a high action (the
// roundTrips middleware, states held and spent in the store, capabilities
// read from each request); the names, keys and messages are the suite's.

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

func init() { addFixtures = (*Server).addConformanceFixtures }

func (s *Server) addConformanceFixtures() {
	s.addOneRoundFixtures()
	s.addStatefulFixtures()
	s.addMultiRoundFixture()
	s.addCapabilitiesFixture()
	s.mcp.AddPrompt(mcp.NewPrompt("test_input_required_result_prompt", mcp.WithPromptDescription("Asks for context before it is rendered (conformance fixture).")), func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if c := answeredField(req.Params.InputResponses, "context", "context"); c != "" {
			return mcp.NewGetPromptResult("a prompt with context", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Context: "+c))}), nil
		}
		return mcpserver.NewInputRequestBuilder("").Elicit("context", askString("What context should the prompt use?", "context")).PromptResult(), nil
	})
}

// askString is the suite's elicitation of one required string field.
func askString(message, field string) mcp.ElicitationParams {
	return mcp.ElicitationParams{Message: message, RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{field: map[string]any{"type": "string"}}, "required": []string{field},
	}}
}

// capitalQuestion is the suite's sampling request.
func capitalQuestion() mcp.CreateMessageParams {
	return mcp.CreateMessageParams{MaxTokens: 100, Messages: []mcp.SamplingMessage{
		{Role: mcp.RoleUser, Content: mcp.NewTextContent("What is the capital of France?")}}}
}

// answeredField reads the accepted answer's field; "" when absent or not one.
func answeredField(rs mcp.InputResponses, key, field string) string {
	res := mcpserver.ElicitationResponse(rs, key)
	if res == nil || res.Action != mcp.ElicitationResponseActionAccept {
		return ""
	}
	m, _ := res.Content.(map[string]any)
	v, _ := m[field].(string)
	return v
}

func (s *Server) fixtureTool(name string, h mcpserver.ToolHandlerFunc) {
	s.mcp.AddTool(mcp.NewTool(name), h)
}

// addOneRoundFixtures adds the tools that ask once, holding no state:
// elicitation, sampling, roots.
func (s *Server) addOneRoundFixtures() {
	s.fixtureTool("test_input_required_result_elicitation", func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if name := answeredField(req.Params.InputResponses, "user_name", "name"); name != "" {
			return mcp.NewToolResultText("Hello, " + name + "!"), nil
		}
		return mcpserver.NewInputRequestBuilder("").Elicit("user_name", askString("What is your name?", "name")).ToolResult(), nil
	})
	s.fixtureTool("test_input_required_result_sampling", func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res := mcpserver.SamplingResponse(req.Params.InputResponses, "capital_question"); res != nil {
			if t, ok := res.Content.(mcp.TextContent); ok {
				return mcp.NewToolResultText(t.Text), nil
			}
			return mcp.NewToolResultText(fmt.Sprint(res.Content)), nil
		}
		return mcpserver.NewInputRequestBuilder("").Sample("capital_question", capitalQuestion()).ToolResult(), nil
	})
	s.fixtureTool("test_input_required_result_list_roots", func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res := mcpserver.RootsResponse(req.Params.InputResponses, "client_roots"); res != nil {
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcp.NewToolResultText("roots: " + strings.Join(uris, ", ")), nil
		}
		return mcpserver.NewInputRequestBuilder("").Roots("client_roots").ToolResult(), nil
	})
}

// addStatefulFixtures adds the stateful ones: round 1 holds a state, a
// retry must bring it back.
func (s *Server) addStatefulFixtures() {
	stateful := func(name string, build func(*mcpserver.InputRequestBuilder), done func(mcp.InputResponses) *mcp.CallToolResult) {
		s.fixtureTool(name, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if st := req.Params.RequestState; st != "" {
				if _, err := s.confirmer.takeState(ctx, st, s.sessionOf(ctx).caller(), name); err != nil {
					return nil, err
				}
				if r := done(req.Params.InputResponses); r != nil {
					return r, nil
				}
			}
			state, err := s.confirmer.holdState(ctx, s.sessionOf(ctx).caller(), name, "round 1")
			if err != nil {
				return nil, err
			}
			b := mcpserver.NewInputRequestBuilder(state)
			build(b)
			return b.ToolResult(), nil
		})
	}
	confirmOK := func(mcp.InputResponses) *mcp.CallToolResult { return mcp.NewToolResultText("state verified") }
	okQuestion := mcp.ElicitationParams{Message: "Continue?", RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []string{"ok"}}}
	stateful("test_input_required_result_request_state", func(b *mcpserver.InputRequestBuilder) { b.Elicit("confirm", okQuestion) }, confirmOK)
	stateful("test_input_required_result_tampered_state", func(b *mcpserver.InputRequestBuilder) { b.Elicit("confirm", okQuestion) }, confirmOK)
	stateful("test_input_required_result_multiple_inputs", func(b *mcpserver.InputRequestBuilder) {
		b.Elicit("user_name", askString("What is your name?", "name")).Sample("capital_question", capitalQuestion()).Roots("client_roots")
	}, func(rs mcp.InputResponses) *mcp.CallToolResult {
		if mcpserver.ElicitationResponse(rs, "user_name") == nil || mcpserver.SamplingResponse(rs, "capital_question") == nil || mcpserver.RootsResponse(rs, "client_roots") == nil {
			return nil
		}
		return mcp.NewToolResultText("all three answered")
	})
}

// addMultiRoundFixture adds the three-round tool: the state of round 2
// carries round 1's answer.
func (s *Server) addMultiRoundFixture() {
	const multi = "test_input_required_result_multi_round"
	s.fixtureTool(multi, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		caller := s.sessionOf(ctx).caller()
		held := ""
		if st := req.Params.RequestState; st != "" {
			var err error
			if held, err = s.confirmer.takeState(ctx, st, caller, multi); err != nil {
				return nil, err
			}
		}
		rs := req.Params.InputResponses
		next, b := "", (*mcpserver.InputRequestBuilder)(nil)
		switch name, _ := strings.CutPrefix(held, "name="); {
		case held != "" && held != "round 1" && answeredField(rs, "step2", "color") != "":
			return mcp.NewToolResultText(fmt.Sprintf("%s likes %s", name, answeredField(rs, "step2", "color"))), nil
		case held == "round 1" && answeredField(rs, "step1", "name") != "":
			next = "name=" + answeredField(rs, "step1", "name")
			b = mcpserver.NewInputRequestBuilder("").Elicit("step2", askString("Step 2: What is your favorite color?", "color"))
		default:
			next = "round 1"
			b = mcpserver.NewInputRequestBuilder("").Elicit("step1", askString("Step 1: What is your name?", "name"))
		}
		state, err := s.confirmer.holdState(ctx, caller, multi, next)
		if err != nil {
			return nil, err
		}
		return b.RequestState(state).ToolResult(), nil
	})
}

// addCapabilitiesFixture adds the tool that asks only for what the
// request's client declared.
func (s *Server) addCapabilitiesFixture() {
	s.fixtureTool("test_input_required_result_capabilities", func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if len(req.Params.InputResponses) > 0 {
			return mcp.NewToolResultText("answered"), nil
		}
		b := mcpserver.NewInputRequestBuilder("")
		asked := false
		if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
			caps := info.ClientCapabilities
			if caps.Elicitation != nil {
				b.Elicit("user_name", askString("What is your name?", "name"))
				asked = true
			}
			if caps.Sampling != nil {
				b.Sample("capital_question", capitalQuestion())
				asked = true
			}
			if caps.Roots != nil {
				b.Roots("client_roots")
				asked = true
			}
		}
		if !asked {
			return mcp.NewToolResultError("the client declared none of elicitation, sampling or roots"), nil
		}
		return b.ToolResult(), nil
	})
}
