package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// canSample reports whether the client declared the sampling capability
// on a session the server can ask back (not a stateless request).
func (s *session) canSample(ctx context.Context) bool {
	if mcpserver.IsModernRequest(ctx) {
		return false
	}
	ci, ok := mcpserver.ClientSessionFromContext(ctx).(mcpserver.SessionWithClientInfo)
	return ok && ci.GetClientCapabilities().Sampling != nil
}

// sampler is tool.Call.Sample over MCP sampling/createMessage; the tool's
// context carries the client session.
func (s *Server) sampler() tool.Sampler {
	return func(ctx context.Context, req tool.SampleRequest) (*tool.SampleResult, error) {
		p := mcp.CreateMessageParams{SystemPrompt: req.System, MaxTokens: req.MaxTokens, Temperature: req.Temperature}
		for _, m := range req.Messages {
			role := mcp.RoleUser
			if m.Role == "assistant" {
				role = mcp.RoleAssistant
			}
			p.Messages = append(p.Messages, mcp.SamplingMessage{Role: role, Content: mcp.NewTextContent(m.Text)})
		}
		if len(req.ModelHints) > 0 || req.CostPriority > 0 || req.SpeedPriority > 0 || req.IntelligencePriority > 0 {
			mp := &mcp.ModelPreferences{CostPriority: req.CostPriority, SpeedPriority: req.SpeedPriority, IntelligencePriority: req.IntelligencePriority}
			for _, h := range req.ModelHints {
				mp.Hints = append(mp.Hints, mcp.ModelHint{Name: h})
			}
			p.ModelPreferences = mp
		}
		// Sampling is deprecated from 2026-07-28 on, but clients of the
		// earlier versions we serve declare it, and it is their own model.
		//lint:ignore SA1019 used only for sessions that declared sampling
		res, err := s.mcp.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: p})
		if err != nil {
			return nil, err
		}
		text := samplingText(res.Content)
		if text == "" {
			return nil, errors.New("the client's model answered without text")
		}
		return &tool.SampleResult{Text: text, Model: res.Model, StopReason: res.StopReason}, nil
	}
}

// samplingText joins the text parts of a sampling answer, however the
// client's JSON decoded into it.
func samplingText(c any) string {
	switch v := c.(type) {
	case mcp.TextContent:
		return v.Text
	case *mcp.TextContent:
		return v.Text
	case []mcp.Content:
		var parts []string
		for _, x := range v {
			parts = append(parts, samplingText(x))
		}
		return strings.Join(parts, "")
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, samplingText(x))
		}
		return strings.Join(parts, "")
	case map[string]any:
		if t, _ := v["type"].(string); t == "text" {
			s, _ := v["text"].(string)
			return s
		}
	case string:
		return v
	case nil:
	default:
		return fmt.Sprint(v)
	}
	return ""
}
