package aiwriter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// chatClient speaks OpenAI's /v1/chat/completions, streaming or not, over
// the outbound guard's HTTP client.
type chatClient struct {
	http *http.Client
	ep   Endpoint
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Temperature float64       `json:"temperature,omitempty"`
	Stream      bool          `json:"stream,omitempty"`
}

// chatChoice covers both shapes: message (whole answer) and delta (a
// streamed piece).
type chatChoice struct {
	Message      chatMessage `json:"message"`
	Delta        chatMessage `json:"delta"`
	FinishReason string      `json:"finish_reason"`
}

type chatResponse struct {
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Error   *apiError    `json:"error"`
}

// apiError is OpenAI's error body: {"error": {"message", "type", "code"}}.
type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// complete sends one request; onPiece, if set, is called as streamed text
// arrives (with the text so far).
func (c *chatClient) complete(ctx context.Context, req tool.SampleRequest, onPiece func(sofar int)) (*tool.SampleResult, error) {
	ep := webapi.Endpoint{What: "the model endpoint", Config: "tools.ai_writer.endpoint", KeyEnv: "tools.ai_writer.endpoint.api_key_env"}
	if c.ep.APIKeyEnv != "" {
		if ep.Key = os.Getenv(c.ep.APIKeyEnv); ep.Key == "" {
			return nil, tool.Errorf(tool.CodeUnavailable, "set "+c.ep.APIKeyEnv+" in the server's environment and restart it",
				"the API key variable %s (tools.ai_writer.endpoint.api_key_env) is empty", c.ep.APIKeyEnv)
		}
	}
	body := chatRequest{Model: c.ep.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature, Stream: c.ep.Stream}
	if req.System != "" {
		body.Messages = append(body.Messages, chatMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		body.Messages = append(body.Messages, chatMessage{Role: m.Role, Content: m.Text})
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(c.ep.BaseURL, "/")+"/chat/completions", bytes.NewReader(raw))
	if err != nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.ai_writer.endpoint.base_url", "endpoint: %v", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.ep.Stream {
		hr.Header.Set("Accept", "text/event-stream")
	}
	if ep.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+ep.Key)
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ep.Unreachable(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10)) // enough for its message
		return nil, ep.Status(resp.StatusCode, b)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return readStream(resp.Body, ep, onPiece)
	}
	var cr chatResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&cr); err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "check that base_url points at an OpenAI-compatible /v1", "the model endpoint sent an unreadable answer: %v", err)
	}
	if cr.Error != nil {
		return nil, modelError(cr.Error, ep)
	}
	if len(cr.Choices) == 0 || cr.Choices[0].Message.Content == "" {
		return nil, tool.Errorf(tool.CodeFailed, "try again, or with a larger max_tokens", "the model endpoint answered with no text")
	}
	return &tool.SampleResult{Text: cr.Choices[0].Message.Content, Model: cr.Model, StopReason: cr.Choices[0].FinishReason}, nil
}

// readStream reads server-sent events: "data: {chunk}" lines until
// "data: [DONE]" or the end of the body.
func readStream(r io.Reader, ep webapi.Endpoint, onPiece func(int)) (*tool.SampleResult, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var text strings.Builder
	res := &tool.SampleResult{}
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue // comments, event: and id: lines
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			break
		}
		var chunk chatResponse
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, tool.Errorf(tool.CodeFailed, "check that base_url points at an OpenAI-compatible /v1", "the model endpoint streamed an unreadable event: %v", err)
		}
		if chunk.Error != nil {
			return nil, modelError(chunk.Error, ep)
		}
		if chunk.Model != "" {
			res.Model = chunk.Model
		}
		for _, ch := range chunk.Choices {
			text.WriteString(ch.Delta.Content)
			if ch.FinishReason != "" {
				res.StopReason = ch.FinishReason
			}
		}
		if onPiece != nil {
			onPiece(text.Len())
		}
	}
	if err := sc.Err(); err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try again", "the model endpoint's stream broke: %s", ep.Redact(err.Error()))
	}
	if text.Len() == 0 {
		return nil, tool.Errorf(tool.CodeFailed, "try again, or with a larger max_tokens", "the model endpoint streamed no text")
	}
	res.Text = text.String()
	return res, nil
}

func modelError(e *apiError, ep webapi.Endpoint) error {
	return tool.Errorf(tool.CodeFailed, "check tools.ai_writer.endpoint (base_url, model)", "the model endpoint reported an error: %s", ep.Redact(e.Message))
}
